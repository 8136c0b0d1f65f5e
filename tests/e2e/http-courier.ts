import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import pg from "pg";
import { API_MEDIA_TYPE } from "../../domain/contract/common.ts";
import { deliveryFormEntries } from "../../domain/contract/deliveries.ts";
import { toFormData } from "../../domain/contract/form-fields.ts";
import type { Order } from "../../domain/contract/entities.ts";
import { openDatabase, type Database } from "../../server/db/client.ts";
import { OCCURRED } from "../support/instants.ts";

/**
 * A courier's device talking to a real server process over HTTP: the
 * session cookie, the CSRF token, Idempotency-Keys, and the day's delivery
 * submissions (a failed attempt as JSON, a contactless recipient submission
 * as a multipart form). Used by the fault and multi-process tests.
 */

export interface Courier {
  courierId: number;
  cookie: string;
  csrf: string;
}

export interface Answer {
  status: number;
  body: string;
  replayed: boolean;
}

export async function logIn(baseUrl: string, email = "courier@example.com"): Promise<Courier> {
  const response = await fetch(`${baseUrl}/api/sessions`, {
    method: "POST",
    headers: { accept: API_MEDIA_TYPE, "content-type": "application/json" },
    body: JSON.stringify({ email, password: "deliver-safely" }),
  });
  if (response.status !== 200) throw new Error(`login: ${response.status} ${await response.text()}`);
  const body = (await response.json()) as { courier: { id: number }; csrf_token: string };
  const cookie = response.headers.getSetCookie().find((c) => c.startsWith("rxc_session="))!.split(";")[0]!;
  return { courierId: body.courier.id, cookie, csrf: body.csrf_token };
}

export async function call(
  baseUrl: string,
  courier: Courier,
  method: string,
  path: string,
  body?: { json: unknown } | { form: FormData },
  headers: Record<string, string> = {},
): Promise<Answer> {
  const response = await fetch(`${baseUrl}${path}`, {
    method,
    headers: {
      accept: API_MEDIA_TYPE,
      cookie: courier.cookie,
      "x-csrf-token": courier.csrf,
      ...(body && "json" in body ? { "content-type": "application/json" } : {}),
      ...headers,
    },
    ...(body ? { body: "json" in body ? JSON.stringify(body.json) : body.form } : {}),
  });
  return { status: response.status, body: await response.text(), replayed: response.headers.get("idempotent-replayed") === "true" };
}

export async function itinerary(baseUrl: string, courier: Courier): Promise<Order[]> {
  const answer = await call(baseUrl, courier, "GET", "/api/courier/itinerary");
  if (answer.status !== 200) throw new Error(`itinerary: ${answer.status} ${answer.body}`);
  return (JSON.parse(answer.body) as { orders: Order[] }).orders;
}

/** Picks up every order still to be picked up, so the day has many deliveries to make. */
export async function pickUpAll(baseUrl: string, courier: Courier): Promise<Order[]> {
  for (const order of await itinerary(baseUrl, courier)) {
    if (order.status.name !== "submitted_to_courier") continue;
    const answer = await call(baseUrl, courier, "POST", `/api/orders/${order.id}/pickups`, { json: {} });
    if (answer.status !== 200) throw new Error(`pickup ${order.id}: ${answer.status} ${answer.body}`);
  }
  return (await itinerary(baseUrl, courier)).filter((order) => order.status.name === "picked_up");
}

export interface Submission {
  orderId: number;
  key: string;
  /** What the order becomes once the submission is recorded. */
  outcome: "delivery_attempted" | "delivered";
  /** Sends it with its key, or with another (a second device that queued the same delivery). */
  send(baseUrl: string, courier: Courier, otherKey?: string): Promise<Answer>;
}


