/**
 * The webhook events (docs/operations.md "Webhooks"): one list shared by
 * the contract's schemas and the server's outbox.
 */
export const WEBHOOK_EVENT_TYPES = [
  "order.created",
  "order.assigned",
  "order.picked_up",
  "order.cancelled",
  "order.delivered",
  "order.delivery_attempted",
  "order.returned",
  "visit.confirmed",
] as const;

export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

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
