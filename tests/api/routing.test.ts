import { eq, inArray } from "drizzle-orm";
import { expect, it } from "vitest";
import { ItineraryResponse } from "../../domain/contract/itinerary.ts";
import { RoutedOrdersResponse } from "../../domain/contract/routing.ts";
import type { Order } from "../../domain/contract/entities.ts";
import { statusByName } from "../../domain/vocabulary.ts";
import { orders as ordersTable, pharmacies as pharmaciesTable } from "../../server/db/schema.ts";
import { haversineMeters, type LatLng } from "../../server/services/routing/distance.ts";
import { describeApi, type ApiClient } from "../support/api-harness.ts";

async function dayOf(client: ApiClient): Promise<ItineraryResponse> {
  return ItineraryResponse.parse((await client.get("/api/courier/itinerary")).json());
}

function pharmacyOrders(day: ItineraryResponse, name: string): { pharmacyId: number; orders: Order[] } {
  const orders = day.orders.filter((order) => order.pharmacy.name === name);
  const pharmacyId = orders[0]?.pharmacy.id;
  if (pharmacyId === undefined) throw new Error(`no orders at ${name}`);
  return { pharmacyId, orders };
}

const query = (pharmacyId: number, ids: number[]) =>
  `/api/routed_orders?pharmacy_id=${pharmacyId}&${ids.map((id) => `order_ids[]=${id}`).join("&")}`;

const point = (address: { latitude: number | null; longitude: number | null }): LatLng => ({
  latitude: address.latitude!,
  longitude: address.longitude!,
});

/** Every driving order of the stops, by brute force: the shortest open path from the pharmacy. */
function shortestByBruteForce(origin: LatLng, stops: Order[]): number {
  let best = Infinity;
  const visit = (from: LatLng, left: Order[], sofar: number) => {
    if (left.length === 0) best = Math.min(best, sofar);
    for (const next of left) {
      visit(point(next.address), left.filter((o) => o !== next), sofar + haversineMeters(from, point(next.address)));
    }
  };
  visit(origin, stops, 0);
  return best;
}

function pathLength(origin: LatLng, route: Order[]): number {
  let total = 0;
  let from = origin;
  for (const order of route) {
    total += haversineMeters(from, point(order.address));
    from = point(order.address);
  }
  return total;
}

