import { eq, sql } from "drizzle-orm";
import type { FastifyInstance, LightMyRequestResponse } from "fastify";
import { API_MEDIA_TYPE } from "../../domain/contract/common.ts";
import { toFormData, type FormValue } from "../../domain/contract/form-fields.ts";
import { statusByName, type OrderStatusName } from "../../domain/vocabulary.ts";
import { hashToken, newToken } from "../../server/auth/tokens.ts";
import type { Db } from "../../server/db/client.ts";
import { couriers, orders, pharmacies, pharmacyVisits, sessions } from "../../server/db/schema.ts";
import { TEST_DAY } from "./api-harness.ts";

/**
 * Fixtures for the security tests: sessions made straight in the database
 * (as the session store makes them: sha256 of the cookie, a CSRF token),
 * fresh orders so each endpoint has its own, a digest of every table a
 * request could write, and a raw request helper for JSON and multipart.
 */

/** Every table a courier's request can change. Sessions are left out: logging in is meant to write one. */
export const WRITABLE_TABLES = [
  "couriers",
  "orders",
  "deliveries",
  "delivery_orders",
  "payments",
  "return_signatures",
  "return_lines",
  "pharmacy_visits",
  "pharmacies",
  "idempotency_keys",
  "audit_events",
] as const;

/** md5 of every row of every writable table, in one statement: equal digests, unchanged data. */
export async function databaseDigest(db: Db, tables: readonly string[] = WRITABLE_TABLES): Promise<Record<string, string>> {
  const parts = tables.map((table) =>
    table === "sessions"
      ? // A session's last_seen_at moves when it is used (at most once a minute): that is not a change a request made.
        sql`(select md5(coalesce(string_agg(concat_ws(',', id_hash, courier_id, csrf_token, expires_at), '|' order by id_hash), '')) from sessions) as sessions`
      : table === "staff_sessions"
        ? sql`(select md5(coalesce(string_agg(concat_ws(',', id_hash, staff_id, csrf_token, expires_at), '|' order by id_hash), '')) from staff_sessions) as staff_sessions`
      : table === "api_keys"
        ? // A key's last_used_at moves when it is used (at most once a minute), refused call or not: not a change a request made.
          sql`(select md5(coalesce(string_agg(concat_ws(',', id, name, role, pharmacy_id, key_hash, source, created_by_key_id, revoked_at, created_at), '|' order by id), '')) from api_keys) as api_keys`
        : sql`(select md5(coalesce(string_agg(t::text, '|' order by t::text), '')) from ${sql.identifier(table)} t) as ${sql.identifier(table)}`,
  );
  const result = await db.execute(sql`select ${sql.join(parts, sql`, `)}`);
  const rows = (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as Record<string, string>[];
  return rows[0]!;
}

export interface TestSession {
  courierId: number;
  token: string;
  csrfToken: string;
  cookie: string;
}

export async function courierIdOf(db: Db, email: string): Promise<number> {
  const [row] = await db.select({ id: couriers.id }).from(couriers).where(eq(couriers.email, email));
  if (!row) throw new Error(`no courier ${email}`);
  return row.id;
}

/** A session row as the store writes it; `expired` puts its absolute end in the past, `idle` its last use beyond the idle limit. */
export async function makeSession(db: Db, courierId: number, state: "live" | "expired" | "idle" = "live"): Promise<TestSession> {
  const token = newToken();
  const csrfToken = newToken();
  const now = Date.now();
  await db.insert(sessions).values({
    idHash: hashToken(token),
    courierId,
    csrfToken,
    expiresAt: new Date(state === "expired" ? now - 60_000 : now + 3_600_000),
    lastSeenAt: new Date(state === "idle" ? now - 9 * 3_600_000 : now),
    createdAt: new Date(state === "expired" ? now - 17 * 3_600_000 : now),
  });
  return { courierId, token, csrfToken, cookie: `rxc_session=${token}` };
}

export async function pharmacyIdOf(db: Db, name: string): Promise<number> {
  const [row] = await db.select({ id: pharmacies.id }).from(pharmacies).where(eq(pharmacies.name, name));
  if (!row) throw new Error(`no pharmacy ${name}`);
  return row.id;
}

let serial = 0;

/** A new order of today's, with no surprises: no ID, no DOB check unless the pharmacy asks, coordinates set. */
export async function freshOrder(
  db: Db,
  options: {
    courierId: number | null;
    pharmacyId: number;
    status: OrderStatusName;
    copayCents?: number | null;
    feeCents?: number | null;
    addon?: boolean;
  },
): Promise<number> {
  serial += 1;
  const [row] = await db
    .insert(orders)
    .values({
      courierId: options.courierId,
      pharmacyId: options.pharmacyId,
      serviceDate: TEST_DAY,
      statusId: statusByName(options.status).id,
      patientFirstName: "Fixture",
      patientLastName: `Patient${serial}`,
      recipientDescription: `Fixture Patient${serial}`,
      streetAddress: `${100 + serial} Test St`,
      city: "Philadelphia",
      stateAbbreviation: "PA",
      zipcode: "19103",
      latitude: 39.95 + serial / 1000,
      longitude: -75.17 - serial / 1000,
      phoneNumber: "2155550199",
      rxNumbers: [`RX-9${String(serial).padStart(5, "0")}`],
      copayCents: options.copayCents ?? 0,
      deliveryFeeCents: options.feeCents ?? 0,
      availableAsAddon: options.addon ?? false,
    })
    .returning({ id: orders.id });
  return row!.id;
}

/** A pharmacy of its own, with a visit today for the courier: returns to it touch no demo order. */
export async function freshPharmacy(db: Db, courierId: number, name: string): Promise<number> {
  const [pharmacy] = await db
    .insert(pharmacies)
    .values({
      name,
      streetAddress: "1 Fixture Ave",
      city: "Philadelphia",
      stateAbbreviation: "PA",
      zipcode: "19103",
      latitude: 39.95,
      longitude: -75.17,
      paymentMethods: [
        { type: "cash", allowed: true },
        { type: "check", allowed: true },
        { type: "card", allowed: true },
      ],
      allowPodCopayCollection: true,
    })
    .returning({ id: pharmacies.id });
  await db.insert(pharmacyVisits).values({ courierId, pharmacyId: pharmacy!.id, serviceDate: TEST_DAY, confirmed: true });
  return pharmacy!.id;
}

export const SIGNATURE_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 354 200" width="354" height="200">' +
  '<path d="M 10.000,20.000 C 11.000,21.000 12.500,22.000 14.000,23.000" stroke-width="2.250" stroke="black" fill="none"></path></svg>';

export type Method = "GET" | "HEAD" | "POST" | "PUT" | "PATCH" | "DELETE";

export interface RawRequest {
  method: Method;
  url: string;
  /** A JSON body (an object) or raw text sent as JSON. */
  json?: unknown;
  /** A multipart form; the CSRF token goes in as the _csrf_token field. */
  form?: [string, FormValue][];
  /** Raw bytes with their own content type. */
  raw?: { contentType: string; body: Buffer | string };
  headers?: Record<string, string>;
  /** The client's address (rate limits count per address). */
  remoteAddress?: string;
}

/** Sends a request as a browser would: session cookie, the CSRF token (header, or form field for multipart) when asked. */
export async function send(
  app: FastifyInstance,
  request: RawRequest,
  auth: { cookie?: string; csrfToken?: string } = {},
): Promise<LightMyRequestResponse> {
  const headers: Record<string, string> = { accept: API_MEDIA_TYPE, ...(auth.cookie ? { cookie: auth.cookie } : {}) };
  let payload: string | Buffer | undefined;
  if (request.form) {
    const entries: [string, FormValue][] = auth.csrfToken ? [["_csrf_token", auth.csrfToken], ...request.form] : request.form;
    const encoded = new Request("http://localhost/", { method: "POST", body: toFormData(entries) });
    headers["content-type"] = encoded.headers.get("content-type")!;
    payload = Buffer.from(await encoded.arrayBuffer());
  } else {
    if (auth.csrfToken) headers["x-csrf-token"] = auth.csrfToken;
    if (request.raw) {
      headers["content-type"] = request.raw.contentType;
      payload = request.raw.body;
    } else if (request.json !== undefined) {
      headers["content-type"] = "application/json";
      payload = typeof request.json === "string" ? request.json : JSON.stringify(request.json);
    }
  }
  return app.inject({
    method: request.method,
    url: request.url,
    headers: { ...headers, ...request.headers },
    ...(payload !== undefined ? { payload } : {}),
    ...(request.remoteAddress ? { remoteAddress: request.remoteAddress } : {}),
  });
}

/** Every route of the built app, "METHOD /path", from Fastify's route tree. */
export function routesOf(app: FastifyInstance): string[] {
  const routes: string[] = [];
  const prefixes: string[] = [];
  for (const line of app.printRoutes({ commonPrefix: false }).split("\n")) {
    const match = /^([\s│]*)[├└]── (\S+)(?: \(([A-Z, ]+)\))?/.exec(line);
    if (!match) continue;
    const depth = match[1]!.length / 4;
    prefixes.length = depth;
    const path = (prefixes[depth - 1] ?? "") + match[2]!;
    prefixes[depth] = path;
    for (const method of match[3]?.split(",").map((m) => m.trim()) ?? []) routes.push(`${method} ${path}`);
  }
  return routes.sort();
}
