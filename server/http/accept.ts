import type { FastifyInstance } from "fastify";
import { API_VERSION } from "../../domain/contract/common.ts";

const VENDOR = /^application\/vnd\.rxcourier(?:\.v(\d+))?\+json$/;

/**
 * The documents the API serves (proof and return PDFs, signature SVGs): a
 * client fetching one may ask for its own type alone, as a PDF viewer or
 * filing system does; the version check is about JSON it could misread.
 */
const DOCUMENT_TYPES: Record<string, string[]> = {
  pdf: ["application/pdf"],
  svg: ["image/svg+xml", "image/*"],
};

/**
 * Spec §7: calls send a versioned vendor media type in Accept. A client that
 * asks for a version this server does not speak gets 406 instead of a body it
 * would misread; generic JSON and no Accept at all are served the current version.
 */
export function acceptsThisVersion(accept: string | undefined, path = ""): boolean {
  if (!accept) return true;
  const documentTypes = DOCUMENT_TYPES[/\.(\w+)$/.exec(path)?.[1] ?? ""] ?? [];
  const ranges = accept.split(",").map((part) => part.split(";")[0]!.trim().toLowerCase());
  return ranges.some((range) => {
    if (range === "*/*" || range === "application/*" || range === "application/json") return true;
    if (documentTypes.includes(range)) return true;
    const vendor = VENDOR.exec(range);
    return vendor != null && (vendor[1] == null || Number(vendor[1]) === API_VERSION);
  });
}

export function installAcceptCheck(app: FastifyInstance): void {
  app.addHook("onRequest", async (request, reply) => {
    if (!request.url.startsWith("/api/")) return;
    if (acceptsThisVersion(request.headers.accept, request.url.split("?")[0])) return;
    return reply.status(406).send({
      error: "not_acceptable",
      message: `This server speaks application/vnd.rxcourier.v${API_VERSION}+json; update the app and try again.`,
    });
  });
}
