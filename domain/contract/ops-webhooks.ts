import { z } from "zod";
import { WEBHOOK_EVENT_TYPES } from "../webhook-events.ts";
import { BigPathId, PathId, QueryCount } from "./common.ts";
import { StoredText } from "./scalars.ts";

/**
 * Webhooks of the operations API (docs/operations.md "Webhooks"):
 * POST/GET /api/ops/v1/webhooks, DELETE .../{id}, GET .../{id}/deliveries,
 * POST .../{id}/deliveries/{deliveryId}/redeliver.
 */

export const WebhookEventType = z.enum(WEBHOOK_EVENT_TYPES, { error: `must be one of ${WEBHOOK_EVENT_TYPES.join(", ")}` });

export const WebhookCreateRequest = z
  .object({
    url: StoredText(2000, { min: 1 }).meta({ description: "http(s) URL the events are POSTed to; a public address unless the server allows private ones." }),
    events: z.array(WebhookEventType).min(1, "name at least one event").max(WEBHOOK_EVENT_TYPES.length * 2),
  })
  .strict();
export type WebhookCreateRequest = z.infer<typeof WebhookCreateRequest>;

export const WebhookSubscription = z.object({
  id: z.number().int(),
  url: z.string(),
  events: z.array(WebhookEventType),
  pharmacy_id: z.number().int().nullable().meta({ description: "Set for a pharmacy key's subscription: it hears that pharmacy's events only." }),
  created_at: z.string(),
});

/** 201: the signing secret is shown this once. */
export const WebhookCreateResponse = WebhookSubscription.extend({
  secret: z.string().meta({ description: "Standard Webhooks secret (whsec_ + base64): verify webhook-signature with it." }),
});
export const WebhookListResponse = z.object({ webhooks: z.array(WebhookSubscription) });

export const WebhookAttempt = z.object({
  status_code: z.number().int().nullable(),
  error: z.string().nullable(),
  attempted_at: z.string(),
  duration_ms: z.number().int(),
});

export const WebhookDelivery = z.object({
  id: z.number().int(),
  event_id: z.string().meta({ description: "The webhook-id header: the same on every attempt." }),
  event_type: WebhookEventType,
  status: z.enum(["pending", "delivered", "failed"]),
  attempts: z.array(WebhookAttempt),
  next_attempt_at: z.string().nullable(),
  created_at: z.string(),
  delivered_at: z.string().nullable(),
});
export const WebhookDeliveriesResponse = z.object({ deliveries: z.array(WebhookDelivery) });
/** GET /api/ops/v1/orders/{id}/webhook-deliveries: the webhooks sent about one order, oldest first, each with its subscription. */
export const OrderWebhookDelivery = WebhookDelivery.extend({
  subscription_id: z.number().int(),
  url: z.string().meta({ description: "The subscription's URL the event was sent to." }),
});
export type OrderWebhookDelivery = z.infer<typeof OrderWebhookDelivery>;
export const OrderWebhookDeliveriesResponse = z.object({ deliveries: z.array(OrderWebhookDelivery) });
export const WebhookRedeliverResponse = z.object({ delivery: WebhookDelivery });

export const WebhookDeliveryParams = z.object({ id: PathId, deliveryId: BigPathId });
export const WebhookDeliveriesQuery = z.object({
  limit: QueryCount(200, 50),
  before: BigPathId.optional(),
});
