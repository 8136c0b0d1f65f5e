import { createHash } from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { Db } from "../db/client.ts";
import { idempotencyKeys } from "../db/schema.ts";
import { HttpError } from "./errors.ts";

/**
 * Idempotency-Key for every mutating /api call (issue 6). A courier on a
 * doorstep may send the same delivery several times (a timeout, the offline
 * queue, two tabs); the first response per courier and key is kept and
 * replayed, so the delivery is recorded once whatever the network did.
 *
 * The row is claimed with INSERT … ON CONFLICT DO NOTHING before the route
 * runs, so two API processes sharing PostgreSQL never both run the same key.
 * This is the one place a retry is recognised: a route whose change must not
 * be made twice stores its answer in its own transaction (storeAnswerWithin),
 * which closes the window between its commit and the answer's.
 */

export const IDEMPOTENCY_KEY_HEADER = "idempotency-key";
export const REPLAYED_HEADER = "idempotent-replayed";

const MUTATING = new Set(["POST", "PUT", "PATCH", "DELETE"]);
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface IdempotencyOptions {
  db: Db;
  /** An in_progress row older than this is a request whose process died: the key may run again. */
  leaseSeconds?: number;
  /** Responses are kept at least 24 h (an offline order lives one day); older rows are purged. */
  retentionHours?: number;
  /** How often, at most, one process purges old rows. */
  purgeIntervalMs?: number;
}

interface Claimed {
  courierId: number;
  key: string;
  requestHash: string;
  /** created_at of our claim, as text: a takeover after the lease changes it, so a late finisher cannot overwrite. */
  token: string;
}

declare module "fastify" {
  interface FastifyRequest {
    /** Set while this request owns its Idempotency-Key; its response is stored in onSend. */
    idempotency: Claimed | null;
  }
}

/* ---------- The request fingerprint ---------- */

function isBytes(value: unknown): value is Uint8Array {
  return value instanceof Uint8Array;
}

function bytesToken(bytes: Uint8Array): string {
  // A bare token that no JSON value can spell, so a string never collides with a file.
  return `bytes(${createHash("sha256").update(bytes).digest("hex")})`;
}

/** A part of a multipart body as @fastify/multipart attaches it (attachFieldsToBody: true). */
interface MultipartPart {
  type: "field" | "file";
  fieldname: string;
  value?: unknown;
  filename?: string;
  mimetype?: string;
  _buf?: Buffer | null;
}

function isMultipartPart(value: unknown): value is MultipartPart {
  if (typeof value !== "object" || value === null) return false;
  const part = value as Partial<MultipartPart>;
  return typeof part.fieldname === "string" && (part.type === "field" || part.type === "file");
}

