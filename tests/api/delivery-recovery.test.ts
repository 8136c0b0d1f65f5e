import { randomUUID } from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import { expect, it } from "vitest";
import type { FastifyRequest } from "fastify";
import { DeliveryRequest } from "../../domain/contract/deliveries.ts";
import { deliveryOrders, idempotencyKeys, orders } from "../../server/db/schema.ts";
import { requestFingerprint, storeAnswerWithin } from "../../server/http/idempotency.ts";
import { recordDelivery } from "../../server/services/deliveries.ts";
import { describeApi, TEST_DAY } from "../support/api-harness.ts";
import { OCCURRED } from "../support/instants.ts";

/**
 * A process killed after the delivery committed but before its answer left:
 * the answer a retry replays was stored in the delivery's own transaction
 * (server/http/idempotency.ts storeAnswerWithin), so the retry (same
 * Idempotency-Key) is answered with the delivery already recorded — never a
 * second one, never a 409 that would leave the courier's phone stuck with an
 * unsent order. The HTTP layer is the one place a retry is recognised.
 */
describeApi("a delivery retried after its answer was lost", (api) => {
  const URL = "/api/courier/deliveries";

  /** What the idempotency layer holds for a request it let through: the key's row, claimed by this request. */
  async function claimKey(courierId: number, key: string, body: unknown): Promise<FastifyRequest> {
    const requestHash = requestFingerprint("POST", URL, DeliveryRequest.parse(body));
    const [claimed] = await api()
      .database.db.insert(idempotencyKeys)
      .values({ courierId, key, requestHash, state: "in_progress" })
      .returning({ token: sql<string>`${idempotencyKeys.createdAt}::text` });
    return { idempotency: { courierId, key, requestHash, token: claimed!.token } } as unknown as FastifyRequest;
  }

  it("answers the retry with the delivery recorded the first time", async () => {
    const client = await api().login();
    const db = api().database.db;
    const [order] = await db.select({ id: orders.id }).from(orders).where(and(eq(orders.courierId, client.courierId), eq(orders.patientLastName, "Mayfield")));
    const body = { delivery: { failure_reason: "Patient Not Home", client_occurred_at: OCCURRED, order_ids: [order!.id] } };
    const key = randomUUID();

    // The first request ran and committed, then its process died: no onSend, no answer sent.
    const request = await claimKey(client.courierId, key, body);
    const first = await recordDelivery(db, client.courierId, DeliveryRequest.parse(body).delivery, TEST_DAY, {
      idempotencyKey: key,
      beforeCommit: (tx, answer) => storeAnswerWithin(tx, request, 200, answer),
    });

    const retry = await client.post(URL, body, { headers: { "idempotency-key": key } });
    expect(retry.statusCode).toBe(200);
    expect(retry.headers["idempotent-replayed"]).toBe("true");
    expect(retry.json()).toEqual(first.response);
    const [count] = await db.select({ n: sql<number>`count(*)::int` }).from(deliveryOrders).where(eq(deliveryOrders.orderId, order!.id));
    expect(count!.n).toBe(1);

    // A new courier action (another key) on the same order is still refused by the lifecycle.
    const again = await client.post(URL, body, { headers: { "idempotency-key": randomUUID() } });
    expect(again.statusCode).toBe(409);
  });

  it("a request whose key another process took over (its lease ran out) records nothing: only one of the two commits", async () => {
    const client = await api().login("courier2@example.com");
    const db = api().database.db;
    const [order] = await db.select({ id: orders.id }).from(orders).where(and(eq(orders.courierId, client.courierId), eq(orders.patientLastName, "Underwood")));
    const body = { delivery: { failure_reason: "Patient Not Home", client_occurred_at: OCCURRED, order_ids: [order!.id] } };
    const key = randomUUID();
    const slow = await claimKey(client.courierId, key, body);
    // Another process takes the key over, as claimKey does once the lease has run out.
    await db
      .update(idempotencyKeys)
      .set({ createdAt: sql`now() + interval '1 second'` })
      .where(and(eq(idempotencyKeys.courierId, client.courierId), eq(idempotencyKeys.key, key)));

    await expect(
      recordDelivery(db, client.courierId, DeliveryRequest.parse(body).delivery, TEST_DAY, {
        idempotencyKey: key,
        beforeCommit: (tx, answer) => storeAnswerWithin(tx, slow, 200, answer),
      }),
    ).rejects.toMatchObject({ statusCode: 409, code: "idempotency_in_progress" });
    const [count] = await db.select({ n: sql<number>`count(*)::int` }).from(deliveryOrders).where(eq(deliveryOrders.orderId, order!.id));
    expect(count!.n).toBe(0);
  });

  it("keeps keys per courier: another courier's key never finds this delivery", async () => {
    const client = await api().login("courier2@example.com");
    const db = api().database.db;
    const [order] = await db.select({ id: orders.id }).from(orders).where(and(eq(orders.courierId, client.courierId), eq(orders.patientLastName, "Thompson")));
    const key = randomUUID();
    const body = { delivery: { failure_reason: "Patient Not Home", client_occurred_at: OCCURRED, order_ids: [order!.id] } };
    expect((await client.post("/api/courier/deliveries", body, { headers: { "idempotency-key": key } })).statusCode).toBe(200);
    const dana = await api().login();
    const replayAttempt = await dana.post("/api/courier/deliveries", body, { headers: { "idempotency-key": key } });
    expect(replayAttempt.statusCode).toBe(404);
  });
});
