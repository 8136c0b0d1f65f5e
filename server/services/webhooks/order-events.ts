import type { z } from "zod";
import type { WebhookEventType, WebhookOrder } from "../../../domain/webhook-events.ts";
import { statusById } from "../../../domain/vocabulary.ts";
import type { OrderLifecycleEvent } from "../../../machines/order-lifecycle.machine.ts";
import type { orders } from "../../db/schema.ts";
import { recordDispatchEvents } from "../events/record.ts";
import { enqueueEvent, enqueueWebhookMessages, pharmaciesHearing } from "./outbox.ts";
import type { Tx } from "../../db/client.ts";

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

/**
 * The order as an event carries it: who, where and what state, no patient
 * details (the proof endpoint has those, behind the key).
 */
export function webhookOrder(row: OrderRow): z.infer<typeof WebhookOrder> {
  return {
    id: row.id,
    external_id: row.externalId,
    pharmacy_id: row.pharmacyId,
    courier_id: row.courierId,
    service_date: row.serviceDate,
    status: statusById(row.statusId)!.name,
    updated_at: row.updatedAt.toISOString(),
  };
}

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

/**
 * The same event for many orders in one statement (an orders batch): every
 * order's live event for the console (issue 27: whether or not anyone
 * subscribes), and webhook messages for the orders some subscription hears of.
 */
export async function enqueueOrderEvents(tx: Tx, type: WebhookEventType, rows: readonly OrderRow[], options: { positionNow?: boolean } = {}): Promise<void> {
  if (rows.length === 0) return;
  const events = rows.map((row) => ({ type, pharmacyId: row.pharmacyId, data: { order: webhookOrder(row) }, at: row.updatedAt }));
  const heard = await pharmaciesHearing(tx, type);
  await enqueueWebhookMessages(
    tx,
    events.filter((event) => heard(event.pharmacyId)),
  );
  // Last, for positionNow (recordDispatchEvents): nothing of this function runs after it.
  await recordDispatchEvents(tx, events, options);
}
