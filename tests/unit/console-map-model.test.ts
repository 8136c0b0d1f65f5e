import { describe, expect, it } from "vitest";
import type { OpsOrder } from "../../domain/contract/ops.ts";
import type { Plan } from "../../domain/contract/ops-plans.ts";
import { dayMapModel, planMapModel, pointsOf } from "../../src/console/map/map-model.ts";
import { mapOrder } from "../ui/console/console-fixtures.tsx";

const DANA = { id: 7, first_name: "Dana", last_name: "Whitfield" };
const SAM = { id: 8, first_name: "Sam", last_name: "Okafor" };
const withPosition = (order: OpsOrder, position: number) => ({ ...order, planned_position: position });
const noCoordinates = (order: OpsOrder) => ({ ...order, address: { ...order.address, latitude: null, longitude: null } });

const DAY: OpsOrder[] = [
  withPosition(mapOrder(1, "Ada Lovelace", "delivered", DANA.id, 1), 3),
  withPosition(mapOrder(2, "Grace Hopper", "picked_up", DANA.id, 2), 2),
  withPosition(mapOrder(3, "Alan Turing", "delivery_attempted", DANA.id, 1), 1),
  mapOrder(4, "Edsger Dijkstra", "new", null, 2),
  mapOrder(5, "Barbara Liskov", "cancelled", null, 1),
  noCoordinates(mapOrder(6, "Katherine Johnson", "submitted_to_courier", SAM.id, 1)),
  mapOrder(7, "Claude Shannon", "submitted_to_courier", SAM.id, 2),
];

describe("the console map's model (issue 27)", () => {
  it("draws each courier's route in driving order, a pharmacy before its first delivery, in the courier's colour, with each stop's status", () => {
    const model = dayMapModel(DAY, [DANA, SAM], null);
    expect(model.pharmacies.map((p) => p.name)).toEqual(["Riverside Community Pharmacy", "Market Street Apothecary"]);
    const [dana, sam] = model.routes;
    expect(dana!.name).toBe("Courier Dana Whitfield");
    expect(dana!.legs.map((leg) => leg.pharmacy?.name ?? `${leg.stop!.patient}: ${leg.stop!.statusWords}`)).toEqual([
      "Riverside Community Pharmacy",
      "Alan Turing: Delivery attempted",
      "Market Street Apothecary",
      "Grace Hopper: Picked up",
      "Ada Lovelace: Delivered",
    ]);
    expect(dana!.path).toHaveLength(5);
    expect([dana!.colour, dana!.colourName]).toEqual(["#1f77b4", "blue"]);
    expect([sam!.colour, sam!.colourName]).toEqual(["#ff7f0e", "orange"]);
    // A stop without coordinates is counted, not guessed; a cancelled order is not drawn.
    expect(sam!.legs.map((leg) => leg.stop?.patient ?? leg.pharmacy!.name)).toEqual(["Market Street Apothecary", "Claude Shannon"]);
    expect(model.withoutCoordinates).toBe(1);
    expect(model.unassigned.map((stop) => stop.patient)).toEqual(["Edsger Dijkstra"]);
    expect(pointsOf(model)).toHaveLength(2 + 1 + 5 + 2);
  });

  it("a pharmacist's map holds their pharmacy's stops only: no route line through another pharmacy's patient", () => {
    const model = dayMapModel(DAY, [], 1);
    const patients = [...model.unassigned, ...model.routes.flatMap((route) => route.legs.flatMap((leg) => (leg.stop ? [leg.stop] : [])))].map((stop) => stop.patient);
    expect(patients.sort()).toEqual(["Ada Lovelace", "Alan Turing"]);
    expect(model.pharmacies.map((p) => p.id)).toEqual([1]);
    // Sam's only order of this pharmacy has no coordinates: no route of his is drawn.
    expect(model.routes.map((route) => route.name)).toEqual(["Courier #7"]);
    expect(model.withoutCoordinates).toBe(1);
    for (const route of model.routes) for (const point of route.path) expect(pointsOf(dayMapModel(DAY.filter((o) => o.pharmacy.id === 1), [], 1))).toContainEqual(point);
  });

  it("a pharmacist has no courier list: each route is named by the courier its orders name, as their board's regions are", () => {
    const named = DAY.map((order) => ({ ...order, courier: [DANA, SAM].find((courier) => courier.id === order.courier_id) ?? null }));
    expect(dayMapModel(named, [], 1).routes.map((route) => route.name)).toEqual(["Courier Dana Whitfield"]);
    expect(dayMapModel(named, [], null).routes.map((route) => route.name)).toEqual(["Courier Dana Whitfield", "Courier Sam Okafor"]);
  });

  it("draws a proposed plan's routes by its stops, and the orders it could not serve", () => {
    const plan: Plan = {
      id: 12,
      service_date: "2026-11-27",
      couriers_used: 1,
      distance_km: 5,
      applied_at: null,
      routes: [
        {
          courier_id: SAM.id,
          distance_km: 5,
          driving_minutes: 14,
          stops: [
            { kind: "pickup", pharmacy_id: 2, order_ids: [4, 7], arrival: "2026-11-27T08:00:00-05:00", departure: "2026-11-27T08:05:00-05:00" },
            { kind: "delivery", order_ids: [7], arrival: "2026-11-27T08:10:00-05:00", departure: "2026-11-27T08:13:00-05:00" },
            { kind: "delivery", order_ids: [4], arrival: "2026-11-27T08:20:00-05:00", departure: "2026-11-27T08:23:00-05:00" },
          ],
        },
      ],
      unassigned: [{ order_id: 6, reason: "no_coordinates", message: "no coordinates" }],
    };
    const model = planMapModel(plan, DAY, [DANA, SAM]);
    expect(model.routes[0]!.legs.map((leg) => leg.pharmacy?.name ?? `${leg.stop!.patient}: ${leg.stop!.statusWords}`)).toEqual([
      "Market Street Apothecary",
      "Claude Shannon: Planned",
      "Edsger Dijkstra: Planned",
    ]);
    expect(model.routes[0]!.colourName).toBe("orange");
    expect(model.withoutCoordinates).toBe(1);
  });
});
