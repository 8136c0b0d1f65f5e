import type { OpsOrder } from "../../../domain/contract/ops.ts";
import type { Plan } from "../../../domain/contract/ops-plans.ts";
import { STATUS_WORDS } from "../status-words.ts";

/**
 * What the console's map draws (issue 27), worked out apart from the drawing
 * so the text alternative and the map say the same: the day's pharmacies,
 * each stop with its status, and each courier's route in their colour. A
 * pharmacist's model holds their pharmacy's orders only: a route line never
 * passes another pharmacy's patient, whatever the caller was given.
 */
export interface MapPoint {
  lat: number;
  lng: number;
}

export interface MapPharmacy extends MapPoint {
  id: number;
  name: string;
}

export type StopTone = "todo" | "carried" | "delivered" | "attempted" | "planned";

export interface MapStop extends MapPoint {
  orderId: number;
  patient: string;
  address: string;
  /** The status in words ('Delivered', 'Delivery attempted', …) or 'Planned'. */
  statusWords: string;
  tone: StopTone;
}

export interface MapLeg {
  kind: "pickup" | "delivery";
  /** The pharmacy of a pickup, the order of a delivery. */
  pharmacy?: MapPharmacy;
  stop?: MapStop;
}

export interface MapRoute {
  courierId: number;
  name: string;
  colour: string;
  colourName: string;
  legs: MapLeg[];
  /** The line through the legs' places, in driving order. */
  path: MapPoint[];
}

export interface DayMapModel {
  pharmacies: MapPharmacy[];
  routes: MapRoute[];
  /** Stops on no route (unassigned orders, or orders a plan could not serve). */
  unassigned: MapStop[];
  /** Orders that cannot be drawn: their address has no coordinates. */
  withoutCoordinates: number;
}

export interface MapCourier {
  id: number;
  first_name: string;
  last_name: string;
}

/** Ten hues told apart on white and by most colour-blind eyes (Tableau 10), with their names for the text alternative. */
export const ROUTE_COLOURS = [
  ["#1f77b4", "blue"],
  ["#ff7f0e", "orange"],
  ["#2ca02c", "green"],
  ["#d62728", "red"],
  ["#9467bd", "purple"],
  ["#8c564b", "brown"],
  ["#e377c2", "pink"],
  ["#7f7f7f", "grey"],
  ["#bcbd22", "olive"],
  ["#17becf", "teal"],
] as const;

const TONES: Partial<Record<OpsOrder["status"]["name"], StopTone>> = {
  picked_up: "carried",
  verified: "carried",
  delivered: "delivered",
  reconciled: "delivered",
  delivery_attempted: "attempted",
  returned_to_pharmacy: "attempted",
};

// An address may come without coordinates (the CSV, a pharmacy system that has none): such a place is not drawn.
const pointOf = (address: { latitude: number | null; longitude: number | null } | undefined): MapPoint | null =>
  address == null || address.latitude == null || address.longitude == null ? null : { lat: address.latitude, lng: address.longitude };

const pharmacyOf = (order: OpsOrder): MapPharmacy | null => {
  const point = pointOf(order.pharmacy.address);
  return point ? { id: order.pharmacy.id, name: order.pharmacy.name, ...point } : null;
};

const stopOf = (order: OpsOrder, planned = false): MapStop | null => {
  const point = pointOf(order.address);
  if (!point) return null;
  return {
    orderId: order.id,
    patient: `${order.patient_first_name} ${order.patient_last_name}`,
    address: `${order.address!.street_address}, ${order.address!.city}`,
    statusWords: planned ? "Planned" : STATUS_WORDS[order.status.name],
    tone: planned ? "planned" : (TONES[order.status.name] ?? "todo"),
    ...point,
  };
};

/** Each courier's colour: by their place among every courier known, so a courier keeps it between the board and the plan. */
function colours(couriers: readonly MapCourier[], extraIds: Iterable<number>) {
  const ids = [...new Set([...couriers.map((courier) => courier.id), ...extraIds])].sort((a, b) => a - b);
  return (id: number) => ROUTE_COLOURS[ids.indexOf(id) % ROUTE_COLOURS.length]!;
}

/**
 * A route's name: the courier by name from the board's couriers or, where the
 * reader has no courier list (a pharmacist), from the orders that courier
 * carries (each names its courier), as the board's regions do.
 */
const nameOf = (couriers: readonly MapCourier[], id: number, carried: readonly OpsOrder[] = []) => {
  const courier = couriers.find((candidate) => candidate.id === id) ?? carried.find((order) => order.courier?.id === id)?.courier;
  return courier ? `Courier ${courier.first_name} ${courier.last_name}` : `Courier #${id}`;
};

