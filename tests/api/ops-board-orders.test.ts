import { eq } from "drizzle-orm";
import { expect, it } from "vitest";
import { OrderListResponse } from "../../domain/contract/ops.ts";
import { couriers, payments, pharmacies, plannedStops, plans } from "../../server/db/schema.ts";
import { TEST_DAY } from "../support/api-harness.ts";
import { describeOps } from "../support/ops-harness.ts";
import { freshOrder, freshPharmacy } from "../support/security-fixtures.ts";
import { newStaffSession } from "../support/staff-harness.ts";

/**
 * Issue 27, the day board's reads: each ops order names the courier carrying
 * it (a pharmacist's console has no courier list), its place in that courier's
 * applied plan (the driving order), its last card payment's state and its
 * pharmacy's closing time ('Needs attention'); and the staff session says the
 * service's time zone (the console's today).
 */
describeOps("the day board's order fields (/api/ops/v1/orders)", (ctx) => {
  it("names the courier carrying each order, with its plan place, card payment state and pharmacy closing time; a pharmacist sees only its own", async () => {
    const c = ctx();
    const db = c.database.db;
    const courier = await c.loginCourier("courier@example.com");
    const [carrier] = await db.select().from(couriers).where(eq(couriers.id, courier.courierId));
    const own = await freshPharmacy(db, courier.courierId, "Board Pharmacy");
    const other = await freshPharmacy(db, courier.courierId, "Other Board Pharmacy");
    await db.update(pharmacies).set({ closingTime: "18:00" }).where(eq(pharmacies.id, own));
    const planned = await freshOrder(db, { courierId: courier.courierId, pharmacyId: own, status: "submitted_to_courier" });
    const declined = await freshOrder(db, { courierId: courier.courierId, pharmacyId: own, status: "picked_up" });
    const waiting = await freshOrder(db, { courierId: null, pharmacyId: own, status: "new" });
    const elsewhere = await freshOrder(db, { courierId: courier.courierId, pharmacyId: other, status: "submitted_to_courier" });

    const [plan] = await db.insert(plans).values({ serviceDate: TEST_DAY, courierIds: [courier.courierId], result: {}, snapshot: {}, appliedAt: new Date() }).returning();
    await db.insert(plannedStops).values([{ orderId: planned, planId: plan!.id, courierId: courier.courierId, deliveryPosition: 4, pickupPosition: 1 }]);
    await db.insert(payments).values([
      { orderId: declined, courierId: courier.courierId, paymentType: "card", gateway: "sandbox", status: "authorized", amountCents: 500 },
      { orderId: declined, courierId: courier.courierId, paymentType: "card", gateway: "sandbox", status: "declined", amountCents: 500 },
    ]);

    const pharmacist = await newStaffSession(c, "pharmacist", own);
    const answer = await c.raw("GET", `/api/ops/v1/orders?service_date=${TEST_DAY}&limit=200`, undefined, { cookie: pharmacist.cookie });
    expect(answer.statusCode, answer.body).toBe(200);
    const listed = OrderListResponse.parse(answer.json()).orders;
    const byId = new Map(listed.map((order) => [order.id, order]));
    expect(listed.every((order) => order.pharmacy.id === own)).toBe(true);
    expect(byId.has(elsewhere)).toBe(false);
    const name = { id: carrier!.id, first_name: carrier!.firstName, last_name: carrier!.lastName };
    expect(byId.get(planned)).toMatchObject({ courier: name, planned_position: 4, card_payment_status: null, pharmacy: { closing_time: "18:00" } });
    // The last attempt counts: declined after an earlier authorization.
    expect(byId.get(declined)).toMatchObject({ courier: name, planned_position: null, card_payment_status: "declined" });
    expect(byId.get(waiting)).toMatchObject({ courier: null, courier_id: null, planned_position: null });

    // A plan place is the courier's: once the order is another courier's, the old plan says nothing.
    const [someoneElse] = await db.insert(couriers).values({ email: `board-${Date.now()}@example.com`, firstName: "Sam", lastName: "Okafor" }).returning();
    const moved = await c.ops("POST", "/api/ops/v1/assignments", { courier_id: someoneElse!.id, service_date: TEST_DAY, order_ids: [planned] });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(moved.json().orders[0]).toMatchObject({ courier: { id: someoneElse!.id, first_name: "Sam", last_name: "Okafor" }, planned_position: null });
  });

  it("refuses to move a picked-up order in the words the console repeats", async () => {
    const c = ctx();
    const db = c.database.db;
    const courier = await c.loginCourier("courier@example.com");
    const own = await freshPharmacy(db, courier.courierId, "Board Refusal Pharmacy");
    const pickedUp = await freshOrder(db, { courierId: courier.courierId, pharmacyId: own, status: "picked_up" });
    const dispatcher = await newStaffSession(c, "dispatcher");
    const refused = await c.raw("POST", "/api/ops/v1/assignments", { courier_id: courier.courierId, service_date: TEST_DAY, order_ids: [pickedUp] }, dispatcher.headers);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe(`Order ${pickedUp} is picked up: only an order not yet picked up can be assigned.`);
  });
});
