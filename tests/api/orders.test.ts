import { and, eq, isNotNull } from "drizzle-orm";
import { expect, it } from "vitest";
import { Order } from "../../domain/contract/entities.ts";
import { ItineraryResponse } from "../../domain/contract/itinerary.ts";
import { auditEvents, orders } from "../../server/db/schema.ts";
import { describeApi, type ApiClient } from "../support/api-harness.ts";
import { OCCURRED } from "../support/instants.ts";

/** The courier's day as the app reads it back. */
async function day(client: ApiClient) {
  return ItineraryResponse.parse((await client.get("/api/courier/itinerary")).json());
}

/** One of the courier's demo orders, by patient name (each test picks its own). */
async function orderOf(client: ApiClient, first: string, last: string) {
  const order = (await day(client)).orders.find((o) => o.patient_first_name === first && o.patient_last_name === last);
  if (!order) throw new Error(`no demo order for ${first} ${last}`);
  return order;
}

async function readBack(client: ApiClient, id: number) {
  return (await day(client)).orders.find((o) => o.id === id)!;
}

describeApi("orders: copay, pickup, status and cancellation", (api) => {
  it("asserts a copay, then picks the order up; both persist and the body is the Order", async () => {
    const client = await api().login();
    const order = await orderOf(client, "Eleanor", "Abernathy");
    expect(order.status.name).toBe("submitted_to_courier");

    const asserted = await client.put(`/api/orders/${order.id}`, { order: { copay: "13.75" } });
    expect(asserted.statusCode).toBe(200);
    const assertedBody = Order.parse(asserted.json());
    expect(assertedBody).toMatchObject({ id: order.id, copay: "13.75", status: { name: "submitted_to_courier" } });
    expect((await readBack(client, order.id)).copay).toBe("13.75");

    const picked = await client.post(`/api/orders/${order.id}/pickups`);
    expect(picked.statusCode).toBe(200);
    expect(Order.parse(picked.json()).status).toEqual({ id: 3, name: "picked_up" });
    const stored = await readBack(client, order.id);
    expect(stored.status.name).toBe("picked_up");
    expect(stored.copay).toBe("13.75");
    const [row] = await api().database.db.select().from(orders).where(eq(orders.id, order.id));
    expect(row!.pickedUpAt).toBeInstanceOf(Date);
    expect(row!.copayAssertedAt).toBeInstanceOf(Date);
  });

  it("refuses a second pickup and a copay change once picked up (409), changing nothing", async () => {
    const client = await api().login();
    const order = await orderOf(client, "Walter", "Brennan");
    expect((await client.put(`/api/orders/${order.id}`, { order: { copay: "0.00" } })).statusCode).toBe(200);
    expect((await readBack(client, order.id)).copay).toBe("0.00");
    expect((await client.post(`/api/orders/${order.id}/pickups`)).statusCode).toBe(200);

    const again = await client.post(`/api/orders/${order.id}/pickups`);
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({ error: "conflict", message: `Order ${order.id} is picked up and cannot be picked up.` });
    const copay = await client.put(`/api/orders/${order.id}`, { order: { copay: "5.00" } });
    expect(copay.statusCode).toBe(409);
    expect(copay.json().message).toBe(`Order ${order.id} is picked up; its copay can no longer be changed.`);
    expect((await readBack(client, order.id)).copay).toBe("0.00");
  });

  it("refuses a copay that is not 0.00 or at least $1.00 ending in digit.digitdigit with 400, keeping the old one", async () => {
    const client = await api().login();
    const order = await orderOf(client, "Rosa", "Delgado");
    const refused = await client.put(`/api/orders/${order.id}`, { order: { copay: "0.99" } });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({
      error: "invalid_request",
      message: `The copay for order ${order.id} must be at least $1.00, or 0.00 for no copay.`,
    });
    for (const copay of ["12.5", "12", "abc", "-1.00", "1,000.00", "$5.00", 12.5, null, true]) {
      const response = await client.put(`/api/orders/${order.id}`, { order: { copay } });
      expect(response.statusCode, JSON.stringify(copay)).toBe(400);
      expect(response.json().error).toBe("invalid_request");
    }
    const huge = await client.put(`/api/orders/${order.id}`, { order: { copay: "99999999999.00" } });
    expect(huge.statusCode).toBe(400);
    expect((await readBack(client, order.id)).copay).toBe("45.00");
  });

  it("changes status through the lifecycle: picked_up is allowed, going back or skipping ahead is 409", async () => {
    const client = await api().login();
    const order = await orderOf(client, "Harold", "Johnson");
    const picked = await client.put(`/api/orders/${order.id}`, { order: { status_id: 3 } });
    expect(picked.statusCode).toBe(200);
    expect(Order.parse(picked.json()).status.name).toBe("picked_up");
    expect((await readBack(client, order.id)).status.name).toBe("picked_up");

    const back = await client.put(`/api/orders/${order.id}`, { order: { status_id: 2 } });
    expect(back.statusCode).toBe(409);
    expect(back.json().message).toBe(`Order ${order.id} is picked up and cannot become submitted to courier.`);
    const same = await client.put(`/api/orders/${order.id}`, { order: { status_id: 3 } });
    expect(same.statusCode).toBe(409);
    expect(same.json().message).toBe(`Order ${order.id} is already picked up.`);
    const delivered = await client.put(`/api/orders/${order.id}`, { order: { status_id: 5 } });
    expect(delivered.statusCode).toBe(409);
    expect(delivered.json().message).toBe(
      `Order ${order.id} becomes delivered when its delivery or return is recorded, not by a status change.`,
    );
    expect((await readBack(client, order.id)).status.name).toBe("picked_up");
  });

  it("a status change to cancelled works from new, and the audit trail records it", async () => {
    const client = await api().login();
    const order = await orderOf(client, "Grace", "Kowalski");
    expect(order.status.name).toBe("new");
    const response = await client.put(`/api/orders/${order.id}`, { order: { status_id: 7 } });
    expect(response.statusCode).toBe(200);
    expect((await readBack(client, order.id)).status.name).toBe("cancelled");
    const audit = await api()
      .database.db.select()
      .from(auditEvents)
      .where(and(eq(auditEvents.orderId, order.id), eq(auditEvents.action, "status_change")));
    expect(audit.map((a) => [a.fromStatus, a.toStatus, a.courierId])).toEqual([["new", "cancelled", client.courierId]]);
  });

  it("refuses malformed status changes with 400", async () => {
    const client = await api().login();
    const order = await orderOf(client, "Samuel", "Okafor");
    const bodies = [
      { order: { status_id: 99 } },
      { order: { status_id: "3" } },
      { order: { status_id: 3, copay: "5.00" } },
      { order: {} },
      { order: { status_id: 3, extra: 1 } },
      {},
      { order: null },
      [],
    ];
    for (const body of bodies) {
      const response = await client.put(`/api/orders/${order.id}`, body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(response.json().error).toBe("invalid_request");
    }
    expect((await client.put(`/api/orders/${order.id}`, { order: { status_id: 99 } })).json().message).toBe("There is no order status 99.");
    const malformed = await client.request("PUT", `/api/orders/${order.id}`, "{order:");
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().error).toBe("malformed_json");
    expect((await readBack(client, order.id)).status.name).toBe("submitted_to_courier");
  });

  it("cancels at verification; a cancelled order cannot be picked up, cancelled again or given a copay", async () => {
    const client = await api().login();
    const order = await orderOf(client, "Margaret", "Johnson");
    const cancelled = await client.post("/api/courier/cancellation", { order_id: order.id });
    expect(cancelled.statusCode).toBe(200);
    expect(Order.parse(cancelled.json()).status).toEqual({ id: 7, name: "cancelled" });
    expect((await readBack(client, order.id)).status.name).toBe("cancelled");

    expect((await client.post("/api/courier/cancellation", { order_id: order.id })).statusCode).toBe(409);
    const pickup = await client.post(`/api/orders/${order.id}/pickups`);
    expect(pickup.statusCode).toBe(409);
    expect(pickup.json().message).toBe(`Order ${order.id} is cancelled and cannot be picked up.`);
    expect((await client.put(`/api/orders/${order.id}`, { order: { copay: "3.00" } })).statusCode).toBe(409);
  });

  it("cannot cancel an order already picked up (409)", async () => {
    const client = await api().login();
    const order = await orderOf(client, "Nadia", "Haddad");
    const response = await client.post("/api/courier/cancellation", { order_id: order.id });
    expect(response.statusCode).toBe(409);
    expect(response.json().message).toBe(`Order ${order.id} is picked up and cannot be cancelled.`);
    expect((await readBack(client, order.id)).status.name).toBe("picked_up");
  });

  it("refuses malformed cancellations with 400", async () => {
    const client = await api().login();
    for (const body of [{}, { order_id: "12" }, { order_id: -1 }, { order_id: 1.5 }, { order_id: 99999999999 }, { orderId: 1 }]) {
      const response = await client.post("/api/courier/cancellation", body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
    }
  });

  it("records when the courier tapped verify, and refuses a time that is not one", async () => {
    const client = await api().login();
    const order = await orderOf(client, "Timothy", "Johnson");
    const bad = await client.post(`/api/orders/${order.id}/pickups`, { client_occurred_at: "this morning" });
    expect(bad.statusCode).toBe(400);
    const at = OCCURRED;
    expect((await client.post(`/api/orders/${order.id}/pickups`, { client_occurred_at: at })).statusCode).toBe(200);
    // The courier's change; dispatch's assignment before it is the demo day key's (issue 15).
    const [audit] = await api()
      .database.db.select()
      .from(auditEvents)
      .where(and(eq(auditEvents.orderId, order.id), eq(auditEvents.action, "status_change"), isNotNull(auditEvents.courierId)));
    expect(audit!.clientOccurredAt!.toISOString()).toBe(at);
    expect([audit!.fromStatus, audit!.toStatus]).toEqual(["submitted_to_courier", "picked_up"]);
  });

  it("another courier's order, or none at all, is 404 for every call; bad ids are 400", async () => {
    const dana = await api().login();
    const marcus = await api().login("courier2@example.com");
    const theirs = (await day(marcus)).orders.find((o) => o.status.name === "submitted_to_courier")!;
    for (const id of [theirs.id, 999999]) {
      expect((await dana.put(`/api/orders/${id}`, { order: { copay: "5.00" } })).statusCode).toBe(404);
      expect((await dana.put(`/api/orders/${id}`, { order: { status_id: 3 } })).statusCode).toBe(404);
      expect((await dana.post(`/api/orders/${id}/pickups`)).statusCode).toBe(404);
      const cancel = await dana.post("/api/courier/cancellation", { order_id: id });
      expect(cancel.statusCode).toBe(404);
      expect(cancel.json()).toEqual({ error: "not_found", message: `Order ${id} was not found.` });
    }
    const untouched = (await day(marcus)).orders.find((o) => o.id === theirs.id)!;
    expect(untouched.status.name).toBe("submitted_to_courier");
    expect(untouched.copay).toBe(theirs.copay);
    for (const id of ["abc", "0", "99999999999", "1.5"]) {
      expect((await dana.post(`/api/orders/${id}/pickups`)).statusCode, id).toBe(400);
      expect((await dana.put(`/api/orders/${id}`, { order: { copay: "5.00" } })).statusCode, id).toBe(400);
    }
  });

  it("every mutating call needs the CSRF token (403) and a session (401)", async () => {
    const client = await api().login();
    const order = await orderOf(client, "Linda", "Park");
    const noToken = { csrf: false } as const;
    for (const response of [
      await client.put(`/api/orders/${order.id}`, { order: { copay: "5.00" } }, noToken),
      await client.put(`/api/orders/${order.id}`, { order: { status_id: 3 } }, noToken),
      await client.post(`/api/orders/${order.id}/pickups`, {}, noToken),
      await client.post("/api/courier/cancellation", { order_id: order.id }, noToken),
    ]) {
      expect(response.statusCode).toBe(403);
      expect(response.json().error).toBe("csrf");
    }
    expect((await api().anonymous("POST", `/api/orders/${order.id}/pickups`, {})).statusCode).toBe(401);
    const stored = await readBack(client, order.id);
    expect([stored.status.name, stored.copay]).toEqual(["submitted_to_courier", "0.00"]);
  });

  it("documents the routes in OpenAPI", async () => {
    const doc = (await api().anonymous("GET", "/api/openapi.json")).json();
    expect(doc.paths["/api/orders/{id}"].put.requestBody).toBeDefined();
    expect(doc.paths["/api/orders/{id}/pickups"].post.responses["409"]).toBeDefined();
    expect(doc.paths["/api/courier/cancellation"].post.responses["200"]).toBeDefined();
  });
});
