import type { WirePaymentType } from "./contract/delivery-submissions.ts";
import type { Order, Status } from "./contract/entities.ts";
import { orderIdsOf, type DeliveryRecord } from "./delivery-record.ts";
import { identificationNeeded, normalizedIdentification } from "./delivery-rules.ts";
import { isOther, recipientSkipped, type RecipientForm } from "./recipient.ts";
import { statusByName, type OrderStatusName } from "./vocabulary.ts";

/**
 * What a delivery does to its orders (spec §4, §5, §7): the one rule behind
 * both the server's completion (server/services/deliveries.ts writes it) and
 * the app's copy of the day (the delivery-flow machine reports it), so the
 * screens show what the server recorded before the next refresh.
 */

/** The order lifecycle (machines/order-status.ts nextOrderStatus), passed in: domain/ does not import machines/. */
type NextOrderStatus = (
  status: OrderStatusName,
  event: "DELIVER" | "ATTEMPT_DELIVERY",
  facts: { paymentType: Order["payment_type"]; paymentCollected: boolean },
) => OrderStatusName | null;

/** The recipient as the delivery recorded them; names null where none were recorded. */
export interface RecordedRecipient {
  relationship_id: number | null;
  first_name: string | null;
  last_name: string | null;
  other_description: string | null;
  called_at: string | null;
}

/** A delivery's outcome: the orders it covers (the first leads) and, when delivered, what the door recorded. */
export type DeliveryOutcome =
  | { outcome: "attempted"; orderIds: readonly number[] }
  | {
      outcome: "delivered";
      orderIds: readonly number[];
      recipient: RecordedRecipient;
      /** The ID shown (normalized), or null when none was taken. */
      identification: ReturnType<typeof normalizedIdentification>;
      /** The payment taken on the leading order, or null. */
      payment: { payment_type: WirePaymentType; new_copay: string | null } | null;
    };

/** The fields of an order a delivery writes (besides its status). */
export type OrderOutcomeFields = Partial<
  Pick<
    Order,
    | "recipient_relationship_id"
    | "recipient_first_name"
    | "recipient_last_name"
    | "other_recipient_description"
    | "recipient_called_at"
    | "identification_type"
    | "identification_state"
    | "identification_number"
    | "identification_expiration"
    | "copay"
    | "payment_type"
    | "payment_collected"
    | "payment_authorized"
  >
>;

export interface OrderOutcome {
  order: Order;
  status: OrderStatusName;
  fields: OrderOutcomeFields;
}

/**
 * Which orders a delivery changes and what each takes on: every covered order
 * the lifecycle lets move (delivered or delivery_attempted) takes the
 * recipient; those that need ID take the ID; the leading order takes the
 * payment (a card is authorized, cash and checks are collected; a corrected
 * copay replaces the copay). An order the lifecycle refuses, or that is not
 * among `orders`, is left out.
 */
export function deliveryOutcomePlan(orders: readonly Order[], delivery: DeliveryOutcome, nextOrderStatus: NextOrderStatus): OrderOutcome[] {
  const event = delivery.outcome === "delivered" ? "DELIVER" : "ATTEMPT_DELIVERY";
  const plan: OrderOutcome[] = [];
  for (const orderId of delivery.orderIds) {
    const order = orders.find((candidate) => candidate.id === orderId);
    if (!order) continue;
    const status = nextOrderStatus(order.status.name, event, { paymentType: order.payment_type, paymentCollected: order.payment_collected });
    if (!status) continue;
    plan.push({ order, status, fields: delivery.outcome === "delivered" ? deliveredFields(order, orderId === delivery.orderIds[0], delivery) : {} });
  }
  return plan;
}

function deliveredFields(order: Order, leading: boolean, delivery: Extract<DeliveryOutcome, { outcome: "delivered" }>): OrderOutcomeFields {
  const { recipient, identification: id, payment } = delivery;
  let fields: OrderOutcomeFields = {
    recipient_relationship_id: recipient.relationship_id,
    recipient_first_name: recipient.first_name,
    recipient_last_name: recipient.last_name,
    other_recipient_description: recipient.other_description,
    recipient_called_at: recipient.called_at,
  };
  if (id && identificationNeeded(order)) fields = { ...fields, ...id };
  if (payment && leading) {
    if (payment.new_copay != null) fields.copay = payment.new_copay;
    if (payment.payment_type === "credit_card") {
      fields = { ...fields, payment_type: "card", payment_authorized: true };
    } else {
      // Cash and checks go back to the pharmacy at reconcile (order lifecycle).
      fields = { ...fields, payment_type: payment.payment_type, payment_collected: true };
    }
  }
  return fields;
}

/** The recipient the app records from the recipient step: nobody named when nobody signs (No Recipient, contactless). */
export function recordedRecipientOf(form: RecipientForm, calledAt: string | null): RecordedRecipient {
  const text = (value: string) => (value.trim() === "" ? null : value.trim());
  const skipped = recipientSkipped(form);
  return {
    relationship_id: form.relationship_id,
    first_name: skipped ? null : text(form.first_name),
    last_name: skipped ? null : text(form.last_name),
    other_description: isOther(form) ? text(form.other_description) : null,
    called_at: calledAt,
  };
}

/** What of a finished delivery the day's orders take on. */
export type DeliveryReport = Pick<DeliveryRecord, "order" | "groupedOrderIds" | "recipient" | "identification" | "payment" | "recipientCalledAt">;

/** The outcome of the app's delivery flow, from what its steps recorded (a payment only when one was collected). */
export function deliveryOutcomeOf(report: DeliveryReport, outcome: DeliveryOutcome["outcome"]): DeliveryOutcome {
  const orderIds = orderIdsOf(report);
  if (outcome === "attempted") return { outcome, orderIds };
  const paid = report.payment;
  return {
    outcome,
    orderIds,
    recipient: recordedRecipientOf(report.recipient, report.recipientCalledAt),
    identification: normalizedIdentification(report.identification),
    payment: paid?.collected && paid.payment_type ? { payment_type: paid.payment_type, new_copay: paid.new_copay } : null,
  };
}

/**
 * The day's orders after a delivery the app recorded: the plan applied to the
 * day's copies (the delivery's own order when the day does not hold it), with
 * the day's status records. The courier's day applies it when a delivery flow
 * tells it the outcome (machines/courier-day.machine.ts).
 */
export function ordersAfterDelivery(
  dayOrders: readonly Order[],
  order: Order,
  delivery: DeliveryOutcome,
  nextOrderStatus: NextOrderStatus,
  statuses: readonly Status[] = [],
): Order[] {
  const known = dayOrders.some((candidate) => candidate.id === order.id) ? dayOrders : [...dayOrders, order];
  const statusOf = (name: OrderStatusName): Status => statuses.find((status) => status.name === name) ?? statusByName(name);
  return deliveryOutcomePlan(known, delivery, nextOrderStatus).map(({ order: planned, status, fields }) => ({
    ...planned,
    ...fields,
    status: statusOf(status),
  }));
}
