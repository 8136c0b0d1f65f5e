import type { Order, Status } from "../domain/contract/entities.ts";
import { orderIdsOf } from "../domain/delivery-record.ts";
import { identificationNeeded, normalizedIdentification } from "../domain/delivery-rules.ts";
import { isOther, recipientSkipped } from "../domain/recipient.ts";
import { statusByName, type OrderStatusName } from "../domain/vocabulary.ts";
import type { DeliveryFlowContext } from "./delivery-flow.machine.ts";
import { nextOrderStatus } from "./order-status.ts";

/** What of a finished delivery the day's orders take on. */
export type DeliveryReport = Pick<
  DeliveryFlowContext,
  "order" | "groupedOrderIds" | "recipient" | "identification" | "payment" | "recipientCalledAt"
>;

/**
 * The day's orders after a delivery (spec §4): delivered or delivery_attempted
 * through the order lifecycle, grouped orders together, with what the server
 * recorded for them (recipient, ID, payment), so every screen agrees before
 * the next refresh.
 */
export function ordersAfterFlow(
  dayOrders: readonly Order[],
  context: DeliveryReport,
  outcome: "delivered" | "attempted",
  statuses: readonly Status[] = [],
): Order[] {
  const event = outcome === "delivered" ? "DELIVER" : "ATTEMPT_DELIVERY";
  const statusOf = (name: OrderStatusName): Status => statuses.find((status) => status.name === name) ?? statusByName(name);
  const payment = outcome === "delivered" && context.payment?.collected ? context.payment : null;
  const id = normalizedIdentification(context.identification);
  const text = (value: string) => (value.trim() === "" ? null : value.trim());
  const skipped = recipientSkipped(context.recipient);

  const changed: Order[] = [];
  for (const orderId of orderIdsOf(context)) {
    const order = dayOrders.find((candidate) => candidate.id === orderId) ?? (orderId === context.order.id ? context.order : null);
    if (!order) continue;
    const next = nextOrderStatus(order.status.name, event, { paymentType: order.payment_type, paymentCollected: order.payment_collected });
    if (!next) continue;
    let updated: Order = { ...order, status: statusOf(next) };
    if (outcome === "delivered") {
      updated = {
        ...updated,
        recipient_relationship_id: context.recipient.relationship_id,
        recipient_first_name: skipped ? null : text(context.recipient.first_name),
        recipient_last_name: skipped ? null : text(context.recipient.last_name),
        other_recipient_description: isOther(context.recipient) ? text(context.recipient.other_description) : null,
        recipient_called_at: context.recipientCalledAt,
      };
      if (id && identificationNeeded(order)) {
        updated = {
          ...updated,
          identification_type: id.identification_type,
          identification_state: id.identification_state,
          identification_number: id.identification_number,
          identification_expiration: id.identification_expiration,
        };
      }
      if (payment && order.id === context.order.id) {
        const card = payment.payment_type === "credit_card";
        updated = {
          ...updated,
          copay: payment.new_copay ?? updated.copay,
          payment_type: card ? "card" : payment.payment_type,
          payment_collected: card ? updated.payment_collected : true,
          payment_authorized: card ? true : updated.payment_authorized,
        };
      }
    }
    changed.push(updated);
  }
  return changed;
}
