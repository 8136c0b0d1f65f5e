import type { Order } from "./contract/entities.ts";

/**
 * Issue 28: a delivery list on a day that follows dispatch's plan is in the
 * plan's order (planned_position); a day without a plan has none, and the
 * single-route optimiser orders the deliveries as before. (Apart from
 * planned-order.ts so the first screen does not carry it.)
 */

/** Some of these orders follow a plan: their order is the plan's, and the optimiser is not asked. */
export function followsPlan(orders: readonly Pick<Order, "planned_position">[]): boolean {
  return orders.some((order) => order.planned_position != null);
}

/** The orders by their planned place (stable: ties and unplanned orders keep the order given, unplanned last). */
export function byPlannedPosition<T extends Pick<Order, "planned_position">>(orders: readonly T[]): T[] {
  const place = (order: T) => order.planned_position ?? Number.POSITIVE_INFINITY;
  return orders
    .map((order, index) => ({ order, index }))
    .sort((a, b) => place(a.order) - place(b.order) || a.index - b.index)
    .map(({ order }) => order);
}
