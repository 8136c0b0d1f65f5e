import type { OrderStatusName } from "./vocabulary.ts";

/**
 * A courier's day in three numbers (issue 27, the console's Couriers screen):
 * delivered, attempted (the courier reached the door and could not deliver;
 * returned to the pharmacy since counts too) and left (still to deliver).
 * A cancelled order is none of them.
 */
export interface CourierProgress {
  delivered: number;
  attempted: number;
  left: number;
}

const DELIVERED: ReadonlySet<OrderStatusName> = new Set(["delivered", "reconciled"]);
const ATTEMPTED: ReadonlySet<OrderStatusName> = new Set(["delivery_attempted", "returned_to_pharmacy"]);
const LEFT: ReadonlySet<OrderStatusName> = new Set(["new", "submitted_to_courier", "picked_up", "verified"]);

/** Every courier's progress over a day's orders, by courier id (couriers with no order are absent: zero everywhere). */
export function courierProgress(orders: readonly { courier_id: number | null; status: { name: OrderStatusName } }[]): Map<number, CourierProgress> {
  const byCourier = new Map<number, CourierProgress>();
  for (const order of orders) {
    if (order.courier_id === null) continue;
    const progress = byCourier.get(order.courier_id) ?? { delivered: 0, attempted: 0, left: 0 };
    const status = order.status.name;
    if (DELIVERED.has(status)) progress.delivered += 1;
    else if (ATTEMPTED.has(status)) progress.attempted += 1;
    else if (LEFT.has(status)) progress.left += 1;
    byCourier.set(order.courier_id, progress);
  }
  return byCourier;
}

export const NO_PROGRESS: CourierProgress = Object.freeze({ delivered: 0, attempted: 0, left: 0 });
