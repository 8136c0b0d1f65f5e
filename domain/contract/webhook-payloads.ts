import type { z } from "zod";
import { WEBHOOK_EVENT_TYPES, WEBHOOK_PAYLOADS, type WebhookEventType } from "../webhook-events.ts";

/**
 * How the OpenAPI document's `webhooks` section names and describes each
 * event (docs/operations.md "Webhooks"). The bodies themselves are the one
 * schema per event, WEBHOOK_PAYLOADS in domain/webhook-events.ts, which the
 * sender's tests check every sent body against.
 */

/** Words for an event beyond its name; an event without them is described by its name ("order.rescheduled" → "Order rescheduled"). */
const DESCRIPTIONS: Partial<Record<WebhookEventType, string>> = {
  "order.created": "An order was created (one call, a batch row or a CSV import).",
  "order.assigned": "An order was put on a courier's day.",
  "order.rescheduled": "An assignment moved the order to another service day: data.from and data.to are the days before and after.",
  "order.picked_up": "The courier picked the order up at the pharmacy.",
  "order.cancelled": "The order was cancelled before pickup.",
  "order.delivered": "The order was delivered: its proof is ready.",
  "order.delivery_attempted": "A delivery was attempted and failed; the order goes back to the pharmacy.",
  "order.returned": "The order was returned to the pharmacy (signed by its staff).",
  "visit.confirmed": "A courier answered a pharmacy visit: confirmed may be false (declined).",
};

/** The JSON body POSTed for `type`, {type, timestamp, data}: the one schema per event, in domain/webhook-events.ts. */
export function webhookPayload(type: WebhookEventType): z.ZodObject {
  return WEBHOOK_PAYLOADS[type];
}

export function webhookSummary(type: WebhookEventType): string {
  const words = type.replace(/[._]/g, " ");
  return words.charAt(0).toUpperCase() + words.slice(1);
}

export function webhookDescription(type: WebhookEventType): string {
  return DESCRIPTIONS[type] ?? `${webhookSummary(type)}.`;
}

export { WEBHOOK_EVENT_TYPES };
