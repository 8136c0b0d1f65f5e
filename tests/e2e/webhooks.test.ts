import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { statusByName } from "../../domain/vocabulary.ts";
import type { Database } from "../../server/db/client.ts";
import { orders } from "../../server/db/schema.ts";
import { startReceiver, type Receiver } from "../support/webhook-receiver.ts";
import { call, logIn, openPostgres, throwawayPostgres, type Courier } from "./http-courier.ts";
import { removeDataDir, startServer, type RunningServer } from "./support.ts";

/**
 * Webhooks from real server processes (docs/operations.md "Webhooks"):
 * a process killed while it sends leaves the event to be sent after restart,
 * under the same webhook-id; two processes on one PostgreSQL share the outbox
 * and each of 200 events reaches the receiver once.
 */

const OPS_KEY = "e2e-dispatch-key-0123456789abcdefghijklmnop";
const WEBHOOK_ENV = { OPS_API_KEY: OPS_KEY, WEBHOOK_ALLOW_PRIVATE: "true" };

async function ops(server: RunningServer, method: string, path: string, body?: unknown) {
  const response = await fetch(`${server.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${OPS_KEY}`, ...(body ? { "content-type": "application/json" } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  return { status: response.status, json: (await response.json()) as Record<string, unknown> };
}

async function subscribe(server: RunningServer, url: string, events: string[]): Promise<number> {
  const answer = await ops(server, "POST", "/api/ops/v1/webhooks", { url, events });
  expect(answer.status, JSON.stringify(answer.json)).toBe(201);
  return answer.json.id as number;
}

describe("a server killed (SIGKILL) while it sends a webhook", () => {
  let receiver: Receiver;
  let server: RunningServer;

  beforeAll(async () => {
    receiver = await startReceiver();
    server = await startServer(WEBHOOK_ENV);
  });
  afterAll(async () => {
    await server?.stop();
    if (server) removeDataDir(server);
    await receiver?.close();
  });

  it("sends the event after restart, with the same webhook-id; nothing is lost", async () => {
    // The first request is held open: the process has committed, claimed the row and is mid-send when it dies.
    receiver.script("/held", [0, 200]);
    const subscriptionId = await subscribe(server, receiver.url("/held"), ["order.picked_up"]);
    const courier = await logIn(server.url);
    const [first] = await pickUpOne(server.url, courier);
    const [held] = await receiver.waitFor("/held", 1);
    const { dataDir, port } = server;
    await server.stop("SIGKILL");

    server = await startServer(WEBHOOK_ENV, { dataDir, port });
    // The dead process's lease on the row (its 10 s timeout + 5 s) runs out, then the new one sends it.
    const [, again] = await receiver.waitFor("/held", 2, 40_000);
    expect(again!.headers["webhook-id"]).toBe(held!.headers["webhook-id"]);
    expect(JSON.parse(again!.body).data.order.id).toBe(first);

    const deliveries = await ops(server, "GET", `/api/ops/v1/webhooks/${subscriptionId}/deliveries`);
    const [delivery] = deliveries.json.deliveries as { status: string; event_id: string; attempts: { status_code: number }[] }[];
    expect(delivery).toMatchObject({ status: "delivered", event_id: held!.headers["webhook-id"] });
    // The killed attempt left no record; the one that reached the receiver did.
    expect(delivery!.attempts.map((attempt) => attempt.status_code)).toEqual([200]);
  }, 90_000);
});

/** Picks up the first order still to be picked up; returns its id. */
async function pickUpOne(baseUrl: string, courier: Courier): Promise<number[]> {
  const response = await call(baseUrl, courier, "GET", "/api/courier/itinerary");
  const order = (JSON.parse(response.body) as { orders: { id: number; status: { name: string } }[] }).orders.find(
    (candidate) => candidate.status.name === "submitted_to_courier",
  )!;
  const answer = await call(baseUrl, courier, "POST", `/api/orders/${order.id}/pickups`, { json: {} });
  expect(answer.status, answer.body).toBe(200);
  return [order.id];
}

const adminUrl = process.env.TEST_DATABASE_URL;

describe.skipIf(!adminUrl)("two API processes on one PostgreSQL share the webhook outbox (needs TEST_DATABASE_URL)", () => {
  const EVENTS = 200;
  let target: Awaited<ReturnType<typeof throwawayPostgres>>;
  let a: RunningServer;
  let b: RunningServer;
  let database: Database;
  let receiver: Receiver;

  beforeAll(async () => {
    receiver = await startReceiver();
    target = await throwawayPostgres(adminUrl!);
    [a, b] = await Promise.all([startServer({ ...WEBHOOK_ENV, DATABASE_URL: target.url }), startServer({ ...WEBHOOK_ENV, DATABASE_URL: target.url })]);
    database = await openPostgres(target.url);
  });
  afterAll(async () => {
    await database?.close();
    for (const server of [a, b]) {
      if (!server) continue;
      await server.stop();
      removeDataDir(server);
    }
    await target?.drop();
    await receiver?.close();
  });

  it(`${EVENTS} pickups made on both processes: each order.picked_up reaches the receiver once`, async () => {
    const subscriptionId = await subscribe(a, receiver.url("/shared"), ["order.picked_up"]);
    const courier = await logIn(a.url);
    // EVENTS orders of the courier's, copied from a demo order, each to be picked up once.
    const template = (await database.db.select().from(orders).limit(1))[0]!;
    const { id: _id, ...columns } = template;
    const inserted = await database.db
      .insert(orders)
      .values(
        Array.from({ length: EVENTS }, () => ({ ...columns, externalId: null, requestHash: null, courierId: courier.courierId, statusId: statusByName("submitted_to_courier").id })),
      )
      .returning({ id: orders.id });
    const ids = inserted.map((row) => row.id);

    // Alternate the processes, a few at a time: both commit events, both senders run.
    const started = Date.now();
    for (let i = 0; i < ids.length; i += 8) {
      await Promise.all(
        ids.slice(i, i + 8).map(async (id, j) => {
          const answer = await call(j % 2 === 0 ? a.url : b.url, courier, "POST", `/api/orders/${id}/pickups`, { json: {} });
          expect(answer.status, answer.body).toBe(200);
        }),
      );
    }
    const received = await receiver.waitFor("/shared", EVENTS, 60_000);
    const elapsed = Date.now() - started;
    // Give a duplicate the time to show up.
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    const all = receiver.on("/shared");
    expect(all).toHaveLength(EVENTS);
    const webhookIds = new Set(all.map((request) => request.headers["webhook-id"]));
    expect(webhookIds.size).toBe(EVENTS);
    const orderIds = new Set(all.map((request) => JSON.parse(request.body).data.order.id as number));
    expect(orderIds.size).toBe(EVENTS);
    for (const id of ids) expect(orderIds.has(id)).toBe(true);
    console.info(`webhooks: ${EVENTS} events over two processes received in ${elapsed} ms (${received.length} requests)`);

    const result = await database.db.execute(sql`select status, attempts, count(*)::int as n from webhook_messages
      where subscription_id = ${subscriptionId} group by status, attempts`);
    const rows = (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as { status: string; attempts: number; n: number }[];
    expect(rows).toEqual([{ status: "delivered", attempts: 1, n: EVENTS }]);
  }, 120_000);
});
