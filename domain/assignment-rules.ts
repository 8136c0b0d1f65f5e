import type { OrderStatusName } from "./vocabulary.ts";

/**
 * Who may move (issue 15 assignments, issue 27 the board): an order goes on a
 * courier's day, moves to another courier or comes off it only before pickup.
 * The server refuses the rest (409) and the console says why before asking.
 */
export const MOVABLE_STATUSES: readonly OrderStatusName[] = ["new", "submitted_to_courier"];

export function canMoveOrder(status: OrderStatusName): boolean {
  return MOVABLE_STATUSES.includes(status);
}

/** A status in words for a refusal: "picked_up" → "picked up". */
export function statusInWords(status: OrderStatusName): string {
  return status.replace(/_/g, " ");
}

/** Why an order cannot move, in words, naming it as the board does (patient and the pharmacy's reference); null when it can. */
export function moveRefusal(order: { status: { name: OrderStatusName }; patient_first_name: string; patient_last_name: string; external_id: string | null; id: number }): string | null {
  if (canMoveOrder(order.status.name)) return null;
  const reference = order.external_id ?? `#${order.id}`;
  return `${order.patient_first_name} ${order.patient_last_name} (${reference}) is ${statusInWords(order.status.name)}: only an order not yet picked up can move to another courier.`;
}
