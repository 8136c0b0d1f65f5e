import { and, eq } from "drizzle-orm";
import { beforeAll, expect, it } from "vitest";
import { OrderWebhookDeliveriesResponse } from "../../domain/contract/ops-webhooks.ts";
import { auditEvents } from "../../server/db/schema.ts";
import { describeOps, orderBody, pharmacyBody, subscribe, type OpsContext } from "../support/ops-harness.ts";
import { newStaffSession } from "../support/staff-harness.ts";

/**
 * GET /api/ops/v1/orders/{id}/webhook-deliveries (issue 27, the console's
 * order page): the webhooks sent about one order, each with its
 * subscription; a pharmacy's caller sees its own subscriptions' only, and
 * another pharmacy's order is "not found".
 */

// A public documentation address on port 9: fetch refuses the port at once, so no delivery leaves the machine.
const HOOK_URL = "http://203.0.113.10:9/hook";

describeOps("the webhooks sent about an order (GET /api/ops/v1/orders/{id}/webhook-deliveries)", (ctx) => {
  let own: number;
  let other: number;
  let ownKey: string;
  let otherKey: string;
  let dispatchSubscription: number;
  let ownSubscription: number;
  let serial = 0;

  const createPharmacy = async (c: OpsContext, name: string) => (await c.ops("POST", "/api/ops/v1/pharmacies", pharmacyBody({ name }))).json().pharmacy.id as number;
  const keyOf = async (c: OpsContext, pharmacyId: number) =>
    (await c.ops("POST", "/api/ops/v1/keys", { role: "pharmacy", pharmacy_id: pharmacyId, name: `pharmacy ${pharmacyId}` })).json().key as string;
  const newOrder = async (pharmacyId: number) => {
    const response = await ctx().ops("POST", "/api/ops/v1/orders", orderBody(pharmacyId, `WH-${++serial}`));
    expect(response.statusCode, response.body).toBe(201);
    return response.json().order.id as number;
  };
  const deliveriesOf = async (orderId: number, key?: string | null, headers?: Record<string, string>) => {
    const response = await ctx().ops("GET", `/api/ops/v1/orders/${orderId}/webhook-deliveries`, undefined, key, headers);
    return { status: response.statusCode, body: response.statusCode === 200 ? OrderWebhookDeliveriesResponse.parse(response.json()) : response.json() };
  };

  beforeAll(async () => {
    own = await createPharmacy(ctx(), "Order Webhooks Own");
    other = await createPharmacy(ctx(), "Order Webhooks Other");
    ownKey = await keyOf(ctx(), own);
    otherKey = await keyOf(ctx(), other);
    dispatchSubscription = (await subscribe(ctx(), `${HOOK_URL}/dispatch`, ["order.created", "order.cancelled"])).id;
    ownSubscription = (await subscribe(ctx(), `${HOOK_URL}/own`, ["order.created"], ownKey)).id;
  });

  it("lists each webhook sent about the order, oldest first, with its subscription's URL — and none of another order's", async () => {
    const order = await newOrder(own);
    const neighbour = await newOrder(own);
    expect((await ctx().ops("POST", `/api/ops/v1/orders/${order}/cancellation`, {})).statusCode).toBe(200);

    const { status, body } = await deliveriesOf(order);
    expect(status).toBe(200);
    const rows = (body as { deliveries: { event_type: string; subscription_id: number; url: string; attempts: unknown[] }[] }).deliveries;
    expect(rows.map((row) => [row.event_type, row.subscription_id])).toEqual([
      ["order.created", dispatchSubscription],
      ["order.created", ownSubscription],
      ["order.cancelled", dispatchSubscription],
    ]);
    expect(rows[0]!.url).toBe(`${HOOK_URL}/dispatch`);
    expect(rows[1]!.url).toBe(`${HOOK_URL}/own`);

    const theOther = (await deliveriesOf(neighbour)).body as { deliveries: { event_type: string }[] };
    expect(theOther.deliveries.map((row) => row.event_type)).toEqual(["order.created", "order.created"]);
  });

  it("a pharmacy's key and its pharmacist see their own subscriptions' deliveries only; another pharmacy's gets 404", async () => {
    const order = await newOrder(own);
    const byKey = (await deliveriesOf(order, ownKey)).body as { deliveries: { subscription_id: number }[] };
    expect(byKey.deliveries.map((row) => row.subscription_id)).toEqual([ownSubscription]);

    const pharmacist = await newStaffSession(ctx(), "pharmacist", own);
    const bySession = (await deliveriesOf(order, null, pharmacist.headers)).body as { deliveries: { subscription_id: number }[] };
    expect(bySession.deliveries.map((row) => row.subscription_id)).toEqual([ownSubscription]);

    const stranger = await newStaffSession(ctx(), "pharmacist", other);
    expect((await deliveriesOf(order, otherKey)).status).toBe(404);
    expect((await deliveriesOf(order, null, stranger.headers)).status).toBe(404);
    expect((await deliveriesOf(order, null)).status).toBe(401);
  });

  it("an order nobody subscribed to answers an empty list; an unknown order 404", async () => {
    const quiet = await createPharmacy(ctx(), "Order Webhooks Quiet");
    const key = await keyOf(ctx(), quiet);
    const response = await ctx().ops("POST", "/api/ops/v1/orders", orderBody(quiet, "WH-QUIET"), key);
    const order = response.json().order.id as number;
    expect(((await deliveriesOf(order, key)).body as { deliveries: unknown[] }).deliveries).toEqual([]);
    expect((await deliveriesOf(999_999)).status).toBe(404);
  });

  it("carries no patient details, so a dispatcher's read of it writes no view of patient data", async () => {
    const order = await newOrder(own);
    const dispatcher = await newStaffSession(ctx(), "dispatcher");
    const { status, body } = await deliveriesOf(order, null, dispatcher.headers);
    expect(status).toBe(200);
    expect(JSON.stringify(body)).not.toContain("Lovelace");
    const views = await ctx()
      .database.db.select()
      .from(auditEvents)
      .where(and(eq(auditEvents.orderId, order), eq(auditEvents.action, "view_patient_details"), eq(auditEvents.staffId, dispatcher.staffId)));
    expect(views).toEqual([]);
    // The same dispatcher reading the order itself is a view, recorded: the check above can fail.
    expect((await ctx().ops("GET", `/api/ops/v1/orders/${order}`, undefined, null, dispatcher.headers)).statusCode).toBe(200);
    const after = await ctx()
      .database.db.select()
      .from(auditEvents)
      .where(and(eq(auditEvents.orderId, order), eq(auditEvents.action, "view_patient_details"), eq(auditEvents.staffId, dispatcher.staffId)));
    expect(after).toHaveLength(1);
  });
});
