import { and, eq, isNotNull } from "drizzle-orm";
import { expect, it } from "vitest";
import { ItineraryResponse } from "../../domain/contract/itinerary.ts";
import { AddonsResponse } from "../../domain/contract/pickup.ts";
import { auditEvents, pharmacyVisits } from "../../server/db/schema.ts";
import { describeApi, TEST_DAY, type ApiClient, type ApiContext } from "../support/api-harness.ts";

async function day(client: ApiClient) {
  return ItineraryResponse.parse((await client.get("/api/courier/itinerary")).json());
}

async function pharmacyId(client: ApiClient, name: string) {
  const visit = (await day(client)).pharmacy_visits.find((v) => v.pharmacy.name === name);
  if (!visit) throw new Error(`no visit at ${name}`);
  return visit.pharmacy.id;
}

const NORTHSIDE = "Northside Family Drugs";

async function offered(client: ApiClient, pharmacy: number) {
  const response = await client.get(`/api/courier/pharmacies/${pharmacy}/addons`);
  expect(response.statusCode).toBe(200);
  return AddonsResponse.parse(response.json()).orders;
}

/** The add-on on offer for a patient, by last name. */
async function addonOf(client: ApiClient, pharmacy: number, last: string) {
  const order = (await offered(client, pharmacy)).find((o) => o.patient_last_name === last);
  if (!order) throw new Error(`${last} is not on offer`);
  return order;
}

const take = (client: ApiClient, pharmacy: number, choices: { id: number; copay: string }[], window: number | null = 9100) =>
  client.post(`/api/courier/pharmacies/${pharmacy}/addons`, { orders: choices, service_window_instance_id: window });

