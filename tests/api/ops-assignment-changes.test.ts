import { and, eq, sql } from "drizzle-orm";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, expect, it } from "vitest";
import { AssignmentResponse } from "../../domain/contract/ops.ts";
import { Custody, Proof } from "../../domain/contract/ops-proof.ts";
import { WEBHOOK_EVENT_TYPES, WEBHOOK_PAYLOADS, type WebhookEventType } from "../../domain/webhook-events.ts";
import { auditEvents, deliveries, deliveryOrders, orders, pharmacyVisits, webhookMessages } from "../../server/db/schema.ts";
import { TEST_DAY } from "../support/api-harness.ts";
import { courierActions, type CourierSession } from "../support/courier-actions.ts";
import { describeOps, orderBody, subscribe } from "../support/ops-harness.ts";
import { freshOrder, freshPharmacy } from "../support/security-fixtures.ts";
import { startReceiver, type Receiver } from "../support/webhook-receiver.ts";

/**
 * Issue 25 "Calls that say what they change": an assignment to another day
 * says it rescheduled the order (custody, order.rescheduled, the answer); the
 * same assignment again changes nothing; a copay the courier changes at the
 * counter keeps its before and after; a failure at 'Did not verify date of
 * birth' records dob_verified false.
 */

/** The day after TEST_DAY: an assignment to it moves an order of TEST_DAY. */
const NEXT_DAY = "2026-11-22";


