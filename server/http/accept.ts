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
  // The drop-off photo (…/proof/photo): JPEG, WebP or PNG, whichever was stored.
  photo: ["image/jpeg", "image/webp", "image/png", "image/*"],
};

/** The document a path serves, by its extension (or the photo's last segment); none for JSON. */
function documentTypes(path: string): string[] {
  // The live stream (issue 27): EventSource asks for text/event-stream.
  if (path.split("?")[0] === "/api/ops/v1/events") return ["text/event-stream"];
  const kind = /\.(\w+)$/.exec(path)?.[1] ?? (path.endsWith("/proof/photo") ? "photo" : "");
  return DOCUMENT_TYPES[kind] ?? [];
}

/**
 * Spec §7: calls send a versioned vendor media type in Accept. A client that
 * asks for a version this server does not speak gets 406 instead of a body it
 * would misread; generic JSON and no Accept at all are served the current version.
 */
export function acceptsThisVersion(accept: string | undefined, path = ""): boolean {
  if (!accept) return true;
  const documents = documentTypes(path);
  const ranges = accept.split(",").map((part) => part.split(";")[0]!.trim().toLowerCase());
  return ranges.some((range) => {
    if (range === "*/*" || range === "application/*" || range === "application/json") return true;
    if (documents.includes(range)) return true;
    const vendor = VENDOR.exec(range);
    return vendor != null && (vendor[1] == null || Number(vendor[1]) === API_VERSION);
  });
}

/**
 * The 406's words: an app that asks for another version of the vendor type
 * is told to update (spec §7); any other client is told which media type to
 * send (issue 25): an integrator's Accept: text/html is not an old app.
 */
export function notAcceptableMessage(accept: string, path: string): string {
  const asksForVendorVersion = accept.split(",").some((part) => VENDOR.exec(part.split(";")[0]!.trim().toLowerCase())?.[1] != null);
  if (asksForVendorVersion) return `This server speaks application/vnd.rxcourier.v${API_VERSION}+json; update the app and try again.`;
  const documents = documentTypes(path);
  if (documents.length) return `This address serves ${documents.filter((type) => !type.endsWith("/*")).join(" or ")}: send it in Accept, or */*, or no Accept.`;
  return "This API answers in JSON: send Accept: application/json (or */*, or no Accept).";
}

export function installAcceptCheck(app: FastifyInstance): void {
  app.addHook("onRequest", async (request, reply) => {
    if (!request.url.startsWith("/api/")) return;
    const path = request.url.split("?")[0]!;
    const accept = request.headers.accept;
    if (acceptsThisVersion(accept, path)) return;
    return reply.status(406).send({ error: "not_acceptable", message: notAcceptableMessage(accept ?? "", path) });
  });
}
