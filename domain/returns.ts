import type { Order } from "./contract/entities.ts";
import { paymentTotalCents } from "./delivery-rules.ts";
import { formatUsd, parseDecimalToCents, type Cents } from "./money.ts";
import { NAME_MAX_LENGTH } from "./recipient.ts";

/**
 * What goes back to a pharmacy at the reconcile signature (spec §2
 * /reconcile, §3 return line, §4 reconcile signature, §9 return totals). The
 * returns machine, its screens and POST /api/courier/pharmacies/{id}/returns
 * all compute the lines here, so the summary a courier shows the pharmacy
 * staff and the totals the server accepts are the same numbers.
 */

export const RETURN_LINE_TYPES = ["item", "cash", "check"] as const;
export type ReturnLineType = (typeof RETURN_LINE_TYPES)[number];

/** Spec §3 return line; amount in cents (a decimal string only on the wire). */
export interface ReturnLine {
  type: ReturnLineType;
  amount: Cents;
  order_id: number;
}

/** The /reconcile_details/{kind} pages and the line type each lists. */
export const RETURN_DETAIL_KINDS = ["orders", "cash", "check"] as const;
export type ReturnDetailKind = (typeof RETURN_DETAIL_KINDS)[number];
export const LINE_TYPE_OF_KIND: Record<ReturnDetailKind, ReturnLineType> = { orders: "item", cash: "cash", check: "check" };

export function isReturnDetailKind(value: string | null | undefined): value is ReturnDetailKind {
  return (RETURN_DETAIL_KINDS as readonly string[]).includes(value ?? "");
}

export interface ReturnSummary {
  /** Every line, items first, then cash, then checks; by order id within a type. */
  lines: ReturnLine[];
  items: ReturnLine[];
  cash: ReturnLine[];
  check: ReturnLine[];
  itemsTotal: Cents;
  /** cash_collected of the reconcile signature form. */
  cashCollected: Cents;
  /** check_collected of the reconcile signature form. */
  checkCollected: Cents;
  /** The orders the return hands back, each once, ascending. */
  orderIds: number[];
}

const cents = (value: string | null | undefined) => parseDecimalToCents(value ?? null) ?? 0;

/**
 * An undelivered item the courier still holds: an attempted order not yet
 * returned, or a picked-up order never attempted (spec §4: "orders created as
 * deliveries" at the reconcile signature).
 */
export function isUndeliveredItem(order: Order): boolean {
  return order.status.name === "picked_up" || (order.status.name === "delivery_attempted" && !order.item_returned);
}

/** Spec §4: a picked-up order the courier never attempted gets its delivery record at the return. */
export function needsDeliveryRecord(order: Order): boolean {
  return order.status.name === "picked_up";
}

/** The cash or check taken at the door of a delivered order that has not gone back yet; null for anything else. */
export function collectedPaymentType(order: Order): "cash" | "check" | null {
  if (order.status.name !== "delivered" || !order.payment_collected || order.item_returned) return null;
  return order.payment_type === "cash" || order.payment_type === "check" ? order.payment_type : null;
}

/** Spec §9: a returned item (type item) is worth its copay plus delivery_fee. */
export function itemReturnCents(order: Pick<Order, "copay" | "delivery_fee">): Cents {
  return cents(order.copay) + cents(order.delivery_fee);
}

/**
 * Spec §9: the cash or check handed back sums copay, delivery_fee and
 * other_items_amount_due — the same rule that decided what the courier took at
 * the door (a copay corrected there is the order's copay by now; one already
 * paid before delivery, copay_paid_at, was never in the courier's hands).
 */
export function paymentReturnCents(order: Order): Cents {
  return paymentTotalCents(order);
}

/** The return line of one order, or null when it has nothing to hand back. */
export function returnLineOf(order: Order): ReturnLine | null {
  if (isUndeliveredItem(order)) return { type: "item", amount: itemReturnCents(order), order_id: order.id };
  const payment = collectedPaymentType(order);
  if (payment) return { type: payment, amount: paymentReturnCents(order), order_id: order.id };
  return null;
}

const TYPE_ORDER: Record<ReturnLineType, number> = { item: 0, cash: 1, check: 2 };

/** Items, then cash, then checks; by order id within a type. */
export function compareReturnLines(a: ReturnLine, b: ReturnLine): number {
  return TYPE_ORDER[a.type] - TYPE_ORDER[b.type] || a.order_id - b.order_id || a.amount - b.amount;
}

const sum = (lines: readonly ReturnLine[]) => lines.reduce((total, line) => total + line.amount, 0);

