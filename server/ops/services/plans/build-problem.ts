import type { UnassignedOrder } from "../../../../domain/contract/ops-plans.ts";
import { clockMinutes } from "../../../../domain/time-of-day.ts";
import type { couriers, orders, pharmacies } from "../../../db/schema.ts";
import type { RoutingConfig } from "../../../config.ts";
import type { LatLng } from "../../../services/routing/distance.ts";
import type { TravelMatrixProvider } from "../../../services/routing/travel-matrix.ts";
import type { DayClock } from "./zoned-time.ts";
import type { PlanProblem, PlanTask, PlanVehicle } from "./solver.ts";

type OrderRow = typeof orders.$inferSelect;
type PharmacyRow = typeof pharmacies.$inferSelect;
type CourierRow = typeof couriers.$inferSelect;

export interface PlanInput {
  orders: OrderRow[];
  pharmacies: Map<number, PharmacyRow>;
  couriers: CourierRow[];
  clock: DayClock;
  routing: RoutingConfig;
  travel: TravelMatrixProvider;
}

export interface BuiltProblem {
  problem: PlanProblem;
  /** Orders that cannot be planned before solving: no coordinates (never guessed). */
  unplannable: UnassignedOrder[];
}

const placed = (latitude: number | null, longitude: number | null): LatLng | null =>
  latitude !== null && longitude !== null ? { latitude, longitude } : null;

/** One index per distinct place: orders to one building share it, so the stops merge. */
class Places {
  readonly points: LatLng[] = [];
  private readonly index = new Map<string, number>();
  of(point: LatLng): number {
    const key = `${point.latitude},${point.longitude}`;
    let found = this.index.get(key);
    if (found === undefined) {
      found = this.points.length;
      this.points.push(point);
      this.index.set(key, found);
    }
    return found;
  }
}

/**
 * The day as the planner's problem, times in seconds from the service day's
 * local midnight: a pharmacy's hours are its pickup window, a promised
 * delivery window the delivery's, a courier's shift, capacity, start and end
 * their vehicle (no start: the route begins at its first stop).
 */
export async function buildProblem(input: PlanInput): Promise<BuiltProblem> {
  const { clock, routing } = input;
  const places = new Places();
  const unplannable: UnassignedOrder[] = [];
  const tasks: PlanTask[] = [];
  const windowOf = (start: string | null, end: string | null) =>
    start && end ? { windowStart: clock.seconds(clockMinutes(start)), windowEnd: clock.seconds(clockMinutes(end)) } : { windowStart: 0, windowEnd: clock.end };

  for (const order of input.orders) {
    const pharmacy = input.pharmacies.get(order.pharmacyId)!;
    const from = placed(pharmacy.latitude, pharmacy.longitude);
    const to = placed(order.latitude, order.longitude);
    if (!to) {
      unplannable.push({ order_id: order.id, reason: "no_coordinates", message: `The delivery address of order ${order.id} has no coordinates: add its latitude and longitude (PATCH the order) to plan it.` });
      continue;
    }
    if (!from) {
      unplannable.push({ order_id: order.id, reason: "no_coordinates", message: `${pharmacy.name} (pharmacy ${pharmacy.id}) has no coordinates: add them to plan its orders.` });
      continue;
    }
    tasks.push({
      id: String(order.id),
      pickup: { location: places.of(from), ...windowOf(pharmacy.openingTime, pharmacy.closingTime), service: routing.pickupMinutes * 60 },
      delivery: { location: places.of(to), ...windowOf(order.deliveryWindowStart, order.deliveryWindowEnd), service: routing.deliveryMinutes * 60 },
      size: 1,
    });
  }

  const vehicles: PlanVehicle[] = input.couriers.map((courier) => {
    const start = placed(courier.startLatitude, courier.startLongitude);
    const end = placed(courier.endLatitude, courier.endLongitude);
    const shift = courier.shiftStart && courier.shiftEnd ? windowOf(courier.shiftStart, courier.shiftEnd) : { windowStart: 0, windowEnd: clock.end };
    return {
      id: String(courier.id),
      start: start ? places.of(start) : null,
      end: end ? places.of(end) : null,
      shiftStart: shift.windowStart,
      shiftEnd: shift.windowEnd,
      // No capacity set: as many as the day holds.
      capacity: courier.capacity ?? Math.max(1, tasks.length),
    };
  });

  const matrix = await input.travel.matrix(places.points);
  return {
    problem: { travel: matrix.durations, distance: matrix.distances, vehicles, tasks, serviceOncePerLocation: true },
    unplannable,
  };
}
