import type { WebhookEventType } from "../../../domain/webhook-events.ts";
import type { OrderLifecycleEvent } from "../../../machines/order-lifecycle.machine.ts";
import type { orders } from "../../db/schema.ts";
import { insertDispatchEventRows, type PositionOptions } from "../events/record.ts";
import { enqueueEvent, enqueueWebhookBodies, webhookBodyText } from "./outbox.ts";
import { webhookOrder, webhookOrderJson } from "./webhook-order.ts";
import type { Tx } from "../../db/client.ts";

export { webhookOrder };

type OrderRow = typeof orders.$inferSelect;

/** The lifecycle events a pharmacy hears about; verification and reconciliation stay inside. */
export const WEBHOOK_FOR_LIFECYCLE: Partial<Record<OrderLifecycleEvent["type"], WebhookEventType>> = {
  SUBMIT_TO_COURIER: "order.assigned",
  PICK_UP: "order.picked_up",
  CANCEL: "order.cancelled",
  DELIVER: "order.delivered",
  ATTEMPT_DELIVERY: "order.delivery_attempted",
  RETURN_TO_PHARMACY: "order.returned",
};

/** One line for any service that changed an order: the event, in the same transaction. */
export async function enqueueOrderEvent(tx: Tx, type: WebhookEventType, row: OrderRow): Promise<void> {
  await enqueueEvent(tx, { type, pharmacyId: row.pharmacyId, data: { order: webhookOrder(row) }, at: row.updatedAt });
}

/** order.rescheduled: the order (now on its new day) and the day it had, the same {from, to} as its custody entry. */
export async function enqueueOrderRescheduled(tx: Tx, row: OrderRow, from: string): Promise<void> {
  await enqueueEvent(tx, {
    type: "order.rescheduled",
    pharmacyId: row.pharmacyId,
    data: { order: webhookOrder(row), from, to: row.serviceDate },
    at: row.updatedAt,
  });
}

/** An order an orders batch inserted, with its event's middle part (webhookOrderMiddle, built in the batch check's worker). */
export interface CreatedOrder {
  id: number;
  pharmacyId: number;
  updatedAt: Date;
  middle: string;
}

/**
 * order.created for many orders in one statement each (an orders batch's
 * piece): every order's live event for the console (issue 27: whether or not
 * anyone subscribes), and webhook messages for the orders whose pharmacy some
 * subscription hears (`heard`, read once per batch). The bodies are joined
 * from parts — the same text webhookBody and recordDispatchEvents build —
 * so this thread does not build and serialise an object per order.
 */
export async function enqueueOrdersCreated(tx: Tx, created: readonly CreatedOrder[], heard: (pharmacyId: number) => boolean, options: PositionOptions = {}): Promise<void> {
  if (created.length === 0) return;
  const type = "order.created";
  const parts = created.map((order) => {
    const at = order.updatedAt.toISOString();
    return { order, at, data: `{"order":${webhookOrderJson(order.id, order.middle, at)}}` };
  });
  await enqueueWebhookBodies(
    tx,
    parts.filter((part) => heard(part.order.pharmacyId)).map((part) => ({ type, pharmacyId: part.order.pharmacyId, body: webhookBodyText(type, part.at, part.data) })),
  );
  // Last, for positionNow (insertDispatchEventRows): nothing of this function runs after it.
  const rows = parts.map((part) => `{"type":"${type}","pharmacy_id":${part.order.pharmacyId},"order_id":${part.order.id},"data":${part.data},"created_at":"${part.at}"}`);
  await insertDispatchEventRows(tx, `[${rows.join(",")}]`, options);
}