/** The courier's return at one pharmacy, from the day's orders. */
export function returnSummary(orders: readonly Order[], pharmacyId: number): ReturnSummary {
  const lines = orders
    .filter((order) => order.pharmacy.id === pharmacyId)
    .flatMap((order) => returnLineOf(order) ?? [])
    .sort(compareReturnLines);
  return summaryOfLines(lines);
}

/** Totals and groups of a list of lines. */
export function summaryOfLines(lines: readonly ReturnLine[]): ReturnSummary {
  const sorted = [...lines].sort(compareReturnLines);
  const items = sorted.filter((line) => line.type === "item");
  const cash = sorted.filter((line) => line.type === "cash");
  const check = sorted.filter((line) => line.type === "check");
  return {
    lines: sorted,
    items,
    cash,
    check,
    itemsTotal: sum(items),
    cashCollected: sum(cash),
    checkCollected: sum(check),
    orderIds: [...new Set(sorted.map((line) => line.order_id))].sort((a, b) => a - b),
  };
}

export function hasSomethingToReturn(summary: ReturnSummary): boolean {
  return summary.lines.length > 0;
}

const GROUP_OF_TYPE = { item: "items", cash: "cash", check: "check" } as const;
const TOTAL_OF_TYPE = { item: "itemsTotal", cash: "cashCollected", check: "checkCollected" } as const;

/** The lines a /reconcile_details/{kind} page lists. */
export function linesOfKind(summary: ReturnSummary, kind: ReturnDetailKind): ReturnLine[] {
  return summary[GROUP_OF_TYPE[LINE_TYPE_OF_KIND[kind]]];
}

/** The total a /reconcile_details/{kind} page ends with. */
export function totalOfKind(summary: ReturnSummary, kind: ReturnDetailKind): Cents {
  return summary[TOTAL_OF_TYPE[LINE_TYPE_OF_KIND[kind]]];
}

/**
 * How a sent list of lines differs from the expected one, in the courier's
 * words; null when they are the same lines in any order.
 */
export function returnLinesMismatch(sent: readonly ReturnLine[], expected: readonly ReturnLine[]): string | null {
  const byOrder = new Map(expected.map((line) => [line.order_id, line]));
  const seen = new Set<number>();
  for (const line of sent) {
    if (seen.has(line.order_id)) return `Order ${line.order_id} is listed more than once.`;
    seen.add(line.order_id);
    const wanted = byOrder.get(line.order_id);
    if (!wanted) return `Order ${line.order_id} has nothing to return to this pharmacy.`;
    if (wanted.type !== line.type) {
      return `Order ${line.order_id} is returned as ${describeType(wanted.type)}, not ${describeType(line.type)}.`;
    }
    if (wanted.amount !== line.amount) {
      return `The amount to return for order ${line.order_id} is ${formatUsd(wanted.amount)}, not ${formatUsd(line.amount)}.`;
    }
  }
  const missing = expected.find((line) => !seen.has(line.order_id));
  return missing ? `Order ${missing.order_id} must be returned too (${describeType(missing.type)}).` : null;
}

const describeType = (type: ReturnLineType) => (type === "item" ? "an undelivered item" : type === "cash" ? "cash" : "a check");

// ---------------------------------------------------------------- the pharmacy staff signature

/** Spec §9: names default to at most 32 characters; the staff's are names like any other. */
export const STAFF_NAME_MAX_LENGTH = NAME_MAX_LENGTH;

/** Spec §5 "Pharmacy signature": first name, last name and signature are required. */
export interface StaffSignatureForm {
  first_name: string;
  last_name: string;
  /** The pad is signed. */
  signed: boolean;
}

export type StaffSignatureField = "first_name" | "last_name" | "signature";

export function staffSignatureProblems(form: StaffSignatureForm): Partial<Record<StaffSignatureField, string>> {
  const problems: Partial<Record<StaffSignatureField, string>> = {};
  if (form.first_name.trim() === "") problems.first_name = "Enter the first name of the pharmacy staff member.";
  if (form.last_name.trim() === "") problems.last_name = "Enter the last name of the pharmacy staff member.";
  if (!form.signed) problems.signature = "The pharmacy staff member signs for the items.";
  return problems;
}

export function staffSignatureComplete(form: StaffSignatureForm): boolean {
  return Object.keys(staffSignatureProblems(form)).length === 0;
}

/** The bags going back over the counter: the orders of the summary's item lines, in its order. */
export function bagsToReturn(orders: readonly Order[], summary: ReturnSummary): Order[] {
  return summary.items.flatMap((line) => orders.find((order) => order.id === line.order_id) ?? []);
}
