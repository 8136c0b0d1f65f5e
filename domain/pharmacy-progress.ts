import type { Order, Pharmacy } from "./contract/entities.ts";
import { copayDueAtDoor, isCopayAbsent } from "./copay.ts";
import { ofPharmacy } from "./pharmacy-list.ts";
import type { OrderStatusName } from "./vocabulary.ts";

/**
 * Where the courier stands at a pharmacy (spec §4 check-in list and row
 * indicators, §5 verify screen, add-ons). The app's screens, the machines and
 * the server all ask these questions here, so the counts a courier sees and
 * the rules the server applies never disagree. The /pharmacies list's own
 * rules (sections, counts, completion, visits) are in pharmacy-list.ts.
 */

/** Spec §4: the check-in list holds orders in these statuses. */
export const CHECK_IN_STATUSES: readonly OrderStatusName[] = ["new", "submitted_to_courier", "cancelled", "picked_up"];

/** Spec §5 / §9: at most 3 add-on orders per courier at a pharmacy. */
export const MAX_ADDON_ORDERS = 3;

/**
 * One collator for every comparison, made on first need: localeCompare with
 * options builds one per call (~1 ms per sort of 40 orders, ×4 on a slow
 * phone), and the page's first collator initialises ICU's collation, tens of
 * milliseconds on a low-tier phone (issue 29).
 */
let names: Intl.Collator | undefined;

/**
 * Names of ASCII letters, digits and spaces only: for them the collator's
 * order at base strength (case ignored) is the lower-cased code-point order
 * (spaces, then digits, then letters a–z), so they never need the collator.
 * Anything else (accents, hyphens, apostrophes, other scripts) goes to it.
 */
const PLAIN = /^[A-Za-z0-9 ]*$/;

/** The collator's answer (en, base strength), without the collator when both names are plain. */
export function compareNames(a: string, b: string): number {
  if (PLAIN.test(a) && PLAIN.test(b)) {
    const x = a.toLowerCase();
    const y = b.toLowerCase();
    return x < y ? -1 : x > y ? 1 : 0;
  }
  names ??= new Intl.Collator("en", { sensitivity: "base" });
  return names.compare(a, b);
}

/** By patient last name, then first name, ignoring case and accents; the order id settles ties. */
export const byPatientName = (a: Order, b: Order): number =>
  compareNames(a.patient_last_name, b.patient_last_name) || compareNames(a.patient_first_name, b.patient_first_name) || a.id - b.id;

/**
 * Each day's check-in lists, sorted once: the day's orders array is replaced,
 * never changed in place, so it keys them (the screen, the machine and the
 * scanner all ask for the same list on every render and event).
 */
const sortedLists = new WeakMap<readonly Order[], Map<number, readonly Order[]>>();

function sortedCheckInList(orders: readonly Order[], pharmacyId: number): readonly Order[] {
  let ofDay = sortedLists.get(orders);
  if (!ofDay) sortedLists.set(orders, (ofDay = new Map()));
  let list = ofDay.get(pharmacyId);
  if (!list) {
    list = ofPharmacy(orders, pharmacyId)
      .filter((order) => CHECK_IN_STATUSES.includes(order.status.name))
      .sort(byPatientName);
    ofDay.set(pharmacyId, list);
  }
  return list;
}

/**
 * Spec §4: the pharmacy's orders in status new, submitted_to_courier,
 * cancelled or picked_up, sorted by patient last name; a search keeps those
 * whose recipient description contains it, ignoring case.
 */
export function checkInList(orders: readonly Order[], pharmacyId: number, search = ""): Order[] {
  const needle = search.trim().toLocaleLowerCase("en");
  const sorted = sortedCheckInList(orders, pharmacyId);
  return needle === "" ? [...sorted] : sorted.filter((order) => order.recipient_description.toLocaleLowerCase("en").includes(needle));
}

/**
 * Spec §4: Continue is enabled only when every listed order is picked_up or
 * cancelled. The whole list counts, not what a search leaves on screen, and an
 * empty list has nothing to continue with.
 */