/** One submission per order, each with its own Idempotency-Key: contactless where the pharmacy asks for it, a failed attempt otherwise. */
export function submissionsFor(orders: Order[]): Submission[] {
  return orders.map((order) => {
    const key = randomUUID();
    if (order.pharmacy.pod_recipient_config === "covid19_contactless") {
      const entries = deliveryFormEntries({
        order_ids: [order.id],
        relationship: "Contactless - No Signature Requested",
        relationship_id: 4,
        recipient_called_at: null,
        client_occurred_at: OCCURRED,
        body: "Left at the door as asked",
      });
      return {
        orderId: order.id,
        key,
        outcome: "delivered" as const,
        // A fresh FormData per send: a body is consumed by the request that carries it.
        send: (baseUrl, courier, otherKey) =>
          call(baseUrl, courier, "POST", "/api/courier/deliveries", { form: toFormData(entries) }, { "idempotency-key": otherKey ?? key }),
      };
    }
    const json = { delivery: { failure_reason: "Patient Not Home", client_occurred_at: OCCURRED, order_ids: [order.id] } };
    return {
      orderId: order.id,
      key,
      outcome: "delivery_attempted" as const,
      send: (baseUrl, courier, otherKey) => call(baseUrl, courier, "POST", "/api/courier/deliveries", { json }, { "idempotency-key": otherKey ?? key }),
    };
  });
}

/** Sends until the answer is not "still being processed" (a key held by a dead process waits for its lease). */
export async function retryUntilAnswered(submission: Submission, baseUrl: string, courier: Courier, attempts = 60): Promise<Answer> {
  for (let attempt = 0; ; attempt++) {
    const answer = await submission.send(baseUrl, courier);
    const inProgress = answer.status === 409 && answer.body.includes("idempotency_in_progress");
    if (!inProgress || attempt >= attempts) return answer;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

export interface OrderRecord {
  orderId: number;
  status: string;
  /** Delivery rows linked to the order: outcome of each. */
  deliveries: string[];
  /** Status changes written to the audit trail. */
  statusChanges: string[];
}

/** What the database holds for these orders: status, deliveries, audit trail. */
export async function recordsOf(database: Database, orderIds: number[]): Promise<Map<number, OrderRecord>> {
  const result = await database.db.execute(sql`select o.id as order_id, s.name as status,
            coalesce((select array_agg(d.outcome order by d.id) from delivery_orders x join deliveries d on d.id = x.delivery_id where x.order_id = o.id), '{}') as deliveries,
            coalesce((select array_agg(a.to_status order by a.id) from audit_events a where a.order_id = o.id and a.action = 'status_change' and a.from_status = 'picked_up'), '{}') as status_changes
       from orders o join order_statuses s on s.id = o.status_id
      where o.id in (${sql.join(orderIds.map((id) => sql`${id}`), sql`, `)})`);
  const rows = (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as {
    order_id: number;
    status: string;
    deliveries: string[];
    status_changes: string[];
  }[];
  return new Map(rows.map((row) => [row.order_id, { orderId: row.order_id, status: row.status, deliveries: row.deliveries, statusChanges: row.status_changes }]));
}

/** The orders a delivery row links. */
export async function deliveryOrdersOf(database: Database, deliveryId: number): Promise<number[]> {
  const result = await database.db.execute(sql`select order_id from delivery_orders where delivery_id = ${deliveryId} order by order_id`);
  const rows = (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as { order_id: number }[];
  return rows.map((row) => row.order_id);
}

/** A PostgreSQL database of its own for one test, dropped afterwards. */
export async function throwawayPostgres(adminUrl: string): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `rxc_e2e_${randomUUID().replace(/-/g, "").slice(0, 12)}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const dropper = new pg.Client({ connectionString: adminUrl });
      await dropper.connect();
      await dropper.query(`drop database if exists ${name} with (force)`);
      await dropper.end();
    },
  };
}

export const openPglite = (dataDir: string) => openDatabase({ dataDir });
export const openPostgres = (url: string) => openDatabase({ databaseUrl: url, poolSize: 2 });
