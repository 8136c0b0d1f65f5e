import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { Db } from "../db/client.ts";
import { HttpError, notFound } from "../http/errors.ts";
import { isOpsUrl } from "../http/ops-url.ts";
import { sameToken } from "../auth/tokens.ts";
import { createKeyLookup, createUseRecorder, type OpsCaller } from "./services/api-keys.ts";
import { STAFF_SESSION_COOKIE, type StaffSession, type StaffSessionStore } from "./staff-sessions.ts";

export type { OpsCaller } from "./services/api-keys.ts";

declare module "fastify" {
  interface FastifyRequest {
    /** The operations API key (or console session) behind the request; set on /api/ops/v1 only. */
    opsCaller: OpsCaller | null;
    /** The dispatcher's or pharmacist's console session, when that is how the call came (issue 27). */
    staffSession: StaffSession | null;
  }
}

export interface OpsAuthOptions {
  db: Db;
  /** OPS_API_KEY is set: without it no Bearer key is accepted (staff sessions still are). */
  enabled: boolean;
  requestsPerMinute: number;
  /** The console's sessions (issue 27). */
  staffSessions: StaffSessionStore;
  now?: () => number;
}

const BEARER = /^Bearer[ ]+([A-Za-z0-9._~+/=-]{1,512})$/i;
const MUTATING = new Set(["POST", "PUT", "PATCH", "DELETE"]);

function unauthorized(reply: FastifyReply, message: string): HttpError {
  reply.header("www-authenticate", 'Bearer realm="rx-courier-ops"');
  return new HttpError(401, "unauthenticated", message);
}

const OFF_MESSAGE = "The operations API is off: the server was started without OPS_API_KEY.";

/**
 * Authentication of /api/ops/v1: a Bearer key (issue 15), or a dispatcher's
 * or pharmacist's console session (issue 27) with its CSRF token on every
 * mutating call. A key is not an ambient credential, so it needs no CSRF
 * token; the staff cookie is, so it does. A request with an Authorization
 * header is judged by its key alone. The courier's cookie is not looked at
 * (server/auth/plugin.ts skips these paths), so it never works here.
 * Key calls are counted per key and minute in this process: past the limit, 429.
 */
export function installOpsAuth(app: FastifyInstance, options: OpsAuthOptions): void {
  const lookup = createKeyLookup(options.db);
  const recordUse = createUseRecorder(options.db, options.now);
  const now = options.now ?? Date.now;
  const windows = new Map<number, { start: number; count: number }>();
  app.decorateRequest("opsCaller", null);
  app.decorateRequest("staffSession", null);

  app.addHook("onRequest", async (request, reply) => {
    if (!isOpsUrl(request.url)) return;
    // The console's login: no credential yet.
    if (request.routeOptions.config?.public) return;
    const header = request.headers.authorization;
    const cookie = request.cookies[STAFF_SESSION_COOKIE];
    if (header === undefined && cookie) {
      await authenticateStaff(request, cookie, options.staffSessions);
      return;
    }
    if (!options.enabled) throw unauthorized(reply, OFF_MESSAGE);
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

/** A console session: a dispatcher acts as a dispatch key, a pharmacist as their pharmacy's key; mutating calls carry X-CSRF-Token. */
async function authenticateStaff(request: FastifyRequest, cookie: string, store: StaffSessionStore): Promise<void> {
  const session = await store.find(cookie);
  if (!session) throw new HttpError(401, "unauthenticated", "Please log in.");
  if (MUTATING.has(request.method)) {
    const sent = request.headers["x-csrf-token"];
    if (typeof sent !== "string" || !sameToken(sent, session.csrfToken)) {
      throw new HttpError(403, "csrf", "The security token is missing or out of date. Please refresh and try again.");
    }
  }
  const { staff } = session;
  request.opsCaller = {
    keyId: null,
    role: staff.role === "dispatcher" ? "dispatch" : "pharmacy",
    pharmacyId: staff.role === "pharmacist" ? staff.pharmacy_id : null,
    name: `${staff.first_name} ${staff.last_name}`,
    staff: { id: staff.id, role: staff.role, sessionHash: session.idHash },
  };
  request.staffSession = session;
}

/** The key behind an ops request (the hook has already refused a request without one). */
export function opsCaller(request: FastifyRequest): OpsCaller {
  if (!request.opsCaller) throw new HttpError(401, "unauthenticated", "Send the API key as Authorization: Bearer <key>.");
  return request.opsCaller;
}

/** Dispatch-only calls: pharmacies, couriers, assignments, plans. A pharmacy key or a pharmacist is 403. */
export function requireDispatch(request: FastifyRequest): OpsCaller {
  const caller = opsCaller(request);
  if (caller.role !== "dispatch") throw new HttpError(403, "forbidden", "This call needs a dispatch key.");
  return caller;
}

/** Keys and staff accounts (issue 27): only a dispatch key manages them, never a console session. */
export function requireDispatchKey(request: FastifyRequest): OpsCaller & { keyId: number } {
  const caller = requireDispatch(request);
  if (caller.keyId === null) throw new HttpError(403, "forbidden", "This call needs a dispatch key: keys and staff accounts are never managed from a console session.");
  return caller as OpsCaller & { keyId: number };
}

/** Calls about the console session itself (who is logged in, log out). */
export function requireStaffSession(request: FastifyRequest): StaffSession {
  opsCaller(request);
  if (!request.staffSession) throw new HttpError(403, "forbidden", "This call needs a console session: log in at /dispatch/login.");
  return request.staffSession;
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

/** The audit trail's record of who acted: the key's id, or the staff member's (issue 27). */
export function auditActor(caller: OpsCaller): { courierId: null; apiKeyId: number | null; staffId: number | null } {
  return { courierId: null, apiKeyId: caller.keyId, staffId: caller.staff?.id ?? null };
}
