import type { Order, Pharmacy, PharmacyVisit } from "./contract/entities.ts";
import type { OrderStatusName } from "./vocabulary.ts";

/**
 * The /pharmacies list (spec §2): which pharmacies the courier has today,
 * which section each is listed in and with what count, and the visits still
 * to confirm. The first screen asks these questions, so they live apart from
 * the check-in, delivery-list and verify rules (pharmacy-progress.ts), which
 * load with their screens: the first screen's JavaScript has a budget
 * (tests/unit/bundle-budget.test.ts).
 */

/** The orders of one pharmacy. */
export const ofPharmacy = (orders: readonly Order[], pharmacyId: number) => orders.filter((order) => order.pharmacy.id === pharmacyId);

/** Orders still to be checked in: not yet picked up, not cancelled. */
export const AWAITING_VERIFICATION: readonly OrderStatusName[] = ["new", "submitted_to_courier", "verified"];

/** Spec §2: the count shown beside a pharmacy in 'Select pharmacy to pickup orders'. */
export function awaitingVerificationCount(orders: readonly Order[], pharmacyId: number): number {
  return ofPharmacy(orders, pharmacyId).filter((order) => AWAITING_VERIFICATION.includes(order.status.name)).length;
}

/**
 * Spec §4 Pharmacy completion, word for word: delivered orders are handled if
 * no payment was collected or the item was returned; attempted orders if the
 * item was returned; cancelled and returned orders are handled. (Reconciled is
 * the returned state of a delivered order whose cash or check went back.)
 */
export function isOrderHandled(order: Order): boolean {
  switch (order.status.name) {
    case "delivered":
      return !order.payment_collected || order.item_returned;
    case "delivery_attempted":
      return order.item_returned;
    case "cancelled":
    case "returned_to_pharmacy":
    case "reconciled":
      return true;
    case "new":
    case "submitted_to_courier":
    case "verified":
    case "picked_up":
      return false;
  }
}

/** Spec §4: a pharmacy is complete when all its non-cancelled orders are handled. */
export function isPharmacyComplete(orders: readonly Order[], pharmacyId: number): boolean {
  return ofPharmacy(orders, pharmacyId)
    .filter((order) => order.status.name !== "cancelled")
    .every(isOrderHandled);
}

/** What still has to go back to the pharmacy: an attempted order, or the cash or check of a delivered one. */
function mustBeReturned(order: Order): boolean {
  return (order.status.name === "delivered" || order.status.name === "delivery_attempted") && !isOrderHandled(order);
}

export type PharmacySection = "pickup" | "deliver" | "return" | "completed";

/**
 * Spec §2: the /pharmacies section(s) a pharmacy is listed in. Pickup while
 * orders await verification; deliver while verified orders wait to be
 * delivered; return once nothing is left to deliver but something must go
 * back; completed by the §4 rule. A pharmacy without orders today is in none.
 */
export function pharmacySections(orders: readonly Order[], pharmacyId: number): PharmacySection[] {
  const own = ofPharmacy(orders, pharmacyId);
  if (own.length === 0) return [];
  const sections: PharmacySection[] = [];
  const toDeliver = own.some((order) => order.status.name === "picked_up");
  if (awaitingVerificationCount(own, pharmacyId) > 0) sections.push("pickup");
  if (toDeliver) sections.push("deliver");
  if (!toDeliver && own.some(mustBeReturned)) sections.push("return");
  if (isPharmacyComplete(own, pharmacyId)) sections.push("completed");
  return sections;
}

/** The pharmacies of the day's visits and orders, each once, in visit order. */
export function pharmaciesOfDay(visits: readonly PharmacyVisit[], orders: readonly Order[]): Pharmacy[] {
  const byId = new Map<number, Pharmacy>();
  for (const visit of visits) if (!byId.has(visit.pharmacy.id)) byId.set(visit.pharmacy.id, visit.pharmacy);
  for (const order of orders) if (!byId.has(order.pharmacy.id)) byId.set(order.pharmacy.id, order.pharmacy);
  return [...byId.values()];
}

/** The visits the courier is going to make: all but those they said they are not available for. */
export function visitsToMake(visits: readonly PharmacyVisit[]): PharmacyVisit[] {
  return visits.filter((visit) => visit.confirmed !== false);
}

/** Spec §2: a visit confirmed neither true nor false is pending and sends the courier to /confirm_pharmacy_visits. */
export function pendingVisits(visits: readonly PharmacyVisit[]): PharmacyVisit[] {
  return visits.filter((visit) => visit.confirmed === null);
}

/** Issue 28: one row of the 'pickup' section. */
export interface PickupRow {
  pharmacy: Pharmacy;
  /** The orders awaiting verification this row stands for (the count beside it). */
  awaiting: number;
  /** Which of the pharmacy's planned pickups this is, of how many; null unless the plan picks up there more than once. */
  stop: { nth: number; of: number } | null;
}

/**
 * Spec §2 'Select pharmacy to pickup orders' on a day that follows dispatch's
 * plan (issue 28): each planned pickup still awaiting verification is a row,
 * in plan order (planned_pickup_position), so a plan that returns to a
 * pharmacy lists it again where it returns instead of merging the two. A
 * pickup's count is its own orders awaiting verification; an order the plan
 * does not place (an add-on, one assigned since) counts toward the pharmacy's
 * next planned pickup. Without a plan each pharmacy awaiting verification is
 * one row, in the order given, after any planned ones.
 */
export function pickupRows(pharmacies: readonly Pharmacy[], orders: readonly Order[]): PickupRow[] {
  const rows: (PickupRow & { place: number })[] = [];
  for (const pharmacy of pharmacies) {
    const own = ofPharmacy(orders, pharmacy.id);
    const planned = [...new Set(own.flatMap((order) => order.planned_pickup_position ?? []))].sort((a, b) => a - b);
    const waiting = own.filter((order) => AWAITING_VERIFICATION.includes(order.status.name));
    const next = Math.min(...waiting.flatMap((order) => order.planned_pickup_position ?? []));
    const counts = new Map<number, number>();
    for (const order of waiting) {
      const place = order.planned_pickup_position ?? next;
      counts.set(place, (counts.get(place) ?? 0) + 1);
    }
    for (const [place, awaiting] of counts) {
      const stop = planned.length > 1 && place !== Infinity ? { nth: planned.indexOf(place) + 1, of: planned.length } : null;
      rows.push({ pharmacy, awaiting, stop, place });
    }
  }
  // A stable sort: rows at the same place (none: Infinity) keep the pharmacies' order.
  return rows.sort((a, b) => (a.place === b.place ? 0 : a.place - b.place)).map(({ pharmacy, awaiting, stop }) => ({ pharmacy, awaiting, stop }));
}
