import { and, eq, inArray } from "drizzle-orm";
import { expect, it } from "vitest";
import { auditEvents, orders, pharmacyVisits } from "../../server/db/schema.ts";
import type { ItineraryResponse } from "../../domain/contract/itinerary.ts";
import { pharmaciesOfDay, pickupRows } from "../../domain/pharmacy-list.ts";
import { TEST_DAY } from "../support/api-harness.ts";
import { describeOps, orderBody, pharmacyBody, type OpsContext } from "../support/ops-harness.ts";

const V1 = "/api/ops/v1";

interface Stop {
  kind: "pickup" | "delivery";
  pharmacy_id?: number;
  order_ids: number[];
  arrival: string;
  departure: string;
  window_start?: string;
  window_end?: string;
}
interface Plan {
  id: number;
  service_date: string;
  routes: { courier_id: number; stops: Stop[]; distance_km: number; driving_minutes: number }[];
  unassigned: { order_id: number; reason: string; message: string }[];
  couriers_used: number;
  distance_km: number;
  applied_at: string | null;
}

async function created(response: { statusCode: number; body: string; json(): unknown }, status = 201) {
  if (response.statusCode !== status) throw new Error(`${response.statusCode} ${response.body}`);
  return response.json() as Record<string, { id: number } & Record<string, unknown>>;
}

async function pharmacy(ctx: OpsContext, overrides: Record<string, unknown> = {}): Promise<number> {
  return (await created(await ctx.ops("POST", `${V1}/pharmacies`, pharmacyBody({ opening_time: "08:00", closing_time: "20:00", ...overrides })))).pharmacy!.id;
}

/** An order a little east of the pharmacy (about 0.01° of longitude per step). */
async function order(ctx: OpsContext, pharmacyId: number, externalId: string, step: number, overrides: Record<string, unknown> = {}): Promise<number> {
  const address = { street_address: `${step} Market St`, city: "Philadelphia", state_abbreviation: "PA", zipcode: "19106", latitude: 39.95, longitude: -75.14 + 0.01 * step };
  return (await created(await ctx.ops("POST", `${V1}/orders`, orderBody(pharmacyId, externalId, { address, ...overrides })))).order!.id;
}

const stopsOf = (plan: Plan) => plan.routes.flatMap((route) => route.stops.map((stop) => ({ ...stop, courier: route.courier_id })));
const OFFSET = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}[+-]\d{2}:\d{2}$/;

/**
 * Issue 28: two orders at one pharmacy and one at another, planned for a
 * courier who carries one order at a time: the plan returns to the first
 * pharmacy. Not applied.
 */
async function planThatReturns(ctx: OpsContext, prefix: string) {
  const first = await pharmacy(ctx, { name: "First Stop Pharmacy" });
  const second = await pharmacy(ctx, { name: "Second Stop Pharmacy", address: { ...pharmacyBody().address, latitude: 39.99, longitude: -75.2 } });
  const ids = [await order(ctx, first, `${prefix}-1`, 1), await order(ctx, first, `${prefix}-2`, 2), await order(ctx, second, `${prefix}-3`, 3)];
  const courier = await ctx.loginCourier("courier2@example.com");
  await ctx.ops("PATCH", `${V1}/couriers/${courier.courierId}`, { capacity: 1, start_location: null, end_location: null, shift_start: null, shift_end: null });
  const plan = (await created(await ctx.ops("POST", `${V1}/plans`, { service_date: TEST_DAY, courier_ids: [courier.courierId], order_ids: ids, time_limit_seconds: 1, seed: 1 }))).plan as unknown as Plan;
  return { first, second, ids, courier, plan, stops: stopsOf(plan) };
}

