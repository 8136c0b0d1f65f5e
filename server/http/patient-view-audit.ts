import type { FastifyInstance, FastifyRequest } from "fastify";
import { audit } from "../db/audit.ts";
import type { Db } from "../db/client.ts";

/**
 * The audit trail of every view of an order's patient details
 * (docs/security.md "Audit"): each successful response that carries orders
 * with patient details (the itinerary, the routed orders, add-ons on offer,
 * an order returned by a pickup or a copay assertion, any route added later)
 * writes one `view_patient_details` row per order, for the courier, in one
 * insert, before the response leaves. If the row cannot be written the
 * response is not sent: no view without its record.
 *
 * It looks at the response rather than at a list of routes so that a new
 * endpoint returning orders is audited without anyone remembering to.
 * Replayed idempotent responses are sent as stored text and are not views of
 * anything new.
 */

/** Order objects of the API carry these (domain/contract/entities.ts). */
const PATIENT_FIELD = "patient_first_name";
const MAX_DEPTH = 4;

/** Ids of the orders with patient details anywhere in a response body. */
export function viewedOrderIds(payload: unknown): number[] {
  const ids = new Set<number>();
  const walk = (value: unknown, depth: number) => {
    if (depth > MAX_DEPTH || value === null || typeof value !== "object") return;
    if (Array.isArray(value)) {
      for (const item of value) walk(item, depth + 1);
      return;
    }
    const record = value as Record<string, unknown>;
    if (PATIENT_FIELD in record && typeof record.id === "number") {
      ids.add(record.id);
      return;
    }
    for (const item of Object.values(record)) walk(item, depth + 1);
  };
  walk(payload, 0);
  return [...ids];
}

/** Who is looking: a courier, an operations API key or a console session (staff); null when nobody is authenticated. */
export type Viewer = { courierId: number; apiKeyId: null } | { courierId: null; apiKeyId: number | null; staffId: number | null };

/**
 * `viewerOf` is given by the app, which knows both APIs' callers (the courier's session, an
 * operations API key): this hook stays below both and imports neither.
 */
export function installPatientViewAudit(app: FastifyInstance, options: { db: Db; viewerOf: (request: FastifyRequest) => Viewer | null }): void {
  app.addHook("preSerialization", async (request, reply, payload) => {
    const actor = options.viewerOf(request);
    if (reply.statusCode < 200 || reply.statusCode >= 300 || !actor) return payload;
    const orderIds = viewedOrderIds(payload);
    if (orderIds.length === 0) return payload;
    await audit(
      options.db,
      orderIds.map((orderId) => ({ ...actor, action: "view_patient_details" as const, orderId })),
    );
    return payload;
  });
}
