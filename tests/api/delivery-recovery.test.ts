import { randomUUID } from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import { expect, it } from "vitest";
import { deliveryOrders, idempotencyKeys, orders } from "../../server/db/schema.ts";
import { describeApi } from "../support/api-harness.ts";
import { OCCURRED } from "../support/instants.ts";

/**
 * A process killed after the delivery committed but before its answer was
 * stored: the retry (same Idempotency-Key, lease expired, so it runs again)
 * is answered with the delivery already recorded — never a second one, never
 * a 409 that would leave the courier's phone stuck with an unsent order.
 */
describeApi("a delivery retried after its answer was lost", (api) => {
  it("answers the retry with the delivery recorded the first time", async () => {
    const client = await api().login();
    const db = api().database.db;
    const [order] = await db.select({ id: orders.id }).from(orders).where(and(eq(orders.courierId, client.courierId), eq(orders.patientLastName, "Mayfield")));
    const body = { delivery: { failure_reason: "Patient Not Home", client_occurred_at: OCCURRED, order_ids: [order!.id] } };
    const key = randomUUID();

    const first = await client.post("/api/courier/deliveries", body, { headers: { "idempotency-key": key } });
    expect(first.statusCode).toBe(200);

    // The crash: the stored answer is gone (as after an expired lease on an unfinished key).
    await db.delete(idempotencyKeys).where(and(eq(idempotencyKeys.courierId, client.courierId), eq(idempotencyKeys.key, key)));

    const retry = await client.post("/api/courier/deliveries", body, { headers: { "idempotency-key": key } });
    expect(retry.statusCode).toBe(200);
    expect(retry.json()).toEqual(first.json());
    const [count] = await db.select({ n: sql<number>`count(*)::int` }).from(deliveryOrders).where(eq(deliveryOrders.orderId, order!.id));
    expect(count!.n).toBe(1);

    // A new courier action (another key) on the same order is still refused by the lifecycle.
    const again = await client.post("/api/courier/deliveries", body, { headers: { "idempotency-key": randomUUID() } });
    expect(again.statusCode).toBe(409);
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
