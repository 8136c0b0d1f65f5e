import { createServer } from "node:net";
import type { AddressInfo } from "node:net";
import { eq } from "drizzle-orm";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, expect, it } from "vitest";
import { WebhookDeliveriesResponse, WebhookListResponse } from "../../domain/contract/ops-webhooks.ts";
import { orders } from "../../server/db/schema.ts";
import { completion, courierActions, type CourierSession } from "../support/courier-actions.ts";
import { describeOps, orderBody, subscribe } from "../support/ops-harness.ts";
import { freshOrder, freshPharmacy } from "../support/security-fixtures.ts";
import { startReceiver, type Receiver } from "../support/webhook-receiver.ts";

/**
 * Webhooks end to end inside one API process: a real HTTP receiver on
 * 127.0.0.1, events caused through the courier API, Standard Webhooks
 * signatures checked with the standardwebhooks package, retries, the
 * deliveries list and redelivery. The retry schedule is shrunk
 * (WEBHOOK_RETRY_SCALE) so a test sees a delivery give up in seconds.
 */

/** A port nothing listens on: one the system just handed out and took back. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));


describeOps(
  "webhooks (/api/ops/v1/webhooks) with a receiver on 127.0.0.1",
  (ctx) => {
    const db = () => ctx().database.db;
    let receiver: Receiver;
    let courier: CourierSession;
    let act: ReturnType<typeof courierActions>;
    let pharmacyId: number;

    beforeAll(async () => {
      receiver = await startReceiver();
      courier = await ctx().loginCourier("courier@example.com");
      act = courierActions(ctx().app, courier);
      pharmacyId = await freshPharmacy(db(), courier.courierId, "Webhook Test Pharmacy");
    });
    afterAll(async () => receiver?.close());

    const pickedUpOrder = async (pharmacy = pharmacyId) => {
      const id = await freshOrder(db(), { courierId: courier.courierId, pharmacyId: pharmacy, status: "submitted_to_courier" });
      await act.pickUp(id);
      return id;
    };

    it("a delivery through the courier API sends exactly one order.delivered, signed per Standard Webhooks", async () => {
      const subscription = await subscribe(ctx(), receiver.url("/delivered"), ["order.delivered"]);
      expect(subscription.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
      const id = await pickedUpOrder();
      await act.deliver(completion([id]));

      const [request] = await receiver.waitFor("/delivered", 1);
      await sleep(1_500);
      expect(receiver.on("/delivered")).toHaveLength(1);

      const headers = { "webhook-id": String(request!.headers["webhook-id"]), "webhook-timestamp": String(request!.headers["webhook-timestamp"]), "webhook-signature": String(request!.headers["webhook-signature"]) };
      expect(headers["webhook-signature"]).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
      const verified = new Webhook(subscription.secret).verify(request!.body, headers) as { type: string; timestamp: string; data: { order: { id: number; status: string; pharmacy_id: number } } };
      expect(verified.type).toBe("order.delivered");
      expect(verified.data.order).toMatchObject({ id, status: "delivered", pharmacy_id: pharmacyId });
      expect(Number.isNaN(Date.parse(verified.timestamp))).toBe(false);
      expect(request!.headers["content-type"]).toBe("application/json");
      // A tampered body or another secret does not verify.
      expect(() => new Webhook(subscription.secret).verify(request!.body.replace("delivered", "cancelled"), headers)).toThrow();
      const other = await subscribe(ctx(), receiver.url("/unused"), ["order.cancelled"]);
      expect(() => new Webhook(other.secret).verify(request!.body, headers)).toThrow();
    });

    it("500, 500, then 200: the same webhook-id three times; the deliveries list shows each attempt", async () => {
      receiver.script("/flaky", [500, 500, 200]);
      const subscription = await subscribe(ctx(), receiver.url("/flaky"), ["order.picked_up"]);
      await pickedUpOrder();
      const requests = await receiver.waitFor("/flaky", 3);
      await sleep(1_200);
      expect(receiver.on("/flaky")).toHaveLength(3);
      const ids = new Set(requests.map((request) => request.headers["webhook-id"]));
      expect(ids.size).toBe(1);
      for (const request of requests) {
        new Webhook(subscription.secret).verify(request.body, request.headers as Record<string, string>);
      }

      const list = await ctx().ops("GET", `/api/ops/v1/webhooks/${subscription.id}/deliveries`);
      expect(list.statusCode, list.body).toBe(200);
      const [delivery] = WebhookDeliveriesResponse.parse(list.json()).deliveries;
      expect(delivery).toMatchObject({ event_id: [...ids][0], event_type: "order.picked_up", status: "delivered", next_attempt_at: null });
      expect(delivery!.attempts.map((attempt) => attempt.status_code)).toEqual([500, 500, 200]);
      expect(delivery!.attempts.map((attempt) => attempt.error)).toEqual(["The endpoint answered 500.", "The endpoint answered 500.", null]);

      // Redelivery sends it again now, with the same id.
      const again = await ctx().ops("POST", `/api/ops/v1/webhooks/${subscription.id}/deliveries/${delivery!.id}/redeliver`);
      expect(again.statusCode, again.body).toBe(202);
      const after = await receiver.waitFor("/flaky", 4);
      expect(after[3]!.headers["webhook-id"]).toBe(delivery!.event_id);
    });

    it("gives up after the last retry: the delivery is failed, refused connections and redirects count as failures", async () => {
      receiver.script("/down", [503]);
      const down = await subscribe(ctx(), receiver.url("/down"), ["order.cancelled"]);
      receiver.script("/moved", [302]);
      const moved = await subscribe(ctx(), receiver.url("/moved"), ["order.cancelled"]);
      const refused = await subscribe(ctx(), `http://127.0.0.1:${await closedPort()}/nothing-listens`, ["order.cancelled"]);
      const id = await freshOrder(db(), { courierId: courier.courierId, pharmacyId, status: "submitted_to_courier" });
      const cancelled = await act.json("POST", "/api/courier/cancellation", { order_id: id });
      expect(cancelled.statusCode, cancelled.body).toBe(200);

      const deadline = Date.now() + 40_000;
      const deliveriesOf = async (subscriptionId: number) =>
        WebhookDeliveriesResponse.parse((await ctx().ops("GET", `/api/ops/v1/webhooks/${subscriptionId}/deliveries`)).json()).deliveries;
      for (;;) {
        const all = await Promise.all([down.id, moved.id, refused.id].map(deliveriesOf));
        if (all.every((list) => list[0]?.status === "failed")) break;
        if (Date.now() > deadline) throw new Error(`not failed in time: ${JSON.stringify(all.map((list) => list[0]?.status))}`);
        await sleep(250);
      }
      const [downList, movedList, refusedList] = await Promise.all([down.id, moved.id, refused.id].map(deliveriesOf));
      expect(downList![0]!.attempts).toHaveLength(10);
      expect(downList![0]!.attempts.every((attempt) => attempt.status_code === 503)).toBe(true);
      expect(receiver.on("/down")).toHaveLength(10);
      // A redirect is not followed: the receiver saw only /moved, never where it pointed.
      expect(movedList![0]!.attempts[0]).toMatchObject({ status_code: 302, error: "The endpoint redirected; redirects are not followed." });
      expect(refusedList![0]!.attempts[0]).toMatchObject({ status_code: null, error: "The connection was refused." });
      expect(refusedList![0]!.next_attempt_at).toBeNull();
    }, 60_000);

    it("a pharmacy key's subscription hears its own pharmacy's events only, and sees only its own subscriptions", async () => {
      const key = await ctx().ops("POST", "/api/ops/v1/keys", { role: "pharmacy", pharmacy_id: pharmacyId, name: "Webhook Test" });
      expect(key.statusCode, key.body).toBe(201);
      const pharmacyKey = key.json().key as string;
      const own = await subscribe(ctx(), receiver.url("/own"), ["order.picked_up"], pharmacyKey);
      expect(own.pharmacy_id).toBe(pharmacyId);

      const [demo] = await db().select({ id: orders.id, pharmacyId: orders.pharmacyId }).from(orders).where(eq(orders.patientLastName, "Brennan"));
      await act.pickUp(demo!.id);
      const mine = await pickedUpOrder();
      const [request] = await receiver.waitFor("/own", 1);
      await sleep(1_500);
      expect(receiver.on("/own")).toHaveLength(1);
      expect(JSON.parse(request!.body).data.order.id).toBe(mine);

      const listed = WebhookListResponse.parse((await ctx().ops("GET", "/api/ops/v1/webhooks", undefined, pharmacyKey)).json()).webhooks;
      expect(listed.map((hook) => hook.id)).toEqual([own.id]);
      const dispatchHooks = WebhookListResponse.parse((await ctx().ops("GET", "/api/ops/v1/webhooks")).json()).webhooks;
      const foreign = dispatchHooks.find((hook) => hook.pharmacy_id === null)!;
      expect((await ctx().ops("GET", `/api/ops/v1/webhooks/${foreign.id}/deliveries`, undefined, pharmacyKey)).statusCode).toBe(404);
      expect((await ctx().ops("DELETE", `/api/ops/v1/webhooks/${foreign.id}`, undefined, pharmacyKey)).statusCode).toBe(404);
      expect((await ctx().ops("DELETE", `/api/ops/v1/webhooks/${own.id}`, undefined, pharmacyKey)).statusCode).toBe(204);
      expect(WebhookListResponse.parse((await ctx().ops("GET", "/api/ops/v1/webhooks", undefined, pharmacyKey)).json()).webhooks).toEqual([]);
    });

    it("order.created and order.assigned come from the operations API's own changes", async () => {
      const subscription = await subscribe(ctx(), receiver.url("/ops"), ["order.created", "order.assigned"]);
      const created = await ctx().ops("POST", "/api/ops/v1/orders", orderBody(pharmacyId, "HOOK-1"));
      expect(created.statusCode, created.body).toBe(201);
      const id = created.json().order.id as number;
      // The same external_id again is the same order: no second event.
      expect((await ctx().ops("POST", "/api/ops/v1/orders", orderBody(pharmacyId, "HOOK-1"))).statusCode).toBe(200);
      const assigned = await ctx().ops("POST", "/api/ops/v1/assignments", { courier_id: courier.courierId, service_date: "2026-11-21", order_ids: [id] });
      expect(assigned.statusCode, assigned.body).toBe(200);
      const requests = await receiver.waitFor("/ops", 2);
      await sleep(1_200);
      expect(receiver.on("/ops")).toHaveLength(2);
      const bodies = requests.map((request) => new Webhook(subscription.secret).verify(request.body, request.headers as Record<string, string>) as { type: string; data: { order: Record<string, unknown> } });
      expect(bodies.map((body) => body.type).sort()).toEqual(["order.assigned", "order.created"]);
      const assignedBody = bodies.find((body) => body.type === "order.assigned")!;
      expect(assignedBody.data.order).toMatchObject({ id, external_id: "HOOK-1", courier_id: courier.courierId, status: "submitted_to_courier" });
    });

    it("refuses unknown events, non-http URLs and credentials in the URL (400)", async () => {
      for (const body of [
        { url: receiver.url("/x"), events: ["order.exploded"] },
        { url: receiver.url("/x"), events: [] },
        { url: "ftp://example.com/hook", events: ["order.created"] },
        { url: "http://user:pw@example.com/hook", events: ["order.created"] },
        { url: "not a url", events: ["order.created"] },
      ]) {
        const response = await ctx().ops("POST", "/api/ops/v1/webhooks", body);
        expect(response.statusCode, JSON.stringify(body)).toBe(400);
      }
    });
  },
  { WEBHOOK_ALLOW_PRIVATE: "true", WEBHOOK_RETRY_SCALE: "0.00001" },
);

describeOps("webhooks without WEBHOOK_ALLOW_PRIVATE", (ctx) => {
  it("refuses loopback, private, link-local and metadata addresses at subscription (400)", async () => {
    for (const url of [
      "http://127.0.0.1:8080/hook",
      "http://localhost/hook",
      "http://10.1.2.3/hook",
      "http://192.168.0.10/hook",
      "http://172.20.0.1/hook",
      "http://169.254.169.254/latest/meta-data",
      "http://[::1]/hook",
      "http://[::ffff:127.0.0.1]/hook",
      "http://0.0.0.0/hook",
    ]) {
      const response = await ctx().ops("POST", "/api/ops/v1/webhooks", { url, events: ["order.delivered"] });
      expect(response.statusCode, url).toBe(400);
      expect(response.json().message, url).toMatch(/private or loopback|could not be resolved/);
    }
    expect(WebhookListResponse.parse((await ctx().ops("GET", "/api/ops/v1/webhooks")).json()).webhooks).toEqual([]);
  });
});
