import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { Db } from "../db/client.ts";
import { HttpError, notFound } from "../http/errors.ts";
import { isOpsUrl } from "../http/ops-url.ts";
import { createKeyLookup, createUseRecorder, type OpsCaller } from "./services/api-keys.ts";

export type { OpsCaller } from "./services/api-keys.ts";

declare module "fastify" {
  interface FastifyRequest {
    /** The operations API key behind the request; set on /api/ops/v1 only. */
    opsCaller: OpsCaller | null;
  }
}

export interface OpsAuthOptions {
  db: Db;
  /** OPS_API_KEY is set: without it the whole operations API is 401. */
  enabled: boolean;
  requestsPerMinute: number;
  now?: () => number;
}

const BEARER = /^Bearer[ ]+([A-Za-z0-9._~+/=-]{1,512})$/i;

function unauthorized(reply: FastifyReply, message: string): HttpError {
  reply.header("www-authenticate", 'Bearer realm="rx-courier-ops"');
  return new HttpError(401, "unauthenticated", message);
}

/**
 * Bearer-key authentication of /api/ops/v1 (issue 15). Keys are not ambient
 * credentials, so there is no CSRF token; the courier's cookie is not looked
 * at (server/auth/plugin.ts skips these paths), so it never works here.
 * Calls are counted per key and minute in this process: past the limit, 429.
 */
export function installOpsAuth(app: FastifyInstance, options: OpsAuthOptions): void {
  const lookup = createKeyLookup(options.db);
  const recordUse = createUseRecorder(options.db, options.now);
  const now = options.now ?? Date.now;
  const windows = new Map<number, { start: number; count: number }>();
  app.decorateRequest("opsCaller", null);

  app.addHook("onRequest", async (request, reply) => {
    if (!isOpsUrl(request.url)) return;
    if (!options.enabled) {
      throw unauthorized(reply, "The operations API is off: the server was started without OPS_API_KEY.");
    }
    const header = request.headers.authorization;
    const match = typeof header === "string" ? BEARER.exec(header.trim()) : null;
    if (!match) throw unauthorized(reply, "Send the API key as Authorization: Bearer <key>.");
    const caller = await lookup(match[1]!);
    if (!caller) throw unauthorized(reply, "The API key is unknown or has been revoked.");
    request.opsCaller = caller;
    // GET /keys shows when each key was last used, so a forgotten key can be found and revoked.
    await recordUse(caller.keyId).catch((error: unknown) => request.log.warn({ err: error }, "could not record the key's use"));

    const time = now();
    const window = windows.get(caller.keyId);
    if (!window || time - window.start >= 60_000) {
      windows.set(caller.keyId, { start: time, count: 1 });
      if (windows.size > 10_000) windows.clear(); // bounded: a window is a minute long anyway
    } else if (++window.count > options.requestsPerMinute) {
      reply.header("retry-after", String(Math.ceil((window.start + 60_000 - time) / 1000)));
      throw new HttpError(429, "rate_limited", `This key sent more than ${options.requestsPerMinute} calls in a minute. Please wait and try again.`);
    }
  });
}

/** The key behind an ops request (the hook has already refused a request without one). */
export function opsCaller(request: FastifyRequest): OpsCaller {
  if (!request.opsCaller) throw new HttpError(401, "unauthenticated", "Send the API key as Authorization: Bearer <key>.");
  return request.opsCaller;
}

/** Dispatch-only calls: keys, pharmacies, couriers, assignments. A pharmacy key is 403. */
export function requireDispatch(request: FastifyRequest): OpsCaller {
  const caller = opsCaller(request);
  if (caller.role !== "dispatch") throw new HttpError(403, "forbidden", "This call needs a dispatch key.");
  return caller;
}

/** The pharmacy a caller is confined to, or null when it sees every pharmacy (dispatch). */
export function pharmacyScope(caller: OpsCaller): number | null {
  return caller.role === "pharmacy" ? caller.pharmacyId : null;
}

/** A pharmacy key naming another pharmacy's data gets what a missing one gets: 404. */
export function assertPharmacyVisible(caller: OpsCaller, pharmacyId: number, what = `Pharmacy ${pharmacyId}`): void {
  const scope = pharmacyScope(caller);
  if (scope !== null && scope !== pharmacyId) throw notFound(what);
}
