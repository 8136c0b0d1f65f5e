import type { Order } from "./contract/entities.ts";
import type { ReturnSubmission, WireReturnLine } from "./contract/returns.ts";
import { orderOfLabel } from "./label-scan.ts";
import { centsToDecimal } from "./money.ts";
import { bagsToReturn, linesOfKind, returnSummary, type ReturnDetailKind, type ReturnLine, type ReturnSummary } from "./returns.ts";
import { statusByName, type OrderStatusName } from "./vocabulary.ts";

/**
 * What a return to the pharmacy records (the returns machine's context has
 * these fields) and what is built from it: the reconcile signature form (spec
 * §7) and the app's copy of the returned orders.
 */

export interface ReturnRecord {
  courierId: number;
  pharmacyId: number;
  orders: Order[];
  summary: ReturnSummary;
  staff: { first_name: string; last_name: string };
  /** The pad's SVG (signature.svg), null while unsigned. */
  signatureSvg: string | null;
  location: { latitude: number; longitude: number } | null;
  /** Bags (item lines' orders) whose label was read on the summary. */
  tickedOrderIds: number[];
}

/** The order lifecycle (machines/order-status.ts nextOrderStatus): the status an order moves to on an event, or null. */
type NextOrderStatus = (
  status: OrderStatusName,
  event: "RETURN_TO_PHARMACY" | "RECONCILE",
  facts: { paymentType: Order["payment_type"]; paymentCollected: boolean },
) => OrderStatusName | null;

const wireLine = (line: ReturnLine): WireReturnLine => ({ type: line.type, amount: centsToDecimal(line.amount)!, order_id: line.order_id });

/** Spec §7 "Reconcile signature": what the form sends for what the summary shows. */
export function returnSubmissionOf(record: ReturnRecord): ReturnSubmission {
  return {
    recipient_first_name: record.staff.first_name.trim(),
    recipient_last_name: record.staff.last_name.trim(),
    signature_svg: record.signatureSvg ?? "",
    courier_id: record.courierId,
    pharmacy_id: record.pharmacyId,
    cash_collected: centsToDecimal(record.summary.cashCollected)!,
    check_collected: centsToDecimal(record.summary.checkCollected)!,
    latitude: record.location?.latitude ?? null,
    longitude: record.location?.longitude ?? null,
    returns: record.summary.lines.map(wireLine),
  };
}

/** The app's copy of each returned order after the return, moved by the same lifecycle the server uses. */
export function returnedOrdersOf(record: Pick<ReturnRecord, "orders" | "summary">, nextOrderStatus: NextOrderStatus): Order[] {
  return record.summary.lines.flatMap((line) => {
    const order = record.orders.find((candidate) => candidate.id === line.order_id);
    if (!order) return [];
    const event = line.type === "item" ? "RETURN_TO_PHARMACY" : "RECONCILE";
    const next = nextOrderStatus(order.status.name, event, { paymentType: order.payment_type, paymentCollected: order.payment_collected });
    if (!next) return [];
    const { id, name } = statusByName(next);
    return [{ ...order, status: { id, name }, item_returned: true }];
  });
}

export const hasLinesOf = (summary: ReturnSummary, kind: ReturnDetailKind) => linesOfKind(summary, kind).length > 0;

/** The bag going back here that a label names, or null. */
export const bagOfLabel = (record: Pick<ReturnRecord, "orders" | "summary">, code: string) =>
  orderOfLabel(bagsToReturn(record.orders, record.summary), code);

/** The day as it changes, and the ticks still meaning a bag of it. */
export function dayChange(record: Pick<ReturnRecord, "pharmacyId" | "tickedOrderIds">, orders: Order[], incompleteOffline: boolean) {
  const summary = returnSummary(orders, record.pharmacyId);
  const bags = new Set(bagsToReturn(orders, summary).map((order) => order.id));
  return { orders, incompleteOffline, summary, tickedOrderIds: record.tickedOrderIds.filter((id) => bags.has(id)) };
}