export function canContinueCheckIn(orders: readonly Order[], pharmacyId: number): boolean {
  const listed = checkInList(orders, pharmacyId);
  return listed.length > 0 && listed.every((order) => order.status.name === "picked_up" || order.status.name === "cancelled");
}

/** Spec §2: the optional 'Pickup Instructions' block shows the first listed order's pickup_note. */
export function pickupInstructions(orders: readonly Order[], pharmacyId: number): string | null {
  const note = checkInList(orders, pharmacyId)[0]?.pickup_note?.trim();
  return note ? note : null;
}

/** Spec §2 confirm_orders: the review step lists verified orders and cancelled orders. */
export function reviewLists(orders: readonly Order[], pharmacyId: number): { verified: Order[]; cancelled: Order[] } {
  const listed = checkInList(orders, pharmacyId);
  return {
    verified: listed.filter((order) => order.status.name === "picked_up"),
    cancelled: listed.filter((order) => order.status.name === "cancelled"),
  };
}

/** Spec §2: 'Continue' (goes home) instead of 'Start order deliveries' when only cancelled orders exist. */
export function onlyCancelledOrders(orders: readonly Order[], pharmacyId: number): boolean {
  const { verified, cancelled } = reviewLists(orders, pharmacyId);
  return verified.length === 0 && cancelled.length > 0;
}

export type RowIndicator = "incomplete" | "not_collected" | "incomplete_mark" | "cancelled" | "complete_mark";

const hasAmountDue = (order: Order) => !isCopayAbsent(order);

/** The pharmacy lets the courier take payment at the door with at least one method. */
const collectsAtDoor = (pharmacy: Pharmacy) =>
  pharmacy.allow_pod_copay_collection && pharmacy.payment_methods.some((method) => method.allowed);

const paymentTaken = (order: Order) => order.payment_collected || order.payment_authorized || !copayDueAtDoor(order);

/**
 * Spec §4 Row indicators, in the spec's order: 'incomplete' when saved
 * offline; 'not collected' when a payable copay is not yet collected and the
 * order was not attempted; the incomplete mark for a delivered order paid by
 * cash or check, or an attempted or returned order; 'cancelled'; otherwise the
 * complete mark. offlineOrderIds: the ids of orders stored on the device.
 */
export function rowIndicator(order: Order, offlineOrderIds: ReadonlySet<number>): RowIndicator {
  const status = order.status.name;
  if (offlineOrderIds.has(order.id)) return "incomplete";
  const attemptedOrReturned = status === "delivery_attempted" || status === "returned_to_pharmacy";
  if (
    status !== "cancelled" &&
    status !== "reconciled" &&
    !attemptedOrReturned &&
    hasAmountDue(order) &&
    collectsAtDoor(order.pharmacy) &&
    !paymentTaken(order)
  ) {
    return "not_collected";
  }
  const paidByCashOrCheck = order.payment_collected && (order.payment_type === "cash" || order.payment_type === "check");
  if ((status === "delivered" && paidByCashOrCheck) || attemptedOrReturned) return "incomplete_mark";
  if (status === "cancelled") return "cancelled";
  return "complete_mark";
}

/** Spec §4 lifecycle: what a check-in row offers — a Check-in link, the verified tick, or 'cancelled'. */
export function checkInRowAction(order: Order): "check_in" | "verified" | "cancelled" {
  if (order.status.name === "picked_up") return "verified";
  if (order.status.name === "cancelled") return "cancelled";
  return "check_in";
}

/**
 * Spec §5: the verify screen's copay section shows only if the pharmacy allows
 * copay collection at delivery, an allowed payment method exists and the copay
 * is unpaid.
 */
export function showsCopaySection(order: Order): boolean {
  return collectsAtDoor(order.pharmacy) && copayDueAtDoor(order) && !order.payment_collected;
}

/** Add-ons the courier already took at this pharmacy today (they count toward the maximum). */
export function addonCount(orders: readonly Order[], pharmacyId: number): number {
  return ofPharmacy(orders, pharmacyId).filter((order) => order.addedOn).length;
}

