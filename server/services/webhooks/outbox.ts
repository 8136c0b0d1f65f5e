import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import type { WebhookEventType } from "../../../domain/webhook-events.ts";
import { webhookMessages, webhookSubscriptions } from "../../db/schema.ts";
import { recordDispatchEvents } from "../events/record.ts";
import type { Tx } from "../../db/client.ts";

export interface OutboxEvent {
  type: WebhookEventType;
  /** Whose event it is: a pharmacy key's subscription hears its own pharmacy's events only. */
  pharmacyId: number;
  data: Record<string, unknown>;
  /** When it happened; now unless told. */
  at?: Date;
}

/** Nudged after a transaction that wrote to the outbox has committed, so the sender need not wait for its next poll. */
type Listener = () => void;
const listeners = new Set<Listener>();
export function onOutboxWrite(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
export function nudgeSenders(): void {
  for (const listener of listeners) listener();
}

/**
 * Writes the event to the outbox, one message per subscription that hears it,
 * inside the caller's transaction: the event exists if and only if the change
 * that caused it committed. With no subscription this is one insert … select
 * that finds nothing.
 */
export async function enqueueEvent(tx: Tx, event: OutboxEvent): Promise<void> {
  // The console's live stream hears every event, subscribed to or not (issue 27).
  await recordDispatchEvents(tx, [event]);
  const body = webhookBody(event.type, event.at ?? new Date(), event.data);
  // Each subscription's copy has an id of its own: the webhook-id its endpoint dedupes on.
  const prefix = `msg_${randomUUID().replace(/-/g, "")}`;
  await tx.execute(sql`insert into ${webhookMessages} (subscription_id, event_id, event_type, body)
    select s.id, ${prefix} || '_' || s.id, ${event.type}, ${body}
    from ${webhookSubscriptions} s
    where ${event.type} = any(s.events) and (s.pharmacy_id is null or s.pharmacy_id = ${event.pharmacyId})`);
  // After the caller's commit, most likely; a nudge that comes too early finds nothing and the next poll sends it.
  setTimeout(nudgeSenders, 10).unref();
}

/**
 * Whose events of this type some subscription hears, read in the caller's
 * transaction (one small query): an orders batch builds the bodies of those
 * only, and none when nobody subscribes (a thousand bodies built for an
 * insert … select that keeps none were a tenth of a batch's CPU). The insert
 * still matches each event with its subscriptions itself.
 */
export async function pharmaciesHearing(tx: Tx, type: WebhookEventType): Promise<(pharmacyId: number) => boolean> {
  const result = await tx.execute(sql`select distinct pharmacy_id from ${webhookSubscriptions} where ${type} = any(events)`);
  const rows = (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as { pharmacy_id: number | string | null }[];
  if (rows.some((row) => row.pharmacy_id === null)) return () => true;
  const ids = new Set(rows.map((row) => Number(row.pharmacy_id)));
  return (pharmacyId) => ids.has(pharmacyId);
}

/**
 * Many events in one statement (an orders batch's `order.created`s): the same
 * rows enqueueEvent would write, one message per event and subscription that
 * hears it, in the events' order. The events travel as one JSON parameter.
 */
export async function enqueueEvents(tx: Tx, events: readonly OutboxEvent[]): Promise<void> {
  await recordDispatchEvents(tx, events);
  await enqueueWebhookMessages(tx, events);
}

/** The outbox half of enqueueEvents: the webhook messages only, for a caller that recorded the live events of more changes than subscriptions hear. */
export async function enqueueWebhookMessages(tx: Tx, events: readonly OutboxEvent[]): Promise<void> {
  await enqueueWebhookBodies(
    tx,
    events.map((event) => ({ type: event.type, pharmacyId: event.pharmacyId, body: webhookBody(event.type, event.at ?? new Date(), event.data) })),
  );
}

/** A message's body, as every webhook sends it. */
export const webhookBody = (type: WebhookEventType, at: Date, data: Record<string, unknown>) => webhookBodyText(type, at.toISOString(), JSON.stringify(data));

/** The same text from its data already serialised (an orders batch joins it from parts): JSON.stringify({ type, timestamp, data }). */
export const webhookBodyText = (type: WebhookEventType, timestamp: string, dataJson: string) => `{"type":${JSON.stringify(type)},"timestamp":${JSON.stringify(timestamp)},"data":${dataJson}}`;

/** enqueueWebhookMessages for bodies already built (an orders batch builds them from parts made in the batch check's worker). */
export async function enqueueWebhookBodies(tx: Tx, events: readonly { type: WebhookEventType; pharmacyId: number; body: string }[]): Promise<void> {
  if (events.length === 0) return;
  const rows = JSON.stringify(
    events.map((event, index) => ({
      position: index,
      prefix: `msg_${randomUUID().replace(/-/g, "")}`,
      type: event.type,
      pharmacy_id: event.pharmacyId,
      body: event.body,
    })),
  );
  await tx.execute(sql`insert into ${webhookMessages} (subscription_id, event_id, event_type, body)
    select s.id, e.prefix || '_' || s.id, e.type, e.body
    from json_to_recordset(${rows}::json) as e(position integer, prefix text, type text, pharmacy_id integer, body text)
    join ${webhookSubscriptions} s on e.type = any(s.events) and (s.pharmacy_id is null or s.pharmacy_id = e.pharmacy_id)
    order by e.position, s.id`);
  setTimeout(nudgeSenders, 10).unref();
}