function canonicalValue(value: unknown, multipart: boolean): string {
  if (value === undefined || value === null) return "null";
  if (typeof value === "string" || typeof value === "number" || typeof value === "boolean") return JSON.stringify(value);
  if (isBytes(value)) return bytesToken(value);
  if (Array.isArray(value)) return `[${value.map((item) => canonicalValue(item, multipart)).join(",")}]`;
  // Only a real multipart body gets the part treatment: a JSON body shaped like a part stays JSON.
  if (multipart && isMultipartPart(value)) {
    if (value.type === "field") return canonicalValue(value.value, false);
    // A file streamed by the route (no buffer) cannot be hashed here; routes behind this use attachFieldsToBody.
    const bytes = value._buf ? bytesToken(value._buf) : "unread";
    return `file(${JSON.stringify(value.filename ?? "")},${JSON.stringify(value.mimetype ?? "")},${bytes})`;
  }
  if (typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, item]) => item !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([name, item]) => `${JSON.stringify(name)}:${canonicalValue(item, multipart)}`).join(",")}}`;
  }
  return JSON.stringify(String(value));
}

/**
 * The body as one string whatever its key order. The CSRF token is left out:
 * it belongs to the session, and a queued order resent after a new login is
 * still the same request.
 */
export function canonicalBody(body: unknown, multipart = false): string {
  if (typeof body === "object" && body !== null && !Array.isArray(body) && !isBytes(body) && !isMultipartPart(body)) {
    const { _csrf_token: _ignored, ...rest } = body as Record<string, unknown>;
    return canonicalValue(rest, multipart);
  }
  return canonicalValue(body, multipart);
}

/** sha256 of method, URL and canonical body: "the same request" for a retry. */
export function requestFingerprint(method: string, url: string, body: unknown, multipart = false): string {
  return createHash("sha256")
    .update(`${method.toUpperCase()}\n${url}\n`)
    .update(canonicalBody(body, multipart))
    .digest("hex");
}

/* ---------- The stored responses ---------- */

type Claim =
  | { kind: "owner"; token: string }
  | { kind: "replay"; status: number; body: string }
  | { kind: "mismatch" }
  | { kind: "in_progress" };

const tokenColumn = sql<string>`${idempotencyKeys.createdAt}::text`;

/** Times are the database's now(), so processes with skewed clocks agree on the lease. */
async function claimKey(db: Db, courierId: number, key: string, requestHash: string, leaseSeconds: number): Promise<Claim> {
  const row = and(eq(idempotencyKeys.courierId, courierId), eq(idempotencyKeys.key, key));
  const leaseExpired = sql`${idempotencyKeys.createdAt} < now() - make_interval(secs => ${leaseSeconds})`;
  // A row may vanish between our statements (a 5xx released it, a purge): then we try to claim again.
  for (let attempt = 0; attempt < 3; attempt++) {
    const [inserted] = await db
      .insert(idempotencyKeys)
      .values({ courierId, key, requestHash, state: "in_progress" })
      .onConflictDoNothing()
      .returning({ token: tokenColumn });
    if (inserted) return { kind: "owner", token: inserted.token };

    const [existing] = await db
      .select({
        requestHash: idempotencyKeys.requestHash,
        state: idempotencyKeys.state,
        status: idempotencyKeys.responseStatus,
        body: idempotencyKeys.responseBody,
        stale: sql<boolean>`${leaseExpired}`,
      })
      .from(idempotencyKeys)
      .where(row);
    if (!existing) continue;
    if (existing.requestHash !== requestHash) return { kind: "mismatch" };
    if (existing.state === "done") return { kind: "replay", status: existing.status ?? 200, body: existing.body ?? "" };
    if (!existing.stale) return { kind: "in_progress" };

    // The first attempt's process died mid-request: take the key over, unless another process just did.
    const [taken] = await db
      .update(idempotencyKeys)
      .set({ createdAt: sql`now()` })
      .where(and(row, eq(idempotencyKeys.state, "in_progress"), leaseExpired))
      .returning({ token: tokenColumn });
    if (taken) return { kind: "owner", token: taken.token };
  }
  return { kind: "in_progress" };
}

function ownRow(claim: Claimed) {
  return and(
    eq(idempotencyKeys.courierId, claim.courierId),
    eq(idempotencyKeys.key, claim.key),
    eq(idempotencyKeys.state, "in_progress"),
    sql`${idempotencyKeys.createdAt} = ${claim.token}::timestamptz`,
  );
}

async function complete(db: Db, claim: Claimed, status: number, body: string): Promise<void> {
  await db.update(idempotencyKeys).set({ state: "done", responseStatus: status, responseBody: body }).where(ownRow(claim));
}

/**
 * Stores this request's answer inside the transaction that makes its change,
 * so the two commit together: a process killed after the commit has already
 * stored what a retry replays, and one killed before it stored nothing. A
 * route whose change must not happen twice (a delivery) calls this as its
 * last write; onSend then finds the key done and leaves it. If the key is no
 * longer ours (our lease ran out and another process took it over) this
 * throws, and the change rolls back: only one of the two may commit.
 */
export async function storeAnswerWithin(tx: Pick<Db, "update">, request: FastifyRequest, status: number, answer: unknown): Promise<void> {
  const claim = request.idempotency;
  if (!claim) return;
  const stored = await tx
    .update(idempotencyKeys)
    .set({ state: "done", responseStatus: status, responseBody: JSON.stringify(answer) })
    .where(ownRow(claim))
    .returning({ key: idempotencyKeys.key });
  if (stored.length === 0) throw inProgress();
}

function inProgress(): HttpError {
  return new HttpError(409, "idempotency_in_progress", "This request is still being processed. Please try again in a moment.");
}

/** A 5xx or an unstorable reply: forget the key so a retry runs the request again. */
async function release(db: Db, claim: Claimed): Promise<void> {
  await db.delete(idempotencyKeys).where(ownRow(claim));
}

/** Deletes rows older than the retention; returns how many went. */
export async function purgeIdempotencyKeys(db: Db, retentionHours: number): Promise<number> {
  const gone = await db
    .delete(idempotencyKeys)
    .where(sql`${idempotencyKeys.createdAt} < now() - make_interval(hours => ${retentionHours})`)
    .returning({ key: idempotencyKeys.key });
  return gone.length;
}

/** 429 is "not now", not an answer: like a 5xx it is not kept. */
function isStoredAnswer(status: number): boolean {
  return status < 500 && status !== 429;
}

function payloadText(status: number, payload: unknown): string | null {
  // A 204 or 304 carries no body on the wire whatever the serializer made of null.
  if (status === 204 || status === 304) return "";
  if (payload === undefined || payload === null) return "";
  if (typeof payload === "string") return payload;
  if (Buffer.isBuffer(payload)) return payload.toString("utf8");
  return null;
}

/* ---------- The hooks ---------- */

export function installIdempotency(app: FastifyInstance, options: IdempotencyOptions): void {
  const { db } = options;
  const leaseSeconds = options.leaseSeconds ?? 60;
  // Twice the promise: a row claimed just before midnight is still there after a full day.
  const retentionHours = options.retentionHours ?? 48;
  const purgeIntervalMs = options.purgeIntervalMs ?? 3_600_000;
  let lastPurge = 0;

  const purgeNow = () => {
    if (Date.now() - lastPurge < purgeIntervalMs) return;
    lastPurge = Date.now();
    purgeIdempotencyKeys(db, retentionHours).catch((error: unknown) => app.log.warn({ err: error }, "idempotency purge failed"));
  };

  app.decorateRequest("idempotency", null);

  // preHandler: after the session, the CSRF check and every body parser (multipart
  // included), so a refused token is never stored and the fingerprint sees the whole form.
  app.addHook("preHandler", async (request, reply) => {
    if (!MUTATING.has(request.method) || !request.url.startsWith("/api/")) return;
    const header = request.headers[IDEMPOTENCY_KEY_HEADER];
    if (header === undefined) return;
    // Login has no session yet and is exempt: it changes nothing a retry could duplicate.
    if (!request.session) return;
    const key = typeof header === "string" ? header.trim() : "";
    if (!UUID.test(key)) {
      throw new HttpError(400, "invalid_idempotency_key", "The Idempotency-Key header must be a UUID.");
    }
    purgeNow();

    const courierId = request.session.courier.id;
    const normalizedKey = key.toLowerCase();
    const multipart = /^multipart\/form-data\b/i.test(request.headers["content-type"] ?? "");
    const requestHash = requestFingerprint(request.method, request.url, request.body, multipart);
    const claim = await claimKey(db, courierId, normalizedKey, requestHash, leaseSeconds);
    switch (claim.kind) {
      case "owner":
        request.idempotency = { courierId, key: normalizedKey, requestHash, token: claim.token };
        return;
      case "replay":
        reply.status(claim.status).header(REPLAYED_HEADER, "true");
        if (claim.body === "") return reply.send();
        return reply.type("application/json; charset=utf-8").send(claim.body);
      case "mismatch":
        throw new HttpError(
          422,
          "idempotency_key_reused",
          "This Idempotency-Key was already used for a different request. Make a new key for a new request.",
        );
      case "in_progress":
        throw inProgress();
    }
  });

  // The response is stored before it leaves, so a retry arriving after it always finds it.
  app.addHook("onSend", async (request, reply, payload) => {
    const claim = request.idempotency;
    if (!claim) return payload;
    request.idempotency = null;
    const body = payloadText(reply.statusCode, payload);
    try {
      if (isStoredAnswer(reply.statusCode) && body !== null) await complete(db, claim, reply.statusCode, body);
      else await release(db, claim);
    } catch (error) {
      // The answer still goes out; the row stays in_progress and its lease lets a retry run again.
      request.log.error({ err: error }, "could not store the idempotent response");
    }
    return payload;
  });
}