describeOps("ops API: couriers for the planner", (ctx) => {
  it("sets a courier's start, end, shift and capacity with PATCH, and clears them with null", async () => {
    const courier = await ctx().loginCourier("courier2@example.com");
    const patched = await ctx().ops("PATCH", `${V1}/couriers/${courier.courierId}`, {
      start_location: { latitude: 39.94, longitude: -75.15 },
      end_location: { latitude: 39.96, longitude: -75.16 },
      shift_start: "08:00",
      shift_end: "16:00",
      capacity: 12,
    });
    expect(patched.statusCode).toBe(200);
    expect(patched.json().courier).toMatchObject({
      id: courier.courierId,
      start_location: { latitude: 39.94, longitude: -75.15 },
      end_location: { latitude: 39.96, longitude: -75.16 },
      shift_start: "08:00",
      shift_end: "16:00",
      capacity: 12,
    });
    const listed = (await ctx().ops("GET", `${V1}/couriers`)).json().couriers.find((c: { id: number }) => c.id === courier.courierId);
    expect(listed).toMatchObject({ capacity: 12, shift_start: "08:00" });
    const cleared = await ctx().ops("PATCH", `${V1}/couriers/${courier.courierId}`, { end_location: null, capacity: null });
    expect(cleared.json().courier).toMatchObject({ end_location: null, capacity: null, start_location: { latitude: 39.94 } });
    const trail = await ctx().database.db.select().from(auditEvents).where(and(eq(auditEvents.action, "courier_updated"), eq(auditEvents.subject, `courier:${courier.courierId}`)));
    expect(trail).toHaveLength(2);
  });

  it.each([
    ["a shift that ends before it starts", { shift_start: "16:00", shift_end: "08:00" }, "body.shift_end"],
    ["a time that is not HH:MM", { shift_start: "8am", shift_end: "16:00" }, "body.shift_start"],
    ["a shift start alone", { shift_start: "08:00" }, "body.shift_end"],
    ["a capacity of 0", { capacity: 0 }, "body.capacity"],
    ["a latitude off the globe", { start_location: { latitude: 91, longitude: 0 } }, "body.start_location.latitude"],
    ["an empty body", {}, "body"],
  ])("refuses %s with 400 and the field", async (_what, body, path) => {
    const response = await ctx().ops("PATCH", `${V1}/couriers/1`, body);
    expect(response.statusCode).toBe(400);
    expect(JSON.stringify(response.json().details)).toContain(path);
  });

  it("is dispatch only, and 404 for an unknown courier", async () => {
    const pharmacyId = await pharmacy(ctx());
    const key = (await ctx().ops("POST", `${V1}/keys`, { role: "pharmacy", pharmacy_id: pharmacyId, name: "pms" })).json().key;
    expect((await ctx().ops("PATCH", `${V1}/couriers/1`, { capacity: 3 }, key)).statusCode).toBe(403);
    expect((await ctx().ops("PATCH", `${V1}/couriers/999999`, { capacity: 3 })).statusCode).toBe(404);
  });
});

