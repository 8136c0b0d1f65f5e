import type { Order } from "../../../domain/contract/entities.ts";
import { isOrderHandled } from "../../../domain/pharmacy-list.ts";
import { byPatientName } from "../../../domain/pharmacy-progress.ts";
import { byPlannedPosition, followsPlan } from "../../../domain/planned-deliveries.ts";
import type { OrderStatusName } from "../../../domain/vocabulary.ts";

/** The statuses a pharmacy's delivery list shows: out for delivery, and what became of them. */
const LISTED: readonly OrderStatusName[] = ["picked_up", "delivered", "delivery_attempted", "returned_to_pharmacy", "reconciled"];

export interface DeliveryLists {
  /** Every order on the list (what routing counts). */
  all: Order[];
  /** Still to deliver (picked_up), by patient last name or in driving order. */
  toDeliver: Order[];
  /** Delivered, or already handed back. */
  completed: Order[];
  /** 'Item(s) to return to pharmacy': attempted orders, and delivered ones whose cash or check goes back. */
  toReturn: Order[];
}

/**
 * The delivery list of one pharmacy (spec §2): deliveries in the order of
 * dispatch's plan when the day follows one (issue 28), else `routedOrder`
 * (the single-route optimiser's driving order) when given.
 */
export function deliveryLists(orders: readonly Order[], pharmacyId: number, routedOrder: readonly number[] | null = null): DeliveryLists {
  const all = orders.filter((order) => order.pharmacy.id === pharmacyId && LISTED.includes(order.status.name)).sort(byPatientName);
  let toDeliver = all.filter((order) => order.status.name === "picked_up");
  if (followsPlan(toDeliver)) {
    toDeliver = byPlannedPosition(toDeliver);
  } else if (routedOrder) {
    const rank = (order: Order) => {
      const index = routedOrder.indexOf(order.id);
      return index === -1 ? routedOrder.length : index;
    };
    toDeliver = [...toDeliver].sort((a, b) => rank(a) - rank(b));
  }
  const done = all.filter((order) => order.status.name !== "picked_up");
  return {
    all,
    toDeliver,
    completed: done.filter(isOrderHandled),
    toReturn: done.filter((order) => !isOrderHandled(order)),
  };
}

/** Spec §2: 'All deliveries have been attempted' is enabled once nothing is left to deliver. */
export function allDeliveriesAttempted(lists: DeliveryLists): boolean {
  return lists.all.length > 0 && lists.toDeliver.length === 0;
}
