import type { OpsOrder } from "../../domain/contract/ops.ts";
import type { OrderStatusName } from "../../domain/vocabulary.ts";

export interface CourierGroup {
  courierId: number;
  /** "Courier {first} {last}": the region's name. */
  title: string;
  orders: OpsOrder[];
}

export interface BoardGroups {
  unassigned: OpsOrder[];
  couriers: CourierGroup[];
  counts: Map<OrderStatusName, number>;
}

/**
 * The driving order of a courier's day (decision 0032): the place of each
 * delivery in the courier's applied plan (planned_position, what the
 * courier's itinerary carries), then the orders the plan does not place in
 * the itinerary's own order (by id), as the courier's app lists them.
 */
export function byDrivingOrder(a: OpsOrder, b: OpsOrder): number {
  const placeA = a.planned_position ?? Number.POSITIVE_INFINITY;
  const placeB = b.planned_position ?? Number.POSITIVE_INFINITY;
  if (placeA !== placeB) return placeA < placeB ? -1 : 1;
  return a.id - b.id;
}

function courierTitle(order: OpsOrder): string {
  return order.courier ? `Courier ${order.courier.first_name} ${order.courier.last_name}` : `Courier #${order.courier_id}`;
}

/**
 * Unassigned orders (no courier, not cancelled) by id, each courier's orders
 * in driving order (couriers by name), and the counts by status.
 */
export function groupBoard(orders: readonly OpsOrder[]): BoardGroups {
  const unassigned: OpsOrder[] = [];
  const byCourier = new Map<number, CourierGroup>();
  const counts = new Map<OrderStatusName, number>();
  for (const order of orders) {
    counts.set(order.status.name, (counts.get(order.status.name) ?? 0) + 1);
    if (order.courier_id === null) {
      if (order.status.name !== "cancelled") unassigned.push(order);
      continue;
    }
    let group = byCourier.get(order.courier_id);
    if (!group) byCourier.set(order.courier_id, (group = { courierId: order.courier_id, title: courierTitle(order), orders: [] }));
    group.orders.push(order);
  }
  unassigned.sort((a, b) => a.id - b.id);
  const couriers = [...byCourier.values()].sort((a, b) => a.title.localeCompare(b.title) || a.courierId - b.courierId);
  for (const group of couriers) group.orders.sort(byDrivingOrder);
  return { unassigned, couriers, counts };
}

/** The ids of a region's rows from one to another, both included (a shift-click's range); null when either is not in the region. */
export function rangeBetween(orders: readonly OpsOrder[], fromId: number, toId: number): number[] | null {
  const from = orders.findIndex((order) => order.id === fromId);
  const to = orders.findIndex((order) => order.id === toId);
  if (from < 0 || to < 0) return null;
  const [start, end] = from <= to ? [from, to] : [to, from];
  return orders.slice(start, end + 1).map((order) => order.id);
}

/**
 * The groups as before wherever they did not change: a region whose orders
 * are the same objects in the same order keeps its array, so it is not drawn
 * again (an assignment of 100 orders redraws the regions it touches only).
 */
export function keepUnchanged(previous: BoardGroups | null, next: BoardGroups): BoardGroups {
  if (!previous) return next;
  const same = (a: readonly OpsOrder[], b: readonly OpsOrder[]) => a.length === b.length && a.every((order, i) => order === b[i]);
  const before = new Map(previous.couriers.map((group) => [group.courierId, group]));
  return {
    unassigned: same(previous.unassigned, next.unassigned) ? previous.unassigned : next.unassigned,
    couriers: next.couriers.map((group) => {
      const old = before.get(group.courierId);
      return old && old.title === group.title && same(old.orders, group.orders) ? old : group;
    }),
    counts: next.counts,
  };
}