describeOps("ops API: delivery windows and pharmacy hours", (ctx) => {
  it("keeps an order's delivery window, shows it to the courier, and checks a changed end against the other", async () => {
    const pharmacyId = await pharmacy(ctx());
    const response = await ctx().ops("POST", `${V1}/orders`, orderBody(pharmacyId, "W-1", { delivery_window_start: "14:00", delivery_window_end: "16:00" }));
    expect(response.statusCode).toBe(201);
    const id = response.json().order.id;
    expect(response.json().order).toMatchObject({ delivery_window_start: "14:00", delivery_window_end: "16:00" });

    const early = await ctx().ops("PATCH", `${V1}/orders/${id}`, { delivery_window_end: "13:00" });
    expect(early.statusCode).toBe(400);
    expect(early.json().details).toEqual([{ path: "body.delivery_window_end", message: "must be after delivery_window_start (14:00)" }]);
    const moved = await ctx().ops("PATCH", `${V1}/orders/${id}`, { delivery_window_end: "17:30" });
    expect(moved.json().order).toMatchObject({ delivery_window_start: "14:00", delivery_window_end: "17:30" });
    const cleared = await ctx().ops("PATCH", `${V1}/orders/${id}`, { delivery_window_start: null, delivery_window_end: null });
    expect(cleared.json().order).toMatchObject({ delivery_window_start: null, delivery_window_end: null });

    const courier = await ctx().loginCourier("courier2@example.com");
    await ctx().ops("PATCH", `${V1}/orders/${id}`, { delivery_window_start: "09:00", delivery_window_end: "11:00" });
    await ctx().ops("POST", `${V1}/assignments`, { courier_id: courier.courierId, service_date: TEST_DAY, order_ids: [id] });
    const day = (await ctx().raw("GET", "/api/courier/itinerary", undefined, { cookie: courier.cookie })).json();
    expect(day.orders.find((o: { id: number }) => o.id === id)).toMatchObject({ delivery_window_start: "09:00", delivery_window_end: "11:00", planned_position: null });
  });

  it.each([
    ["an end before the start", { delivery_window_start: "16:00", delivery_window_end: "14:00" }, "body.delivery_window_end"],
    ["an end equal to the start", { delivery_window_start: "16:00", delivery_window_end: "16:00" }, "body.delivery_window_end"],
    ["a start alone", { delivery_window_start: "16:00" }, "body.delivery_window_end"],
    ["an hour of 25", { delivery_window_start: "25:00", delivery_window_end: "26:00" }, "body.delivery_window_start"],
    ["a time without a leading zero", { delivery_window_start: "9:00", delivery_window_end: "11:00" }, "body.delivery_window_start"],
  ])("refuses an order with %s (400, the field named)", async (_what, window, path) => {
    const response = await ctx().ops("POST", `${V1}/orders`, orderBody(1, `bad-${path}-${JSON.stringify(window)}`, window));
    expect(response.statusCode).toBe(400);
    expect(response.json().details.map((d: { path: string }) => d.path)).toContain(path);
  });

  it("rejects a batch row with a bad window and creates the others", async () => {
    const response = await ctx().ops("POST", `${V1}/orders/batch`, {
      orders: [orderBody(1, "BW-1", { delivery_window_start: "10:00", delivery_window_end: "12:00" }), orderBody(1, "BW-2", { delivery_window_start: "12:00", delivery_window_end: "10:00" })],
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().results.map((r: { status: string }) => r.status)).toEqual(["created", "rejected"]);
    expect(response.json().results[1].errors).toEqual([{ path: "delivery_window_end", message: "must be after delivery_window_start (12:00)" }]);
  });

  it("keeps a pharmacy's opening hours and refuses a closing time before the opening", async () => {
    const response = await ctx().ops("POST", `${V1}/pharmacies`, pharmacyBody({ opening_time: "09:00", closing_time: "18:00" }));
    expect(response.json().pharmacy).toMatchObject({ opening_time: "09:00", closing_time: "18:00" });
    const id = response.json().pharmacy.id;
    const bad = await ctx().ops("PATCH", `${V1}/pharmacies/${id}`, { closing_time: "08:00" });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().details).toEqual([{ path: "body.closing_time", message: "must be after opening_time (09:00)" }]);
    expect((await ctx().ops("GET", `${V1}/pharmacies`)).json().pharmacies.find((p: { id: number }) => p.id === id)).toMatchObject({ closing_time: "18:00" });
    expect((await ctx().ops("POST", `${V1}/pharmacies`, pharmacyBody({ opening_time: "9", closing_time: "18:00" }))).statusCode).toBe(400);
  });
});

