import type { Db } from "../../../db/client.ts";
import type { PaymentGateway } from "../../../payments/gateway.ts";
import { filedProof } from "./filed-proof.ts";
import { proofPhoto, proofSignatureSvg, returnOf } from "./proof.ts";
import type { RenderPool } from "./render-pool.ts";
import { oneReturn } from "./returns.ts";
import type { OpsScope } from "./scope.ts";

export interface DocumentDeps {
  db: Db;
  gateway: PaymentGateway;
  /** The service's zone: the PDFs show times as the pharmacy reads a clock. */
  timeZone: string;
  /** Draws the PDFs off the event loop, each within a time bound (render-pool.ts). */
  renderPool: RenderPool;
}

/** GET orders/{id}/proof.pdf: the filed proof with its signature, the return's signature and the photo, drawn as one page. */
export async function proofOfDeliveryPdf(deps: DocumentDeps, scope: OpsScope, orderId: number): Promise<{ orderId: number; pdf: Buffer }> {
  const proof = await filedProof(deps.db, deps.gateway, scope, orderId, deps.timeZone);
  const signatureSvg = proof.signature_url ? await proofSignatureSvg(deps.db, scope, proof.order.id) : null;
  const returned = proof.returned ? await returnOf(deps.db, proof.order.id) : null;
  const photo = proof.photo_url ? await proofPhoto(deps.db, scope, proof.order.id) : null;
  const pdf = await deps.renderPool.render({
    kind: "proof",
    proof,
    options: { timeZone: deps.timeZone, signatureSvg, returnSignatureSvg: returned?.signatureSvg ?? null, photo },
  });
  return { orderId: proof.order.id, pdf };
}

/** GET returns/{id}.pdf: one return manifest with the staff's signature. */
export async function returnManifestPdf(deps: DocumentDeps, scope: OpsScope, returnId: number): Promise<{ manifestId: number; pdf: Buffer }> {
  const { manifest, signatureSvg } = await oneReturn(deps.db, scope, returnId, deps.timeZone);
  const pdf = await deps.renderPool.render({ kind: "manifest", manifest, options: { timeZone: deps.timeZone, signatureSvg } });
  return { manifestId: manifest.id, pdf };
}
