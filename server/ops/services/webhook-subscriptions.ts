import { and, desc, eq, inArray, lt, sql, type SQL } from "drizzle-orm";
import { WEBHOOK_EVENT_TYPES, type WebhookEventType } from "../../../domain/webhook-events.ts";
import type { Db } from "../../db/client.ts";
import { webhookAttempts, webhookMessages, webhookSubscriptions } from "../../db/schema.ts";
import { badRequest, notFound } from "../../http/errors.ts";
import { scopedOrder } from "./proof/scope.ts";
import { nudgeSenders } from "../../services/webhooks/outbox.ts";
import { newWebhookSecret } from "../../services/webhooks/signing.ts";
import { checkWebhookUrl, type Resolver } from "../../services/webhooks/url-policy.ts";

/**
 * Webhook subscriptions, their deliveries and redelivery. What a key may see:
 * a dispatch key (pharmacyId null) every subscription; a pharmacy key the ones
 * made for its pharmacy. Anything else is "not found".
 */

export interface WebhookScope {
  /** The key acting. */
  keyId: number | null;
  /** null for a dispatch key. */
  pharmacyId: number | null;
}

type SubscriptionRow = typeof webhookSubscriptions.$inferSelect;
type MessageRow = typeof webhookMessages.$inferSelect;
type AttemptRow = typeof webhookAttempts.$inferSelect;

export function subscriptionView(row: SubscriptionRow) {
  return {
    id: row.id,
    url: row.url,
    events: row.events as WebhookEventType[],
    pharmacy_id: row.pharmacyId,
    created_at: row.createdAt.toISOString(),
  };
}

function deliveryView(row: MessageRow, attempts: AttemptRow[]) {
  return {
    id: row.id,
    event_id: row.eventId,
    event_type: row.eventType as WebhookEventType,
    status: row.status,
    attempts: attempts.map((attempt) => ({
      status_code: attempt.statusCode,
      error: attempt.error,
      attempted_at: attempt.attemptedAt.toISOString(),
      duration_ms: attempt.durationMs,
    })),
    next_attempt_at: row.status === "pending" ? row.nextAttemptAt.toISOString() : null,
    created_at: row.createdAt.toISOString(),
    delivered_at: row.deliveredAt ? row.deliveredAt.toISOString() : null,
  };
}

const inScope = (scope: WebhookScope): SQL | undefined =>
  scope.pharmacyId === null ? undefined : eq(webhookSubscriptions.pharmacyId, scope.pharmacyId);

export async function createSubscription(
  db: Db,
  scope: WebhookScope,
  request: { url: string; events: string[] },
  allowPrivate: boolean,
  resolve?: Resolver,
) {
  const events = [...new Set(request.events)];
  const unknown = events.find((event) => !(WEBHOOK_EVENT_TYPES as readonly string[]).includes(event));
  if (unknown) throw badRequest(`${unknown} is not a webhook event. The events are ${WEBHOOK_EVENT_TYPES.join(", ")}.`);
  if (events.length === 0) throw badRequest("Name at least one event.");
  const verdict = await checkWebhookUrl(request.url, allowPrivate, resolve);
  if (!verdict.ok) throw badRequest(verdict.reason);
  const secret = newWebhookSecret();
  const [row] = await db
    .insert(webhookSubscriptions)
    .values({ url: verdict.url.toString(), events, secret, pharmacyId: scope.pharmacyId, apiKeyId: scope.keyId })
    .returning();
  return { ...subscriptionView(row!), secret };
}

export async function listSubscriptions(db: Db, scope: WebhookScope) {
  const rows = await db.select().from(webhookSubscriptions).where(inScope(scope)).orderBy(webhookSubscriptions.id);
  return rows.map(subscriptionView);
}

async function ownSubscription(db: Db, scope: WebhookScope, id: number): Promise<SubscriptionRow> {
  const [row] = await db
    .select()
    .from(webhookSubscriptions)
    .where(and(eq(webhookSubscriptions.id, id), inScope(scope)));
  if (!row) throw notFound(`Webhook ${id}`);
  return row;
}