describeOps("ops API: plans", (ctx) => {
  it("plans, reads and applies a day: assignments, visits and events made, the itinerary in plan order", async () => {
    const pharmacyId = await pharmacy(ctx());
    const ids = [
      await order(ctx(), pharmacyId, "P-1", 1),
      await order(ctx(), pharmacyId, "P-2", 2, { delivery_window_start: "10:00", delivery_window_end: "12:00" }),
      await order(ctx(), pharmacyId, "P-3", 3),
    ];
    const lost = await order(ctx(), pharmacyId, "P-4", 4, { address: { street_address: "1 Nowhere Ln", city: "Philadelphia", state_abbreviation: "PA", zipcode: "19106" } });
    const courier = await ctx().loginCourier("courier@example.com");
    await ctx().ops("PATCH", `${V1}/couriers/${courier.courierId}`, { shift_start: "09:00", shift_end: "17:00", capacity: 10, start_location: { latitude: 39.95, longitude: -75.16 } });

    const response = await ctx().ops("POST", `${V1}/plans`, { service_date: TEST_DAY, courier_ids: [courier.courierId], order_ids: [...ids, lost], time_limit_seconds: 1, seed: 7 });
    expect(response.statusCode).toBe(201);
    const plan = response.json().plan as Plan;
    expect(plan).toMatchObject({ service_date: TEST_DAY, couriers_used: 1, applied_at: null });
    expect(plan.unassigned).toEqual([{ order_id: lost, reason: "no_coordinates", message: expect.stringContaining("no coordinates") }]);
    const stops = stopsOf(plan);
    for (const id of ids) {
      const pickup = stops.findIndex((stop) => stop.kind === "pickup" && stop.order_ids.includes(id));
      const delivery = stops.findIndex((stop) => stop.kind === "delivery" && stop.order_ids.includes(id));
      expect(pickup).toBeGreaterThanOrEqual(0);
      expect(delivery).toBeGreaterThan(pickup);
    }
    // The three pickups at one pharmacy, in a row, are one stop (one visit).
    expect(stops[0]).toMatchObject({ kind: "pickup", pharmacy_id: pharmacyId, window_start: "08:00", window_end: "20:00" });
    expect([...stops[0]!.order_ids].sort()).toEqual([...ids].sort());
    for (const stop of stops) {
      expect(stop.arrival).toMatch(OFFSET);
      expect(stop.arrival.endsWith("-05:00")).toBe(true);
      expect(Date.parse(stop.departure)).toBeGreaterThanOrEqual(Date.parse(stop.arrival));
      expect(Date.parse(stop.arrival)).toBeGreaterThanOrEqual(Date.parse(`${TEST_DAY}T09:00:00-05:00`));
    }
    const windowed = stops.find((stop) => stop.order_ids.includes(ids[1]!) && stop.kind === "delivery")!;
    expect(windowed).toMatchObject({ window_start: "10:00", window_end: "12:00" });
    expect(Date.parse(windowed.departure)).toBeGreaterThanOrEqual(Date.parse(`${TEST_DAY}T10:00:00-05:00`));
    expect(plan.routes[0]!.distance_km).toBeGreaterThan(0);
    expect(plan.distance_km).toBe(plan.routes[0]!.distance_km);

    // A proposal changes nothing.
    const before = await ctx().database.db.select().from(orders).where(inArray(orders.id, ids));
    expect(before.every((row) => row.courierId === null)).toBe(true);
    expect((await ctx().ops("GET", `${V1}/plans/${plan.id}`)).json().plan).toEqual(plan);

    const applied = await ctx().ops("POST", `${V1}/plans/${plan.id}/application`, {});
    expect(applied.statusCode).toBe(200);
    expect(applied.json().plan.applied_at).toEqual(expect.any(String));
    const after = await ctx().database.db.select().from(orders).where(inArray(orders.id, ids));
    expect(after.every((row) => row.courierId === courier.courierId)).toBe(true);
    const visits = await ctx().database.db.select().from(pharmacyVisits).where(and(eq(pharmacyVisits.courierId, courier.courierId), eq(pharmacyVisits.pharmacyId, pharmacyId)));
    expect(visits).toHaveLength(1);
    const events = await ctx().database.db.select().from(auditEvents).where(inArray(auditEvents.orderId, ids));
    expect(events.filter((event) => event.action === "order_assigned")).toHaveLength(3);
    expect(events.filter((event) => event.toStatus === "submitted_to_courier")).toHaveLength(3);
    const custody = (await ctx().ops("GET", `${V1}/orders/${ids[0]}/custody`)).json();
    expect(custody.custody.map((entry: { event: string }) => entry.event)).toContain("assigned");

    // The courier's phone follows the plan: deliveries in the plan's order.
    const day = (await ctx().raw("GET", "/api/courier/itinerary", undefined, { cookie: courier.cookie })).json();
    const planned = day.orders.filter((o: { id: number }) => ids.includes(o.id)) as { id: number; planned_position: number; planned_pickup_position: number }[];
    const byPosition = [...planned].sort((a, b) => a.planned_position - b.planned_position).map((o) => o.id);
    const planOrder = stops.filter((stop) => stop.kind === "delivery").flatMap((stop) => stop.order_ids);
    expect(byPosition).toEqual(planOrder);
    expect(planned.every((o) => o.planned_pickup_position === 1)).toBe(true);
    expect(day.orders.filter((o: { id: number; planned_position: number | null }) => !ids.includes(o.id)).every((o: { planned_position: number | null }) => o.planned_position === null)).toBe(true);

    const twice = await ctx().ops("POST", `${V1}/plans/${plan.id}/application`, {});
    expect(twice.statusCode).toBe(409);
    expect(twice.json()).toMatchObject({ error: "plan_already_applied" });
  });

  it("returns to a pharmacy when capacity says so: two pickup stops, not merged, and the courier's pharmacies in plan order", async () => {
    const { first, second, ids, courier, plan, stops } = await planThatReturns(ctx(), "R");
    // One order at a time: pickup, delivery, pickup, delivery, ...
    expect(stops.map((stop) => stop.kind)).toEqual(["pickup", "delivery", "pickup", "delivery", "pickup", "delivery"]);
    expect(stops.filter((stop) => stop.pharmacy_id === first)).toHaveLength(2);
    await created(await ctx().ops("POST", `${V1}/plans/${plan.id}/application`, {}), 200);

    const day = (await ctx().raw("GET", "/api/courier/itinerary", undefined, { cookie: courier.cookie })).json();
    const planned = (day.orders as { id: number; planned_pickup_position: number | null; planned_position: number | null }[]).filter((o) => ids.includes(o.id));
    for (const o of planned) {
      const pickup = stops.findIndex((stop) => stop.kind === "pickup" && stop.order_ids.includes(o.id)) + 1;
      expect(o).toMatchObject({ planned_pickup_position: pickup, planned_position: pickup + 1 });
    }
    const pickupOrder = [...new Set(stops.filter((stop) => stop.kind === "pickup").map((stop) => stop.pharmacy_id))];
    const visits = (day.pharmacy_visits as { pharmacy: { id: number } }[]).map((visit) => visit.pharmacy.id).filter((id) => id === first || id === second);
    expect(visits).toEqual(pickupOrder);
  });

  it("gives the courier's phone a plan that returns to a pharmacy as the plan says: one visit, each pickup listed in plan order, the return kept once the first is done", async () => {
    const { first, second, ids, courier, plan, stops } = await planThatReturns(ctx(), "T");
    await created(await ctx().ops("POST", `${V1}/plans/${plan.id}/application`, {}), 200);
    const mine = async () => {
      const day = (await ctx().raw("GET", "/api/courier/itinerary", undefined, { cookie: courier.cookie })).json() as ItineraryResponse;
      return { visits: day.pharmacy_visits.filter((visit) => [first, second].includes(visit.pharmacy.id)), orders: day.orders.filter((o) => ids.includes(o.id)) };
    };
    // The plan's pickups in its order, and which of its pharmacy's pickups each is (null: the only one).
    const pickups = stops.flatMap((stop, index) => (stop.kind === "pickup" ? [{ pharmacy: stop.pharmacy_id!, place: index + 1, orders: stop.order_ids }] : []));
    const nth = (pickup: (typeof pickups)[number]) => {
      const there = pickups.filter((other) => other.pharmacy === pickup.pharmacy);
      return there.length > 1 ? there.indexOf(pickup) + 1 : null;
    };
    // What the app lists from the itinerary (domain/pharmacy-list.ts): [pharmacy, count, nth pickup there].
    const listed = (day: Awaited<ReturnType<typeof mine>>) =>
      pickupRows(pharmaciesOfDay(day.visits, day.orders), day.orders).map((row) => [row.pharmacy.id, row.awaiting, row.stop?.nth ?? null]);

    let day = await mine();
    // One visit a pharmacy, however often the plan comes back: it is confirmed and checked in once.
    expect(day.visits.map((visit) => visit.pharmacy.id).sort()).toEqual([first, second].sort());
    for (const pickup of pickups) for (const id of pickup.orders) expect(day.orders.find((o) => o.id === id)).toMatchObject({ planned_pickup_position: pickup.place });
    expect(new Set(day.orders.filter((o) => o.pharmacy.id === first).map((o) => o.planned_pickup_position)).size).toBe(2);
    expect(listed(day)).toEqual(pickups.map((pickup) => [pickup.pharmacy, pickup.orders.length, nth(pickup)]));

    // The first pickup made: it leaves the list, the rest keep the plan's order and names, the visits follow the next pickups.
    for (const id of pickups[0]!.orders) {
      const picked = await ctx().raw("PUT", `/api/orders/${id}`, { order: { status_id: 3 } }, { cookie: courier.cookie, "x-csrf-token": courier.csrf });
      expect(picked.statusCode, picked.body).toBe(200);
    }
    day = await mine();
    const rest = pickups.slice(1);
    expect(listed(day)).toEqual(rest.map((pickup) => [pickup.pharmacy, pickup.orders.length, nth(pickup)]));
    const next = [...new Set(rest.map((pickup) => pickup.pharmacy))];
    expect(day.visits.map((visit) => visit.pharmacy.id)).toEqual([...next, ...[first, second].filter((id) => !next.includes(id))]);
  });

  it("refuses to apply a plan whose order changed since, naming the change, and assigns nothing", async () => {
    const pharmacyId = await pharmacy(ctx());
    const ids = [await order(ctx(), pharmacyId, "C-1", 1), await order(ctx(), pharmacyId, "C-2", 2)];
    const courier = await ctx().loginCourier("courier2@example.com");
    const plan = (await ctx().ops("POST", `${V1}/plans`, { service_date: TEST_DAY, courier_ids: [courier.courierId], order_ids: ids, time_limit_seconds: 1 })).json().plan as Plan;
    expect(plan.routes).toHaveLength(1);
    await ctx().ops("PATCH", `${V1}/orders/${ids[1]}`, { delivery_window_start: "15:00", delivery_window_end: "16:00" });
    const refused = await ctx().ops("POST", `${V1}/plans/${plan.id}/application`, {});
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toContain(`Order ${ids[1]} changed since plan ${plan.id} was made (its delivery window)`);
    const rows = await ctx().database.db.select().from(orders).where(inArray(orders.id, ids));
    expect(rows.every((row) => row.courierId === null)).toBe(true);

    const other = (await ctx().ops("POST", `${V1}/plans`, { service_date: TEST_DAY, courier_ids: [courier.courierId], order_ids: ids, time_limit_seconds: 1 })).json().plan as Plan;
    await ctx().ops("POST", `${V1}/assignments`, { courier_id: 1, service_date: TEST_DAY, order_ids: [ids[0]] });
    const assigned = await ctx().ops("POST", `${V1}/plans/${other.id}/application`, {});
    expect(assigned.statusCode).toBe(409);
    expect(assigned.json().message).toContain("its status, assignment");
  });

  it("plans every unassigned order of the day by default, leaving assigned ones out, and says why one cannot be served", async () => {
    const day = "2026-11-23";
    const pharmacyId = await pharmacy(ctx(), { opening_time: "09:00", closing_time: "17:00" });
    const free = await order(ctx(), pharmacyId, "D-1", 1, { service_date: day });
    const early = await order(ctx(), pharmacyId, "D-2", 2, { service_date: day, delivery_window_start: "06:00", delivery_window_end: "07:00" });
    const taken = await order(ctx(), pharmacyId, "D-3", 3, { service_date: day });
    await ctx().ops("POST", `${V1}/assignments`, { courier_id: 1, service_date: day, order_ids: [taken] });
    const response = await ctx().ops("POST", `${V1}/plans`, { service_date: day, courier_ids: [1, 2] });
    expect(response.statusCode).toBe(201);
    const plan = response.json().plan as Plan;
    const planned = stopsOf(plan).flatMap((stop) => stop.order_ids);
    expect(planned).toContain(free);
    expect(planned).not.toContain(taken);
    expect(plan.unassigned).toEqual([{ order_id: early, reason: "window", message: expect.stringContaining("06:00–07:00") }]);
    expect(plan.couriers_used).toBe(1);
  });

  it.each([
    ["time_limit_seconds 61", { time_limit_seconds: 61 }, "body.time_limit_seconds"],
    ["an unknown courier", { courier_ids: [999999] }, "body.courier_ids.0"],
    ["no courier", { courier_ids: [] }, "body.courier_ids"],
    ["a seed that is not whole", { seed: 1.5 }, "body.seed"],
    ["a bad date", { service_date: "2026-02-30" }, "body.service_date"],
    ["an unknown order", { order_ids: [999999] }, "body.order_ids.0"],
  ])("refuses %s with 400", async (_what, overrides, path) => {
    const response = await ctx().ops("POST", `${V1}/plans`, { service_date: TEST_DAY, courier_ids: [1], ...overrides });
    expect(response.statusCode).toBe(400);
    expect(response.json().details.map((d: { path: string }) => d.path)).toContain(path);
  });

  it("is dispatch only: a pharmacy key is 403 on every plan route; an unknown plan is 404", async () => {
    const pharmacyId = await pharmacy(ctx());
    const key = (await ctx().ops("POST", `${V1}/keys`, { role: "pharmacy", pharmacy_id: pharmacyId, name: "pms" })).json().key;
    expect((await ctx().ops("POST", `${V1}/plans`, { service_date: TEST_DAY, courier_ids: [1] }, key)).statusCode).toBe(403);
    expect((await ctx().ops("GET", `${V1}/plans/1`, undefined, key)).statusCode).toBe(403);
    expect((await ctx().ops("POST", `${V1}/plans/1/application`, {}, key)).statusCode).toBe(403);
    expect((await ctx().ops("GET", `${V1}/plans/999999`)).statusCode).toBe(404);
    expect((await ctx().ops("POST", `${V1}/plans/999999/application`, {})).statusCode).toBe(404);
  });
});