/** The board's order within a courier's day: the planned place when a plan set one, then the order id. */
const drivingOrder = (a: OpsOrder, b: OpsOrder) => (a.planned_position ?? Number.MAX_SAFE_INTEGER) - (b.planned_position ?? Number.MAX_SAFE_INTEGER) || a.id - b.id;

/** The day as the board has it: pharmacies, stops by status, each courier's route (a pickup before a pharmacy's first delivery). */
export function dayMapModel(orders: readonly OpsOrder[], couriers: readonly MapCourier[], pharmacyId: number | null): DayMapModel {
  const shown = orders.filter((order) => order.status.name !== "cancelled" && (pharmacyId === null || order.pharmacy.id === pharmacyId));
  const pharmacies = new Map<number, MapPharmacy>();
  const byCourier = new Map<number, OpsOrder[]>();
  const unassigned: MapStop[] = [];
  let withoutCoordinates = 0;
  for (const order of shown) {
    const pharmacy = pharmacyOf(order);
    if (pharmacy) pharmacies.set(pharmacy.id, pharmacy);
    const stop = stopOf(order);
    if (!stop) withoutCoordinates += 1;
    if (order.courier_id === null) {
      if (stop) unassigned.push(stop);
    } else {
      const carried = byCourier.get(order.courier_id);
      if (carried) carried.push(order);
      else byCourier.set(order.courier_id, [order]);
    }
  }
  const colourOf = colours(couriers, byCourier.keys());
  const routes = [...byCourier.entries()]
    .sort(([a], [b]) => a - b)
    .map(([courierId, courierOrders]): MapRoute => {
      const legs: MapLeg[] = [];
      const visited = new Set<number>();
      for (const order of [...courierOrders].sort(drivingOrder)) {
        const stop = stopOf(order);
        if (!stop) continue;
        const pharmacy = pharmacies.get(order.pharmacy.id);
        if (pharmacy && !visited.has(pharmacy.id)) {
          visited.add(pharmacy.id);
          legs.push({ kind: "pickup", pharmacy });
        }
        legs.push({ kind: "delivery", stop });
      }
      const [colour, colourName] = colourOf(courierId);
      return { courierId, name: nameOf(couriers, courierId, courierOrders), colour, colourName, legs, path: legs.map((leg) => (leg.pharmacy ?? leg.stop)!) };
    })
    // A courier whose stops all lack coordinates has nothing to draw (they are counted in withoutCoordinates).
    .filter((route) => route.legs.length > 0);
  return { pharmacies: [...pharmacies.values()].sort((a, b) => a.id - b.id), routes, unassigned, withoutCoordinates };
}

/** A proposed plan: its routes' stops in driving order, and the orders it could not serve. */
export function planMapModel(plan: Plan, orders: readonly OpsOrder[], couriers: readonly MapCourier[]): DayMapModel {
  const byId = new Map(orders.map((order) => [order.id, order]));
  const pharmacies = new Map<number, MapPharmacy>();
  for (const order of orders) {
    const pharmacy = pharmacyOf(order);
    if (pharmacy) pharmacies.set(pharmacy.id, pharmacy);
  }
  let withoutCoordinates = 0;
  const colourOf = colours(couriers, plan.routes.map((route) => route.courier_id));
  const routes = plan.routes.map((route): MapRoute => {
    const legs: MapLeg[] = [];
    for (const stop of route.stops) {
      if (stop.kind === "pickup") {
        const pharmacy = stop.pharmacy_id === undefined ? undefined : pharmacies.get(stop.pharmacy_id);
        if (pharmacy) legs.push({ kind: "pickup", pharmacy });
        continue;
      }
      for (const orderId of stop.order_ids) {
        const order = byId.get(orderId);
        const place = order ? stopOf(order, plan.applied_at === null) : null;
        if (place) legs.push({ kind: "delivery", stop: place });
      }
    }
    const [colour, colourName] = colourOf(route.courier_id);
    return { courierId: route.courier_id, name: nameOf(couriers, route.courier_id), colour, colourName, legs, path: legs.map((leg) => (leg.pharmacy ?? leg.stop)!) };
  });
  const unassigned: MapStop[] = [];
  for (const { order_id } of plan.unassigned) {
    const order = byId.get(order_id);
    const stop = order ? stopOf(order, true) : null;
    if (stop) unassigned.push({ ...stop, statusWords: "Not planned" });
    else withoutCoordinates += 1;
  }
  return { pharmacies: [...pharmacies.values()].sort((a, b) => a.id - b.id), routes, unassigned, withoutCoordinates };
}

/** Every point the map shows (its bounds). */
export function pointsOf(model: DayMapModel): MapPoint[] {
  return [...model.pharmacies, ...model.unassigned, ...model.routes.flatMap((route) => route.path)];
}