export async function deleteSubscription(db: Db, scope: WebhookScope, id: number): Promise<void> {
  await ownSubscription(db, scope, id);
  // Its undelivered messages and the attempts' history go with it (on delete cascade).
  await db.delete(webhookSubscriptions).where(eq(webhookSubscriptions.id, id));
}

/** Newest first, each with its attempts; `before` pages back by delivery id. */
export async function listDeliveries(db: Db, scope: WebhookScope, id: number, page: { limit: number; before?: number }) {
  await ownSubscription(db, scope, id);
  const rows = await db
    .select()
    .from(webhookMessages)
    .where(and(eq(webhookMessages.subscriptionId, id), page.before ? lt(webhookMessages.id, page.before) : undefined))
    .orderBy(desc(webhookMessages.id))
    .limit(page.limit);
  const attempts =
    rows.length === 0
      ? []
      : await db
          .select()
          .from(webhookAttempts)
          .where(inArray(webhookAttempts.messageId, rows.map((row) => row.id)))
          .orderBy(webhookAttempts.id);
  const byMessage = new Map<number, AttemptRow[]>();
  for (const attempt of attempts) byMessage.set(attempt.messageId, [...(byMessage.get(attempt.messageId) ?? []), attempt]);
  return rows.map((row) => deliveryView(row, byMessage.get(row.id) ?? []));
}

/** Sends a delivery again now, with the same webhook-id, whatever became of it; its retry schedule starts over. */
export async function redeliver(db: Db, scope: WebhookScope, id: number, deliveryId: number) {
  await ownSubscription(db, scope, id);
  const [row] = await db
    .update(webhookMessages)
    .set({ status: "pending", attempts: 0, nextAttemptAt: new Date(), deliveredAt: null })
    .where(and(eq(webhookMessages.id, deliveryId), eq(webhookMessages.subscriptionId, id)))
    .returning();
  if (!row) throw notFound(`Delivery ${deliveryId}`);
  nudgeSenders();
  const attempts = await db.select().from(webhookAttempts).where(eq(webhookAttempts.messageId, row.id)).orderBy(webhookAttempts.id);
  return deliveryView(row, attempts);
}


/** The most deliveries GET orders/{id}/webhook-deliveries answers: an order has a handful of events per subscription. */
export const MAX_ORDER_DELIVERIES = 200;

/**
 * The webhooks sent about one order (the console's order page, issue 27):
 * every delivery whose event names the order, oldest first, with its
 * subscription's URL and attempts. Scoped twice: the order must be the
 * caller's to see (else 404, like a missing one), and a pharmacy's caller
 * sees its own subscriptions' deliveries only, as GET webhooks/{id}/deliveries.
 * The events carry no patient details (domain/webhook-events.ts), so this read
 * is no view of patient data.
 */
export async function listOrderDeliveries(db: Db, scope: WebhookScope, orderId: number) {
  await scopedOrder(db, { pharmacyId: scope.pharmacyId }, orderId);
  const rows = await db
    .select({ message: webhookMessages, url: webhookSubscriptions.url })
    .from(webhookMessages)
    .innerJoin(webhookSubscriptions, eq(webhookSubscriptions.id, webhookMessages.subscriptionId))
    // Every order event's body is {type, timestamp, data: {order: {id, …}}} (server/services/webhooks/outbox.ts).
    .where(and(sql`(${webhookMessages.body}::jsonb #>> '{data,order,id}') = ${String(orderId)}`, inScope(scope)))
    .orderBy(webhookMessages.id)
    .limit(MAX_ORDER_DELIVERIES);
  const attempts =
    rows.length === 0
      ? []
      : await db
          .select()
          .from(webhookAttempts)
          .where(inArray(webhookAttempts.messageId, rows.map((row) => row.message.id)))
          .orderBy(webhookAttempts.id);
  const byMessage = new Map<number, AttemptRow[]>();
  for (const attempt of attempts) byMessage.set(attempt.messageId, [...(byMessage.get(attempt.messageId) ?? []), attempt]);
  return rows.map((row) => ({ ...deliveryView(row.message, byMessage.get(row.message.id) ?? []), subscription_id: row.message.subscriptionId, url: row.url }));
}
