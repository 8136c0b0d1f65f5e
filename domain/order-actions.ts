import type { OrderStatusName } from "./vocabulary.ts";

/**
 * What the dispatch console's order page offers for an order (issue 27), by
 * the operations API's own rules: an order is edited and cancelled until it
 * is picked up (server/ops/services/orders.ts EDITABLE, the lifecycle's
 * CANCEL), assigned, moved to another courier or taken off a courier's day
 * while it is new or submitted to a courier (server/ops/services/assignments.ts),
 * and assigning is a dispatcher's (a pharmacist's reach is a pharmacy key's).
 */
export type StaffRole = "dispatcher" | "pharmacist";

export interface OrderActions {
  edit: boolean;
  cancel: boolean;
  /** Put an order with no courier on a courier's day. */
  assign: boolean;
  /** Move an assigned order to another courier. */
  reassign: boolean;
  unassign: boolean;
}

const BEFORE_PICKUP: ReadonlySet<OrderStatusName> = new Set(["new", "submitted_to_courier", "verified"]);
const ASSIGNABLE: ReadonlySet<OrderStatusName> = new Set(["new", "submitted_to_courier"]);

export function orderActions(order: { status: OrderStatusName; courierId: number | null }, role: StaffRole): OrderActions {
  const beforePickup = BEFORE_PICKUP.has(order.status);
  const assignable = role === "dispatcher" && ASSIGNABLE.has(order.status);
  return {
    edit: beforePickup,
    cancel: beforePickup,
    assign: assignable && order.courierId === null,
    reassign: assignable && order.courierId !== null,
    unassign: assignable && order.courierId !== null,
  };
}

/** Why nothing can be changed any more, in a dispatcher's words; null while something can. */
export function lockedReason(status: OrderStatusName): string | null {
  if (BEFORE_PICKUP.has(status)) return null;
  if (status === "cancelled") return "This order is cancelled: it can no longer be changed.";
  return "This order was picked up: it can no longer be edited, cancelled or moved to another courier.";
}

/** What happens next to an attempted delivery (issue 27): the words the order page shows. */
export const ATTEMPTED_NEXT_STEP =
  "The delivery was attempted but not completed. The courier brings the order back to the pharmacy, where a member of the pharmacy's staff signs for it; the return is then on the pharmacy's return manifest.";