describeOps(
  "assignments and pickups that say what they change (/api/ops/v1)",
  (ctx) => {
    const db = () => ctx().database.db;
    let receiver: Receiver;
    let courier: CourierSession;
    let act: ReturnType<typeof courierActions>;
    let pharmacyId: number;
    /** Hears every event of the suite: each body it is sent must match its payload schema. */
    let everything: number;

    beforeAll(async () => {
      receiver = await startReceiver();
      courier = await ctx().loginCourier("courier@example.com");
      act = courierActions(ctx().app, courier);
      pharmacyId = await freshPharmacy(db(), courier.courierId, "Change Test Pharmacy");
      everything = (await subscribe(ctx(), receiver.url("/everything"), [...WEBHOOK_EVENT_TYPES])).id;
    });
    afterAll(async () => receiver?.close());

    const custodyOf = async (id: number) => {
      const response = await ctx().ops("GET", `/api/ops/v1/orders/${id}/custody`);
      expect(response.statusCode, response.body).toBe(200);
      return Custody.parse(response.json()).custody;
    };
    const proofOf = async (id: number) => {
      const response = await ctx().ops("GET", `/api/ops/v1/orders/${id}/proof`);
      expect(response.statusCode, response.body).toBe(200);
      return Proof.parse(response.json());
    };
    const createOrder = async (externalId: string) => {
      const created = await ctx().ops("POST", "/api/ops/v1/orders", orderBody(pharmacyId, externalId, { service_date: TEST_DAY }));
      expect(created.statusCode, created.body).toBe(201);
      return created.json().order.id as number;
    };
    const assign = async (serviceDate: string, orderIds: number[]) => {
      const response = await ctx().ops("POST", "/api/ops/v1/assignments", { courier_id: courier.courierId, service_date: serviceDate, order_ids: orderIds });
      expect(response.statusCode, response.body).toBe(200);
      return AssignmentResponse.parse(response.json());
    };
    /** The outbox's messages of one type about one order, for the subscription that hears every event. */
    const outboxed = async (type: string, orderId: number) =>
      db()
        .select({ body: webhookMessages.body })
        .from(webhookMessages)
        .where(
          and(
            eq(webhookMessages.subscriptionId, everything),
            eq(webhookMessages.eventType, type),
            sql`(${webhookMessages.body}::jsonb -> 'data' -> 'order' ->> 'id')::int = ${orderId}`,
          ),
        );

    it("an assignment to another day reschedules the order: said in the answer, the custody and an order.rescheduled event", async () => {
      const subscription = await subscribe(ctx(), receiver.url("/rescheduled"), ["order.rescheduled"]);
      const id = await createOrder("MOVE-1");
      const answer = await assign(NEXT_DAY, [id]);
      expect(answer.orders.map((order) => [order.id, order.service_date])).toEqual([[id, NEXT_DAY]]);
      expect(answer.rescheduled).toEqual([{ order_id: id, from: TEST_DAY, to: NEXT_DAY }]);
      expect(answer.unchanged).toEqual([]);

      const custody = await custodyOf(id);
      expect(custody.map((entry) => entry.event)).toEqual(["created", "assigned", "rescheduled"]);
      expect(custody[2]).toMatchObject({ actor: { type: "key", id: ctx().dispatchKeyId }, details: { from: TEST_DAY, to: NEXT_DAY } });

      const [request] = await receiver.waitFor("/rescheduled", 1);
      const body = new Webhook(subscription.secret).verify(request!.body, request!.headers as Record<string, string>);
      const event = WEBHOOK_PAYLOADS["order.rescheduled"].parse(body);
      expect(event.data).toEqual({
        order: expect.objectContaining({ id, external_id: "MOVE-1", courier_id: courier.courierId, service_date: NEXT_DAY, status: "submitted_to_courier" }),
        from: TEST_DAY,
        to: NEXT_DAY,
      });

      // Moved back: a second reschedule, the other way.
      const back = await assign(TEST_DAY, [id]);
      expect(back.rescheduled).toEqual([{ order_id: id, from: NEXT_DAY, to: TEST_DAY }]);
      expect((await custodyOf(id)).filter((entry) => entry.event === "rescheduled").map((entry) => entry.details)).toEqual([
        { from: TEST_DAY, to: NEXT_DAY },
        { from: NEXT_DAY, to: TEST_DAY },
      ]);
      await receiver.waitFor("/rescheduled", 2);
    });

    it("the API document says an assignment may reschedule, and what the answer lists", async () => {
      const doc = (await ctx().raw("GET", "/api/openapi.json")).json() as {
        paths: Record<string, { post: { requestBody: { content: Record<string, { schema: { properties: Record<string, { description?: string }> } }> }; responses: Record<string, { content: Record<string, { schema: { properties: Record<string, unknown> } }> }> } }>;
      };
      const post = doc.paths["/api/ops/v1/assignments"]!.post;
      expect(post.requestBody.content["application/json"]!.schema.properties.service_date!.description).toMatch(/rescheduled.*order\.rescheduled/);
      expect(Object.keys(post.responses["200"]!.content["application/json"]!.schema.properties)).toEqual(
        expect.arrayContaining(["orders", "pharmacy_visits", "rescheduled", "unchanged"]),
      );
    });

    it("an assignment on the order's own day reschedules nothing", async () => {
      const id = await createOrder("STAY-1");
      const answer = await assign(TEST_DAY, [id]);
      expect(answer.rescheduled).toEqual([]);
      expect((await custodyOf(id)).map((entry) => entry.event)).toEqual(["created", "assigned"]);
      expect(await outboxed("order.rescheduled", id)).toEqual([]);
    });

    it("the same assignment sent twice changes nothing the second time: one custody row, one order.assigned", async () => {
      await subscribe(ctx(), receiver.url("/assigned"), ["order.assigned"]);
      const first = await createOrder("TWICE-1");
      const second = await createOrder("TWICE-2");
      const once = await assign(TEST_DAY, [first]);
      expect(once.unchanged).toEqual([]);
      const updatedAt = once.orders[0]!.updated_at;

      const again = await assign(TEST_DAY, [first]);
      expect(again.unchanged).toEqual([first]);
      expect(again.rescheduled).toEqual([]);
      expect(again.orders).toEqual(once.orders);
      expect(again.orders[0]!.updated_at).toBe(updatedAt);

      // With a new order beside it: the new one is assigned, the first still left as it was.
      const mixed = await assign(TEST_DAY, [first, second]);
      expect(mixed.unchanged).toEqual([first]);
      expect(mixed.orders.map((order) => order.id)).toEqual([first, second]);

      expect((await custodyOf(first)).map((entry) => entry.event)).toEqual(["created", "assigned"]);
      expect((await custodyOf(second)).map((entry) => entry.event)).toEqual(["created", "assigned"]);
      const assignedRows = await db().select().from(auditEvents).where(and(eq(auditEvents.orderId, first), eq(auditEvents.action, "order_assigned")));
      expect(assignedRows).toHaveLength(1);
      expect(await outboxed("order.assigned", first)).toHaveLength(1);
      expect(await outboxed("order.assigned", second)).toHaveLength(1);
    });

    it("a copay the courier changes at the counter: custody keeps copay_before and copay_after, with the courier", async () => {
      const noCopay = await freshOrder(db(), { courierId: courier.courierId, pharmacyId, status: "submitted_to_courier", copayCents: 1250 });
      const raised = await freshOrder(db(), { courierId: courier.courierId, pharmacyId, status: "submitted_to_courier", copayCents: 500 });
      await act.assertCopay(noCopay, "0.00");
      await act.assertCopay(raised, "15.00");

      const [verified] = (await custodyOf(noCopay)).filter((entry) => entry.event === "verified");
      expect(verified).toMatchObject({
        actor: { type: "courier", id: courier.courierId, name: "Dana Whitfield" },
        details: { copay_asserted: true, copay_before: "12.50", copay_after: "0.00" },
      });
      const [raisedEntry] = (await custodyOf(raised)).filter((entry) => entry.event === "verified");
      expect(raisedEntry!.details).toEqual({ copay_asserted: true, copay_before: "5.00", copay_after: "15.00" });
    });

    it("an add-on taken with another copay: the same custody entry, before and after", async () => {
      const addon = await freshOrder(db(), { courierId: null, pharmacyId, status: "new", copayCents: 800, addon: true });
      const taken = await act.json("POST", `/api/courier/pharmacies/${pharmacyId}/addons`, { orders: [{ id: addon, copay: "0.00" }], service_window_instance_id: null });
      expect(taken.statusCode, taken.body).toBe(200);
      const [verified] = (await custodyOf(addon)).filter((entry) => entry.event === "verified");
      expect(verified).toMatchObject({
        actor: { type: "courier", id: courier.courierId },
        details: { copay_asserted: true, copay_before: "8.00", copay_after: "0.00" },
      });
    });

    it("a failure at 'Did not verify date of birth' records dob_verified false; another failure leaves it null (not asked)", async () => {
      const dob = await freshOrder(db(), { courierId: courier.courierId, pharmacyId, status: "submitted_to_courier" });
      const notHome = await freshOrder(db(), { courierId: courier.courierId, pharmacyId, status: "submitted_to_courier" });
      await db().update(orders).set({ patientDateOfBirth: "1948-03-14" }).where(eq(orders.id, dob));
      for (const id of [dob, notHome]) await act.pickUp(id);
      await act.fail([dob], "Date of Birth Not Verified", "The date on the ID did not match");
      await act.fail([notHome], "Patient Not Home", "Rang twice");

      const proof = await proofOf(dob);
      expect(proof).toMatchObject({ outcome: "delivery_attempted", failure: { reason: "Date of Birth Not Verified" }, dob_verified: false });
      expect((await proofOf(notHome)).dob_verified).toBeNull();
      // The order's own record at the door says the same.
      const recorded = await db()
        .select({ dobVerified: deliveries.dobVerified })
        .from(deliveryOrders)
        .innerJoin(deliveries, eq(deliveries.id, deliveryOrders.deliveryId))
        .where(eq(deliveryOrders.orderId, dob));
      expect(recorded).toEqual([{ dobVerified: false }]);
    });

    it("every event the suite caused matches its payload schema in domain/webhook-events.ts", async () => {
      // A visit answer and a cancellation too, so more than the order events above are checked.
      const [visit] = await db().select().from(pharmacyVisits).where(and(eq(pharmacyVisits.pharmacyId, pharmacyId), eq(pharmacyVisits.courierId, courier.courierId)));
      await act.confirmVisit(visit!.id);
      const cancelled = await createOrder("CANCEL-1");
      expect((await ctx().ops("POST", `/api/ops/v1/orders/${cancelled}/cancellation`, {})).statusCode).toBe(200);

      const messages = await db().select().from(webhookMessages).where(eq(webhookMessages.subscriptionId, everything));
      const types = new Set(messages.map((message) => message.eventType));
      for (const type of ["order.created", "order.assigned", "order.rescheduled", "order.picked_up", "order.delivery_attempted", "order.cancelled", "visit.confirmed"]) {
        expect(types, type).toContain(type);
      }
      for (const message of messages) {
        const schema = WEBHOOK_PAYLOADS[message.eventType as WebhookEventType];
        const parsed = schema.safeParse(JSON.parse(message.body));
        expect(parsed.success, `${message.eventType}: ${parsed.error?.message}`).toBe(true);
      }
    });
  },
  { WEBHOOK_ALLOW_PRIVATE: "true" },
);
