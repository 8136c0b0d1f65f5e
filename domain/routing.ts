/**
 * When a delivery list asks the server for a driving order (spec §5
 * "Routing", §9): only if the number of orders is above 1 and at most 150,
 * with more than 1 remaining delivery. The app uses it to decide whether to
 * call GET /routed_orders; the server uses the same limit to refuse larger
 * requests.
 */
import type { OrderStatusName } from "./vocabulary.ts";

/** Spec §9: routing only when orders are above 1 and up to 150. */
export const MAX_ROUTED_ORDERS = 150;

/** An order still to be delivered: in the courier's bag, neither delivered nor attempted. */
export const REMAINING_DELIVERY_STATUS: OrderStatusName = "picked_up";

export interface RoutingCounts {
  /** The orders on the pharmacy's delivery list. */
  orderCount: number;
  /** Those of them still to be delivered. */
  remainingDeliveries: number;
}

export function routingRequested({ orderCount, remainingDeliveries }: RoutingCounts): boolean {
  return orderCount > 1 && orderCount <= MAX_ROUTED_ORDERS && remainingDeliveries > 1;
}

/**
 * The ids to send for routing from a pharmacy's delivery list, or null when
 * the rule says not to ask (routing off at the pharmacy, too few or too many
 * orders, fewer than two deliveries left).
 */
export function ordersToRoute(
  pharmacy: { routing_enabled: boolean },
  orders: readonly { id: number; status: { name: OrderStatusName } }[],
): number[] | null {
  if (!pharmacy.routing_enabled) return null;
  const remaining = orders.filter((order) => order.status.name === REMAINING_DELIVERY_STATUS).map((order) => order.id);
  return routingRequested({ orderCount: orders.length, remainingDeliveries: remaining.length }) ? remaining : null;
}
