import { z } from "zod";
import { ORDER_STATUS_NAMES } from "../vocabulary.ts";
import { WEBHOOK_EVENT_TYPES, type WebhookEventType } from "../webhook-events.ts";

/**
 * The body of each webhook event (docs/operations.md "Webhooks"), as the
 * OpenAPI document's `webhooks` section states it. Every event of a family
 * carries the same data: `order.*` the order, `visit.*` the visit; an event
 * added to WEBHOOK_EVENT_TYPES is described here without another line, and an
 * event of a new family does not typecheck until its data is stated.
 */

export const WebhookOrder = z
  .object({
    id: z.number().int(),
    external_id: z.string().nullable(),
    pharmacy_id: z.number().int(),
    courier_id: z.number().int().nullable(),
    service_date: z.string().meta({ description: "Calendar date, YYYY-MM-DD." }),
    status: z.enum(ORDER_STATUS_NAMES),
    updated_at: z.string().meta({ description: "ISO 8601 time of the change." }),
  })
  .meta({ description: "The order as an event carries it: no patient details (read them from the proof with the key)." });
export type WebhookOrder = z.infer<typeof WebhookOrder>;

export const WebhookVisit = z.object({
  id: z.number().int(),
  pharmacy_id: z.number().int(),
  courier_id: z.number().int(),
  service_date: z.string().meta({ description: "Calendar date, YYYY-MM-DD." }),
  confirmed: z.boolean().nullable().meta({ description: "The courier's availability answer; false when declined." }),
});
export type WebhookVisit = z.infer<typeof WebhookVisit>;

type Family = WebhookEventType extends `${infer F}.${string}` ? F : never;

const DATA_BY_FAMILY: Record<Family, z.ZodObject> = {
  order: z.object({ order: WebhookOrder }),
  visit: z.object({ visit: WebhookVisit }),
};

/** Words for an event beyond its name; an event without them is described by its name ("order.rescheduled" → "Order rescheduled"). */
const DESCRIPTIONS: Partial<Record<WebhookEventType, string>> = {
  "order.created": "An order was created (one call, a batch row or a CSV import).",
  "order.assigned": "An order was put on a courier's day.",
  "order.picked_up": "The courier picked the order up at the pharmacy.",
  "order.cancelled": "The order was cancelled before pickup.",
  "order.delivered": "The order was delivered: its proof is ready.",
  "order.delivery_attempted": "A delivery was attempted and failed; the order goes back to the pharmacy.",
  "order.returned": "The order was returned to the pharmacy (signed by its staff).",
  "visit.confirmed": "A courier answered a pharmacy visit: confirmed may be false (declined).",
};

export function webhookFamily(type: WebhookEventType): Family {
  return type.slice(0, type.indexOf(".")) as Family;
}

/** The JSON body POSTed for `type`: {type, timestamp, data}. */
export function webhookPayload(type: WebhookEventType) {
  return z.object({
    type: z.literal(type),
    timestamp: z.string().meta({ description: "ISO 8601 time of the event." }),
    data: DATA_BY_FAMILY[webhookFamily(type)],
  });
}

export function webhookSummary(type: WebhookEventType): string {
  const words = type.replace(/[._]/g, " ");
  return words.charAt(0).toUpperCase() + words.slice(1);
}

export function webhookDescription(type: WebhookEventType): string {
  return DESCRIPTIONS[type] ?? `${webhookSummary(type)}.`;
}

export { WEBHOOK_EVENT_TYPES };
