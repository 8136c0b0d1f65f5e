import type { FastifyInstance } from "fastify";
import { API_VERSION } from "../../domain/contract/common.ts";

const VENDOR = /^application\/vnd\.rxcourier(?:\.v(\d+))?\+json$/;

/**
 * Spec §7: calls send a versioned vendor media type in Accept. A client that
 * asks for a version this server does not speak gets 406 instead of a body it
 * would misread; generic JSON and no Accept at all are served the current version.
 */
export function acceptsThisVersion(accept: string | undefined): boolean {
  if (!accept) return true;
  const ranges = accept.split(",").map((part) => part.split(";")[0]!.trim().toLowerCase());
  return ranges.some((range) => {
    if (range === "*/*" || range === "application/*" || range === "application/json") return true;
    const vendor = VENDOR.exec(range);
    return vendor != null && (vendor[1] == null || Number(vendor[1]) === API_VERSION);
  });
}

export function installAcceptCheck(app: FastifyInstance): void {
  app.addHook("onRequest", async (request, reply) => {
    if (!request.url.startsWith("/api/")) return;
    if (acceptsThisVersion(request.headers.accept)) return;
    return reply.status(406).send({
      error: "not_acceptable",
      message: `This server speaks application/vnd.rxcourier.v${API_VERSION}+json; update the app and try again.`,
    });
  });
}
