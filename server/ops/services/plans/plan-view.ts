import type { PlanRoute, PlanStop, UnassignedOrder } from "../../../../domain/contract/ops-plans.ts";
import type { orders, pharmacies } from "../../../db/schema.ts";
import type { PlanSolution, UnassignedReason } from "./solver.ts";
import type { DayClock } from "./zoned-time.ts";

type OrderRow = typeof orders.$inferSelect;
type PharmacyRow = typeof pharmacies.$inferSelect;

const round1 = (value: number) => Math.round(value * 10) / 10;

/** The solver's reason in the dispatcher's words. */
export function unassignedMessage(reason: UnassignedReason, order: OrderRow, pharmacy: PharmacyRow): string {
  switch (reason) {
    case "window":
      return order.deliveryWindowStart
        ? `No courier can deliver order ${order.id} within its window ${order.deliveryWindowStart}–${order.deliveryWindowEnd} after picking it up at ${pharmacy.name}${pharmacy.openingTime ? ` (open ${pharmacy.openingTime}–${pharmacy.closingTime})` : ""}.`
        : `No courier can pick up order ${order.id} while ${pharmacy.name} is open (${pharmacy.openingTime}–${pharmacy.closingTime}) and deliver it.`;
    case "capacity":
      return `Every courier is already carrying as many orders as they can when order ${order.id} would fit: add a courier or raise a capacity.`;
    case "shift":
      return `No courier's shift leaves time to pick up order ${order.id} at ${pharmacy.name} and deliver it.`;
    case "unreachable":
      return `No road reaches order ${order.id}'s address or ${pharmacy.name} from the couriers' routes.`;
  }
}

/**
 * The solution as the API's routes: consecutive stops of one kind at one
 * place become one stop with several orders (one pharmacy visit, one
 * building); a return to a pharmacy later in the day stays a stop of its own.
 */
export function planRoutes(
  solution: PlanSolution,
  ordersById: Map<number, OrderRow>,
  pharmaciesById: Map<number, PharmacyRow>,
  clock: DayClock,
): PlanRoute[] {
  return solution.routes
    .filter((route) => route.stops.length > 0)
    .map((route): PlanRoute => {
      const courierId = Number(route.vehicleId);
      const stops: (PlanStop & { location: number; lastDeparture: number })[] = [];
      for (const planned of route.stops) {
        const order = ordersById.get(Number(planned.taskId))!;
        const pharmacy = pharmaciesById.get(order.pharmacyId)!;
        const previous = stops.at(-1);
        if (previous && previous.kind === planned.kind && previous.location === planned.location && (planned.kind === "delivery" || previous.pharmacy_id === pharmacy.id)) {
          previous.order_ids.push(order.id);
          previous.lastDeparture = planned.departure;
          previous.departure = clock.iso(planned.departure);
          narrowWindow(previous, planned.kind === "delivery" ? order.deliveryWindowStart : pharmacy.openingTime, planned.kind === "delivery" ? order.deliveryWindowEnd : pharmacy.closingTime);
        } else {
          const window = planned.kind === "pickup" ? [pharmacy.openingTime, pharmacy.closingTime] : [order.deliveryWindowStart, order.deliveryWindowEnd];
          stops.push({
            kind: planned.kind,
            ...(planned.kind === "pickup" ? { pharmacy_id: pharmacy.id } : {}),
            order_ids: [order.id],
            arrival: clock.iso(planned.arrival),
            departure: clock.iso(planned.departure),
            ...(window[0] && window[1] ? { window_start: window[0], window_end: window[1] } : {}),
            location: planned.location,
            lastDeparture: planned.departure,
          });
        }
      }
      return {
        courier_id: courierId,
        stops: stops.map(({ location: _location, lastDeparture: _last, ...stop }) => stop),
        distance_km: round1(route.distance / 1000),
        driving_minutes: round1(route.travel / 60),
      };
    });
}

/** A merged stop is held to every window of its orders: the latest start, the earliest end. */
function narrowWindow(stop: PlanStop, start: string | null, end: string | null): void {
  if (!start || !end) return;
  if (!stop.window_start || start > stop.window_start) stop.window_start = start;
  if (!stop.window_end || end < stop.window_end) stop.window_end = end;
}

export function unassignedView(solution: PlanSolution, ordersById: Map<number, OrderRow>, pharmaciesById: Map<number, PharmacyRow>): UnassignedOrder[] {
  return solution.unassigned.map(({ taskId, reason }) => {
    const order = ordersById.get(Number(taskId))!;
    return { order_id: order.id, reason, message: unassignedMessage(reason, order, pharmaciesById.get(order.pharmacyId)!) };
  });
}
