import type { FastifyReply } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { OPS_API_PREFIX, OpsIdParams } from "../../../domain/contract/ops.ts";
import { Custody, Proof, ReturnsQuery, ReturnsResponse } from "../../../domain/contract/ops-proof.ts";
import { notFound } from "../../http/errors.ts";
import { orderCustody } from "../services/proof/custody.ts";
import { proofOfDeliveryPdf, returnManifestPdf, type DocumentDeps } from "../services/proof/documents.ts";
import { filedProof } from "../services/proof/filed-proof.ts";
import { proofPhoto, proofSignatureSvg } from "../services/proof/proof.ts";
import { dayReturns, oneReturn } from "../services/proof/returns.ts";
import { opsCaller, pharmacyScope } from "../auth.ts";
import { OPS_TAG, opsRefusals, opsSecurity } from "./shared.ts";

export type ProofRouteDeps = DocumentDeps;

/**
 * A stored signature, served so that it can never act: an image type, no
 * sniffing, and a CSP that forbids every fetch and script and sandboxes the
 * document should anyone open it directly.
 */
function sendInertSvg(reply: FastifyReply, svg: string) {
  return reply
    .type("image/svg+xml; charset=utf-8")
    .header("content-security-policy", "default-src 'none'; style-src 'unsafe-inline'; sandbox")
    .header("x-content-type-options", "nosniff")
    .header("content-disposition", 'inline; filename="signature.svg"')
    .header("cache-control", "private, no-store")
    .send(svg);
}

/**
 * A stored photo, served as the image type its bytes were checked to be:
 * no sniffing, a CSP that forbids everything, and a download-safe name.
 */
function sendInertPhoto(reply: FastifyReply, photo: { mediaType: string; bytes: Buffer }) {
  const extension = photo.mediaType.split("/")[1] === "jpeg" ? "jpg" : photo.mediaType.split("/")[1];
  return reply
    .type(photo.mediaType)
    .header("content-security-policy", "default-src 'none'; sandbox")
    .header("x-content-type-options", "nosniff")
    .header("content-disposition", `inline; filename="photo.${extension}"`)
    .header("cache-control", "private, no-store")
    .send(photo.bytes);
}

function sendPdf(reply: FastifyReply, pdf: Buffer, filename: string) {
  return reply
    .type("application/pdf")
    .header("content-disposition", `inline; filename="${filename}"`)
    .header("cache-control", "private, no-store")
    .send(pdf);
}

const binary = (description: string) => ({ 200: z.any().describe(description), ...opsRefusals });

/** Proof of delivery, chain of custody and the day's returns (docs/operations.md). */
export const opsProofRoutes =
  (deps: ProofRouteDeps): FastifyPluginAsyncZod =>
  async (app) => {
    const scopeOf = (request: Parameters<typeof opsCaller>[0]) => ({ pharmacyId: pharmacyScope(opsCaller(request)) });

    app.get(
      `${OPS_API_PREFIX}/orders/:id/proof`,
      {
        schema: {
          summary: "The order's proof of delivery: patient, address, Rx numbers, outcome, recipient, signature link, ID (last 4), payment, time and place.",
          tags: [OPS_TAG],
          security: opsSecurity,
          params: OpsIdParams,
          response: { 200: Proof, ...opsRefusals },
        },
      },
      async (request) => filedProof(deps.db, deps.gateway, scopeOf(request), request.params.id, deps.timeZone),
    );

    app.get(
      `${OPS_API_PREFIX}/orders/:id/proof.pdf`,
      {
        schema: {
          summary: "The proof of delivery as a one-page PDF in any script, signature drawn as vectors.",
          tags: [OPS_TAG],
          security: opsSecurity,
          params: OpsIdParams,
          produces: ["application/pdf"],
          response: binary("application/pdf"),
        },
      },
      async (request, reply) => {
        const { orderId, pdf } = await proofOfDeliveryPdf(deps, scopeOf(request), request.params.id);
        return sendPdf(reply, pdf, `proof-of-delivery-${orderId}.pdf`);
      },
    );

    app.get(
      `${OPS_API_PREFIX}/orders/:id/proof/signature.svg`,
      {
        schema: {
          summary: "The recipient's signature (SVG), served inert: image/svg+xml with a sandboxing CSP.",
          tags: [OPS_TAG],
          security: opsSecurity,
          params: OpsIdParams,
          produces: ["image/svg+xml"],
          response: binary("image/svg+xml"),
        },
      },
      async (request, reply) => {
        const svg = await proofSignatureSvg(deps.db, scopeOf(request), request.params.id);
        if (!svg) throw notFound(`A signature for order ${request.params.id}`);
        return sendInertSvg(reply, svg);
      },
    );

    app.get(
      `${OPS_API_PREFIX}/orders/:id/proof/photo`,
      {
        schema: {
          summary: "The photo of the drop-off where nobody signed (JPEG, WebP or PNG), served inert with its checked type.",
          tags: [OPS_TAG],
          security: opsSecurity,
          params: OpsIdParams,
          produces: ["image/jpeg", "image/webp", "image/png"],
          response: binary("image/jpeg, image/webp or image/png"),
        },
      },
      async (request, reply) => {
        const photo = await proofPhoto(deps.db, scopeOf(request), request.params.id);
        if (!photo) throw notFound(`A photo for order ${request.params.id}`);
        return sendInertPhoto(reply, photo);
      },
    );

    app.get(
      `${OPS_API_PREFIX}/orders/:id/custody`,
      {
        schema: {
          summary: "The order's chain of custody, in time order, from the audit trail.",
          tags: [OPS_TAG],
          security: opsSecurity,
          params: OpsIdParams,
          response: { 200: Custody, ...opsRefusals },
        },
      },
      async (request) => orderCustody(deps.db, scopeOf(request), request.params.id),
    );

    app.get(
      `${OPS_API_PREFIX}/returns`,
      {
        schema: {
          summary: "A pharmacy's return manifests for a service day: items, cash and check totals, staff signature.",
          tags: [OPS_TAG],
          security: opsSecurity,
          querystring: ReturnsQuery,
          response: { 200: ReturnsResponse, ...opsRefusals },
        },
      },
      async (request) => ({ returns: await dayReturns(deps.db, scopeOf(request), request.query.pharmacy_id, request.query.service_date, deps.timeZone) }),
    );

    app.get(
      `${OPS_API_PREFIX}/returns/:id.pdf`,
      {
        schema: {
          summary: "One return manifest as a PDF (one or more pages): each order on it, the totals and the staff's signature.",
          tags: [OPS_TAG],
          security: opsSecurity,
          params: OpsIdParams,
          produces: ["application/pdf"],
          response: binary("application/pdf"),
        },
      },
      async (request, reply) => {
        const { manifestId, pdf } = await returnManifestPdf(deps, scopeOf(request), request.params.id);
        return sendPdf(reply, pdf, `return-${manifestId}.pdf`);
      },
    );

    app.get(
      `${OPS_API_PREFIX}/returns/:id/signature.svg`,
      {
        schema: {
          summary: "The pharmacy staff's signature on a return (SVG), served inert.",
          tags: [OPS_TAG],
          security: opsSecurity,
          params: OpsIdParams,
          produces: ["image/svg+xml"],
          response: binary("image/svg+xml"),
        },
      },
      async (request, reply) => sendInertSvg(reply, (await oneReturn(deps.db, scopeOf(request), request.params.id, deps.timeZone)).signatureSvg),
    );
  };