describeApi("add-on orders", (api) => {
  it("lists today's add-ons on offer at a pharmacy the courier visits, by patient last name", async () => {
    const client = await api().login();
    const northside = await pharmacyId(client, NORTHSIDE);
    const orders = await offered(client, northside);
    expect(orders.map((o) => o.patient_last_name)).toEqual(["Lambert", "Lopez", "Moore", "Reed"]);
    expect(orders.every((o) => o.pharmacy.id === northside && o.addedOn === false)).toBe(true);
    const mine = new Set((await day(client)).orders.map((o) => o.id));
    expect(orders.some((o) => mine.has(o.id))).toBe(false);
    const riverside = await pharmacyId(client, "Riverside Community Pharmacy");
    expect(await offered(client, riverside)).toEqual([]);
  });

  it("a pharmacy the courier has no visit at today is 404, for listing and taking", async () => {
    const dana = await api().login();
    const marcus = await api().login("courier2@example.com");
    const northside = await pharmacyId(dana, NORTHSIDE);
    const lambert = await addonOf(dana, northside, "Lambert");
    for (const response of [
      await marcus.get(`/api/courier/pharmacies/${northside}/addons`),
      await take(marcus, northside, [{ id: lambert.id, copay: "5.00" }]),
      await dana.get("/api/courier/pharmacies/999999/addons"),
      await take(dana, 999999, [{ id: lambert.id, copay: "5.00" }]),
    ]) {
      expect(response.statusCode).toBe(404);
      expect(response.json().error).toBe("not_found");
    }
    expect((await dana.get("/api/courier/pharmacies/abc/addons")).statusCode).toBe(400);
    expect((await offered(dana, northside)).map((o) => o.id)).toContain(lambert.id);
  });

  it("only add-ons of that pharmacy can be taken: any other order is 404", async () => {
    const client = await api().login();
    const northside = await pharmacyId(client, NORTHSIDE);
    const riverside = await pharmacyId(client, "Riverside Community Pharmacy");
    const ownOrder = (await day(client)).orders.find((o) => o.pharmacy.id === northside)!;
    const lambert = await addonOf(client, northside, "Lambert");
    const own = await take(client, northside, [{ id: ownOrder.id, copay: "5.00" }]);
    expect(own.statusCode).toBe(404);
    expect(own.json().message).toBe(`Add-on order ${ownOrder.id} was not found.`);
    expect((await take(client, riverside, [{ id: lambert.id, copay: "5.00" }])).statusCode).toBe(404);
    expect((await take(client, northside, [{ id: 999999, copay: "5.00" }])).statusCode).toBe(404);
  });

  it("refuses malformed or wrongly typed bodies and bad copays with 400, taking nothing", async () => {
    const client = await api().login();
    const northside = await pharmacyId(client, NORTHSIDE);
    const lambert = await addonOf(client, northside, "Lambert");
    const bodies: unknown[] = [
      {},
      { orders: [], service_window_instance_id: 9100 },
      { orders: [{ id: lambert.id, copay: "5.00" }] },
      { orders: [{ id: String(lambert.id), copay: "5.00" }], service_window_instance_id: 9100 },
      { orders: [{ id: lambert.id, copay: 5 }], service_window_instance_id: 9100 },
      { orders: [{ id: lambert.id, copay: "5.00" }], service_window_instance_id: "9100" },
      { orders: [{ id: lambert.id, copay: "5.00" }, { id: lambert.id, copay: "6.00" }], service_window_instance_id: 9100 },
      { orders: { id: lambert.id, copay: "5.00" }, service_window_instance_id: 9100 },
      { orders: [{ id: lambert.id, copay: "5" }], service_window_instance_id: 9100 },
      { orders: [{ id: lambert.id, copay: "0.50" }], service_window_instance_id: 9100 },
      { orders: Array.from({ length: 21 }, (_, i) => ({ id: i + 1, copay: "5.00" })), service_window_instance_id: 9100 },
    ];
    for (const body of bodies) {
      const response = await client.post(`/api/courier/pharmacies/${northside}/addons`, body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(response.json().error).toBe("invalid_request");
    }
    const lowCopay = await take(client, northside, [{ id: lambert.id, copay: "0.50" }]);
    expect(lowCopay.json().message).toBe(`The copay for order ${lambert.id} must be at least $1.00, or 0.00 for no copay.`);
    const malformed = await client.request("POST", `/api/courier/pharmacies/${northside}/addons`, "[{");
    expect(malformed.statusCode).toBe(400);
    expect((await offered(client, northside))).toHaveLength(4);
  });

  it("needs the CSRF token", async () => {
    const client = await api().login();
    const northside = await pharmacyId(client, NORTHSIDE);
    const lambert = await addonOf(client, northside, "Lambert");
    const response = await client.post(
      `/api/courier/pharmacies/${northside}/addons`,
      { orders: [{ id: lambert.id, copay: "5.00" }], service_window_instance_id: 9100 },
      { csrf: false },
    );
    expect(response.statusCode).toBe(403);
    expect((await offered(client, northside))).toHaveLength(4);
  });

  it("takes add-ons picked up with their copays and addedOn, at most 3 in total ('Max addon count reached')", async () => {
    const client = await api().login();
    const northside = await pharmacyId(client, NORTHSIDE);
    const [lambert, lopez, moore, reed] = await offered(client, northside);

    const first = await take(client, northside, [{ id: lambert!.id, copay: "5.00" }, { id: lopez!.id, copay: "0.00" }]);
    expect(first.statusCode).toBe(200);
    const taken = AddonsResponse.parse(first.json()).orders;
    expect(taken.map((o) => [o.id, o.status.name, o.copay, o.addedOn, o.service_window_instance_id])).toEqual([
      [lambert!.id, "picked_up", "5.00", true, 9100],
      [lopez!.id, "picked_up", "0.00", true, 9100],
    ]);

    // Read back: on the courier's day, off the offer, with the lifecycle in the audit trail.
    const mine = (await day(client)).orders.filter((o) => o.addedOn);
    expect(mine.map((o) => [o.id, o.status.name, o.copay])).toEqual([
      [lambert!.id, "picked_up", "5.00"],
      [lopez!.id, "picked_up", "0.00"],
    ]);
    expect((await offered(client, northside)).map((o) => o.id)).toEqual([moore!.id, reed!.id]);
    const audit = await api()
      .database.db.select()
      .from(auditEvents)
      // The courier's own changes; dispatch put it on offer before (the demo day's key, issue 15).
      .where(and(eq(auditEvents.orderId, lambert!.id), eq(auditEvents.action, "status_change"), isNotNull(auditEvents.courierId)));
    expect(audit.map((a) => [a.fromStatus, a.toStatus, a.courierId])).toEqual([["submitted_to_courier", "picked_up", client.courierId]]);

    const tooMany = await take(client, northside, [{ id: moore!.id, copay: "12.00" }, { id: reed!.id, copay: "0.00" }]);
    expect(tooMany.statusCode).toBe(409);
    expect(tooMany.json()).toEqual({ error: "conflict", message: "Max addon count reached" });
    expect((await offered(client, northside)).map((o) => o.id)).toEqual([moore!.id, reed!.id]);

    expect((await take(client, northside, [{ id: moore!.id, copay: "12.00" }])).statusCode).toBe(200);
    const fourth = await take(client, northside, [{ id: reed!.id, copay: "0.00" }]);
    expect(fourth.statusCode).toBe(409);
    expect(fourth.json().message).toBe("Max addon count reached");
    expect((await day(client)).orders.filter((o) => o.addedOn)).toHaveLength(3);
    expect((await offered(client, northside)).map((o) => o.id)).toEqual([reed!.id]);

    const again = await take(client, northside, [{ id: lambert!.id, copay: "5.00" }]);
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe(`Order ${lambert!.id} is already on your list.`);
  });
});

async function visitNorthside(ctx: ApiContext, courierId: number, pharmacy: number) {
  await ctx.database.db.insert(pharmacyVisits).values({ courierId, pharmacyId: pharmacy, serviceDate: TEST_DAY, confirmed: true });
}

describeApi("add-on orders taken at the same moment", (api) => {
  it("four in one request is over the limit: 409 and nothing taken", async () => {
    const client = await api().login();
    const northside = await pharmacyId(client, NORTHSIDE);
    const all = await offered(client, northside);
    const response = await take(client, northside, all.map((o) => ({ id: o.id, copay: "0.00" })));
    expect(response.statusCode).toBe(409);
    expect(response.json().message).toBe("Max addon count reached");
    expect(await offered(client, northside)).toHaveLength(4);
  });

  it("two couriers racing for one add-on: one gets it, the other 409", async () => {
    const dana = await api().login();
    const marcus = await api().login("courier2@example.com");
    const northside = await pharmacyId(dana, NORTHSIDE);
    await visitNorthside(api(), marcus.courierId, northside);
    const lambert = await addonOf(dana, northside, "Lambert");

    const responses = await Promise.all([
      take(dana, northside, [{ id: lambert.id, copay: "5.00" }]),
      take(marcus, northside, [{ id: lambert.id, copay: "6.00" }]),
    ]);
    expect(responses.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    const loser = responses.find((r) => r.statusCode === 409)!;
    expect(loser.json().message).toBe(`Order ${lambert.id} has already been taken by another courier.`);

    const winner = responses[0]!.statusCode === 200 ? dana : marcus;
    const other = winner === dana ? marcus : dana;
    expect((await day(winner)).orders.filter((o) => o.id === lambert.id)).toHaveLength(1);
    expect((await day(other)).orders.filter((o) => o.id === lambert.id)).toHaveLength(0);
  });

  it("one courier sending two requests at once cannot pass the limit", async () => {
    const dana = await api().login();
    const marcus = await api().login("courier2@example.com");
    const northside = await pharmacyId(dana, NORTHSIDE);
    // Whoever won the race holds one add-on; the three left would make four.
    const holder = (await day(dana)).orders.some((o) => o.addedOn) ? dana : marcus;
    const [lopez, moore, reed] = await offered(dana, northside);
    const responses = await Promise.all([
      take(holder, northside, [{ id: lopez!.id, copay: "0.00" }, { id: moore!.id, copay: "0.00" }]),
      take(holder, northside, [{ id: reed!.id, copay: "0.00" }]),
    ]);
    expect(responses.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    expect(responses.find((r) => r.statusCode === 409)!.json().message).toBe("Max addon count reached");
    const granted = responses[0]!.statusCode === 200 ? 2 : 1;
    expect((await day(holder)).orders.filter((o) => o.addedOn)).toHaveLength(1 + granted);
  });
});