describeApi("GET /api/routed_orders", (api) => {
  it("routes the demo Greenway deliveries (picked up, routing on) along the shortest path from the pharmacy", async () => {
    const client = await api().login();
    const { pharmacyId, orders } = pharmacyOrders(await dayOf(client), "Greenway Health Pharmacy");
    expect(orders).toHaveLength(4);
    expect(orders.every((order) => order.status.name === "picked_up" && order.pharmacy.routing_enabled)).toBe(true);

    const response = await client.get(query(pharmacyId, orders.map((order) => order.id)));
    expect(response.statusCode).toBe(200);
    const routed = RoutedOrdersResponse.parse(response.json()).orders;
    expect(routed.map((order) => order.id).sort()).toEqual(orders.map((order) => order.id).sort());
    expect(routed.every((order) => order.pharmacy.id === pharmacyId && order.status.name === "picked_up")).toBe(true);
    // The full Order shape, money as strings: the list can replace its copy with these.
    expect(routed[0]).toEqual(orders.find((order) => order.id === routed[0]!.id));

    const pharmacy = point(orders[0]!.pharmacy.address);
    expect(pathLength(pharmacy, routed)).toBeCloseTo(shortestByBruteForce(pharmacy, orders), 6);
  });

  it("reads order_ids[] repeated, order_ids repeated and comma-separated the same way, any input order, repeats once", async () => {
    const client = await api().login();
    const { pharmacyId, orders } = pharmacyOrders(await dayOf(client), "Greenway Health Pharmacy");
    const ids = orders.map((order) => order.id);
    const reference = (await client.get(query(pharmacyId, ids))).json();
    const forms = [
      `/api/routed_orders?pharmacy_id=${pharmacyId}&${ids.map((id) => `order_ids=${id}`).join("&")}`,
      `/api/routed_orders?pharmacy_id=${pharmacyId}&order_ids=${ids.join(",")}`,
      `/api/routed_orders?pharmacy_id=${pharmacyId}&order_ids%5B%5D=${[...ids].reverse().join("%2C")}`,
      `${query(pharmacyId, [...ids, ids[0]!])}`,
    ];
    for (const url of forms) {
      const response = await client.get(url);
      expect(response.statusCode, url).toBe(200);
      expect(response.json(), url).toEqual(reference);
    }
  });

  it("refuses a pharmacy that does not use routing with 409 and a clear message", async () => {
    const client = await api().login();
    const { pharmacyId, orders } = pharmacyOrders(await dayOf(client), "Market Street Apothecary");
    expect(orders[0]!.pharmacy.routing_enabled).toBe(false);
    const response = await client.get(query(pharmacyId, orders.map((order) => order.id)));
    expect(response.statusCode).toBe(409);
    expect(response.json()).toEqual({
      error: "conflict",
      message: "Market Street Apothecary does not use routing: deliver its orders in the listed order.",
    });
  });

  it("answers another courier's order exactly as a missing one: 404", async () => {
    const dana = await api().login();
    const marcus = await api().login("courier2@example.com");
    const greenway = pharmacyOrders(await dayOf(dana), "Greenway Health Pharmacy");
    const marcusRiverside = pharmacyOrders(await dayOf(marcus), "Riverside Community Pharmacy");

    const stolen = await marcus.get(query(greenway.pharmacyId, greenway.orders.map((order) => order.id)));
    expect(stolen.statusCode).toBe(404);
    // Greenway is not in Marcus's day: it answers as an unknown pharmacy would (finding 8).
    expect(stolen.json()).toEqual({ error: "not_found", message: `Pharmacy ${greenway.pharmacyId} was not found.` });

    const mixed = await dana.get(query(marcusRiverside.pharmacyId, [marcusRiverside.orders[0]!.id]));
    const missing = await dana.get(query(marcusRiverside.pharmacyId, [2_000_000_000]));
    expect(mixed.statusCode).toBe(404);
    expect(missing.statusCode).toBe(404);
    expect(mixed.json().message).toBe(`Order ${marcusRiverside.orders[0]!.id} was not found.`);
    expect(missing.json().message).toBe("Order 2000000000 was not found.");
  });

  it("refuses the courier's own order from another pharmacy's list with 404", async () => {
    const client = await api().login();
    const day = await dayOf(client);
    const greenway = pharmacyOrders(day, "Greenway Health Pharmacy");
    const riverside = pharmacyOrders(day, "Riverside Community Pharmacy");
    const response = await client.get(query(greenway.pharmacyId, [greenway.orders[0]!.id, riverside.orders[0]!.id]));
    expect(response.statusCode).toBe(404);
    expect(response.json().message).toBe(`Order ${riverside.orders[0]!.id} is not on today's list for Greenway Health Pharmacy.`);
  });

  it("refuses more than 150 orders with 400 before looking any up", async () => {
    const client = await api().login();
    const { pharmacyId } = pharmacyOrders(await dayOf(client), "Greenway Health Pharmacy");
    const ids = Array.from({ length: 151 }, (_, i) => 1_000_000 + i);
    const response = await client.get(`/api/routed_orders?pharmacy_id=${pharmacyId}&order_ids=${ids.join(",")}`);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ error: "invalid_request" });
    expect(response.json().message).toContain("at most 150 orders");
  });

  it("answers malformed queries with 400 naming the parameter, never a 500", async () => {
    const client = await api().login();
    const cases: [string, string][] = [
      ["/api/routed_orders?order_ids[]=1", "pharmacy_id"],
      ["/api/routed_orders?pharmacy_id=abc&order_ids[]=1", "pharmacy_id"],
      ["/api/routed_orders?pharmacy_id=0&order_ids[]=1", "pharmacy_id"],
      ["/api/routed_orders?pharmacy_id=99999999999999999999&order_ids[]=1", "pharmacy_id"],
      ["/api/routed_orders?pharmacy_id=3", "order_ids"],
      ["/api/routed_orders?pharmacy_id=3&order_ids[]=", "order_ids"],
      ["/api/routed_orders?pharmacy_id=3&order_ids[]=1.5", "order_ids"],
      ["/api/routed_orders?pharmacy_id=3&order_ids=1,,2", "order_ids"],
      ["/api/routed_orders?pharmacy_id=3&order_ids[]=-4", "order_ids"],
      ["/api/routed_orders?pharmacy_id=3&order_ids[]=2147483648", "order_ids"],
    ];
    for (const [url, parameter] of cases) {
      const response = await client.get(url);
      expect(response.statusCode, url).toBe(400);
      expect(response.json().error, url).toBe("invalid_request");
      expect(response.json().message, url).toContain(parameter);
    }
  });

  it("finding 8: a pharmacy not in the courier's day answers exactly as an unknown one, whatever its routing setting", async () => {
    const client = await api().login();
    const day = await dayOf(client);
    const mine = new Set(day.orders.map((order) => order.pharmacy.id));
    // Every demo pharmacy is in Dana's day: another one that exists, with none of her orders.
    const [template] = await api().database.db.select().from(pharmaciesTable).where(inArray(pharmaciesTable.id, [...mine])).limit(1);
    const { id: _id, ...fields } = template!;
    const [other] = await api()
      .database.db.insert(pharmaciesTable)
      .values({ ...fields, name: "Not In Dana's Day Pharmacy" })
      .returning({ id: pharmaciesTable.id, routingEnabled: pharmaciesTable.routingEnabled });
    for (const routingEnabled of [false, true]) {
      await api().database.db.update(pharmaciesTable).set({ routingEnabled }).where(eq(pharmaciesTable.id, other!.id));
      const probed = await client.get(query(other!.id, [day.orders[0]!.id]));
      expect(probed.statusCode).toBe(404);
      expect(probed.json()).toEqual({ error: "not_found", message: `Pharmacy ${other!.id} was not found.` });
    }
    await api().database.db.update(pharmaciesTable).set({ routingEnabled: other!.routingEnabled }).where(eq(pharmaciesTable.id, other!.id));
  });

  it("answers an unknown pharmacy with 404 and a logged-out caller with 401", async () => {
    const client = await api().login();
    const unknown = await client.get("/api/routed_orders?pharmacy_id=987654&order_ids[]=1");
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ error: "not_found", message: "Pharmacy 987654 was not found." });
    expect((await api().anonymous("GET", "/api/routed_orders?pharmacy_id=1&order_ids[]=1")).statusCode).toBe(401);
  });

  it("leaves out orders no longer to deliver and puts orders without coordinates last", async () => {
    const client = await api().login();
    const { pharmacyId, orders } = pharmacyOrders(await dayOf(client), "Greenway Health Pharmacy");
    const [delivered, unplaced, ...rest] = orders;
    const db = api().database.db;
    await db.update(ordersTable).set({ statusId: statusByName("delivered").id }).where(eq(ordersTable.id, delivered!.id));
    await db.update(ordersTable).set({ latitude: null, longitude: null }).where(eq(ordersTable.id, unplaced!.id));
    try {
      const response = await client.get(query(pharmacyId, orders.map((order) => order.id)));
      expect(response.statusCode).toBe(200);
      const ids = RoutedOrdersResponse.parse(response.json()).orders.map((order) => order.id);
      expect(ids).toHaveLength(3);
      expect(ids).not.toContain(delivered!.id);
      expect(ids[2]).toBe(unplaced!.id);
      expect(new Set(ids.slice(0, 2))).toEqual(new Set(rest.map((order) => order.id)));
    } finally {
      await db.update(ordersTable).set({ statusId: statusByName("picked_up").id }).where(eq(ordersTable.id, delivered!.id));
      await db
        .update(ordersTable)
        .set({ latitude: unplaced!.address.latitude, longitude: unplaced!.address.longitude })
        .where(inArray(ordersTable.id, [unplaced!.id]));
    }
  });

  it("is described in the OpenAPI document with its query parameters", async () => {
    const doc = (await api().anonymous("GET", "/api/openapi.json")).json();
    const operation = doc.paths["/api/routed_orders"].get;
    const names = operation.parameters.map((p: { name: string; in: string }) => `${p.in}:${p.name}`);
    expect(names).toEqual(expect.arrayContaining(["query:pharmacy_id", "query:order_ids[]", "query:order_ids"]));
    expect(Object.keys(operation.responses)).toEqual(expect.arrayContaining(["200", "400", "404", "409"]));
  });
});
