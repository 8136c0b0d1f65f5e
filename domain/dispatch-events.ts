import { WEBHOOK_EVENT_TYPES } from "./webhook-events.ts";

/**
 * The live stream's events (issue 27, GET /api/ops/v1/events): every webhook
 * event, and the changes no webhook announces — an order taken off a
 * courier's day, an order edited, a card payment that failed, was declined
 * or was voided. Each message is the webhook envelope {type, timestamp,
 * data}: an order's id, pharmacy, courier, day and status, never patient
 * details (the console asks the API for those, and the read is audited).
 */
export const DISPATCH_EVENT_TYPES = [...WEBHOOK_EVENT_TYPES, "order.unassigned", "order.updated", "payment.failed"] as const;
export type DispatchEventType = (typeof DISPATCH_EVENT_TYPES)[number];
