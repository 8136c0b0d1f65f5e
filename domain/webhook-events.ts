import { z } from "zod";
import { ORDER_STATUS_NAMES } from "./vocabulary.ts";

/**
 * The webhook events (docs/operations.md "Webhooks"): one list shared by
 * the contract's schemas and the server's outbox.
 */
export const WEBHOOK_EVENT_TYPES = [
  "order.created",
  "order.assigned",
  "order.rescheduled",
  "order.picked_up",
  "order.cancelled",
  "order.delivered",
  "order.delivery_attempted",
  "order.returned",
  "visit.confirmed",
] as const;

export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

const Day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/).meta({ description: "A service day, YYYY-MM-DD." });

/** The order as an event carries it: who, where and what state, no patient details (the proof has those, behind the key). */
export const WebhookOrder = z.object({
  id: z.number().int(),
  external_id: z.string().nullable(),
  pharmacy_id: z.number().int(),
  courier_id: z.number().int().nullable(),
  service_date: Day,
  status: z.enum(ORDER_STATUS_NAMES),
  updated_at: z.string().meta({ description: "ISO 8601 time (UTC)." }),
});

/** The courier's availability answer for a pharmacy and day; confirmed may be false. */
export const WebhookVisit = z.object({
  id: z.number().int(),
  pharmacy_id: z.number().int(),
  courier_id: z.number().int(),
  service_date: Day,
  confirmed: z.boolean().nullable(),
});

const OrderData = z.object({ order: WebhookOrder });
/** order.rescheduled: the order moved from one service day to another (an assignment with another service_date). */
const RescheduledData = z.object({
  order: WebhookOrder,
  from: Day.meta({ description: "The service day the order had." }),
  to: Day.meta({ description: "The service day it has now (order.service_date)." }),
});
const VisitData = z.object({ visit: WebhookVisit });

function envelope<T extends WebhookEventType, D extends z.ZodType>(type: T, data: D) {
  return z.object({
    type: z.literal(type),
    timestamp: z.string().meta({ description: "When it happened, ISO 8601 (UTC)." }),
    data,
  });
}

/** Each event's body as POSTed to a subscription: the schemas the API document's webhooks section shows. */
export const WEBHOOK_PAYLOADS = {
  "order.created": envelope("order.created", OrderData),
  "order.assigned": envelope("order.assigned", OrderData),
  "order.rescheduled": envelope("order.rescheduled", RescheduledData),
  "order.picked_up": envelope("order.picked_up", OrderData),
  "order.cancelled": envelope("order.cancelled", OrderData),
  "order.delivered": envelope("order.delivered", OrderData),
  "order.delivery_attempted": envelope("order.delivery_attempted", OrderData),
  "order.returned": envelope("order.returned", OrderData),
  "visit.confirmed": envelope("visit.confirmed", VisitData),
} as const satisfies { [T in WebhookEventType]: z.ZodType };

/**
 * The retry schedule: after the nth failed attempt the next one is due within
 * RETRY_DELAYS_MS[n-1] (jittered down to half of it). After the last entry
 * the delivery is marked failed. Totals a little over two days.
 */
export const RETRY_DELAYS_MS = [
  10_000, // 1st retry within 10 s of the first failure
  60_000, // 2nd within a minute of the 1st retry
  5 * 60_000,
  30 * 60_000,
  2 * 3_600_000,
  6 * 3_600_000,
  12 * 3_600_000,
  24 * 3_600_000,
  24 * 3_600_000,
] as const;

/** Jittered delay: between half and all of the scheduled one, so a burst of failures does not retry in lockstep. */
export function retryDelayMs(failedAttempts: number, random: number, scale = 1): number | null {
  const base = RETRY_DELAYS_MS[failedAttempts - 1];
  if (base === undefined) return null;
  return Math.round(base * scale * (0.5 + random * 0.5));
}
