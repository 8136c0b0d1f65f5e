import type { OpsOrder } from "./contract/ops.ts";
import { calendarDate } from "./dates.ts";
import { clockMinutes } from "./time-of-day.ts";

/**
 * What on the day board needs someone's decision (issue 27, 'Needs
 * attention'), in one place: the board lists what this says, with what to do
 * next in words. Three things:
 * - a delivery attempted and not yet returned to the pharmacy;
 * - a card payment that failed, was declined or was voided;
 * - an order not yet picked up within an hour of its pharmacy's closing time
 *   (none while the pharmacy has no closing_time).
 */
export type AttentionKind = "attempted_not_returned" | "card_payment_failed" | "card_payment_voided" | "pickup_before_closing";

export interface Attention {
  kind: AttentionKind;
  /** Why, in words. */
  reason: string;
  /** What to do next, in words. */
  next: string;
}

/** How long before the pharmacy closes an order not yet picked up needs attention. */
export const PICKUP_WARNING_MINUTES = 60;

const NOT_PICKED_UP = new Set<OpsOrder["status"]["name"]>(["new", "submitted_to_courier"]);

export type AttentionOrder = Pick<OpsOrder, "status" | "service_date" | "courier_id" | "card_payment_status"> & {
  pharmacy: Pick<OpsOrder["pharmacy"], "name" | "closing_time">;
};

/** The service's calendar day and time of day ("HH:MM") of an instant. */
export function serviceClock(now: Date, timeZone: string): { day: string; minutes: number } {
  const parts = new Intl.DateTimeFormat("en-GB", { timeZone, hour: "2-digit", minute: "2-digit", hourCycle: "h23" }).formatToParts(now);
  const get = (type: string) => Number(parts.find((part) => part.type === type)?.value ?? 0);
  return { day: calendarDate(now, timeZone), minutes: get("hour") * 60 + get("minute") };
}

/** Every reason this order needs attention now (empty: it needs none). */
export function attentionFor(order: AttentionOrder, clock: { day: string; minutes: number }): Attention[] {
  const status = order.status.name;
  const found: Attention[] = [];
  if (status === "delivery_attempted") {
    found.push({
      kind: "attempted_not_returned",
      reason: "Delivery attempted, not yet returned to the pharmacy.",
      next: "The courier brings it back to the pharmacy, where staff sign for the return; then reschedule it with the patient.",
    });
  }
  if (status !== "cancelled" && (order.card_payment_status === "failed" || order.card_payment_status === "declined")) {
    found.push({
      kind: "card_payment_failed",
      reason: "The card payment failed.",
      next: "Call the patient for another card, or have the courier collect cash or a check if the pharmacy allows it.",
    });
  }
  if (status !== "cancelled" && order.card_payment_status === "voided") {
    found.push({
      kind: "card_payment_voided",
      reason: "The card payment was voided: the patient was not charged.",
      next: "Collect the payment again when the order is delivered again, or agree another way to pay with the pharmacy.",
    });
  }
  const closing = order.pharmacy.closing_time;
  if (closing && NOT_PICKED_UP.has(status) && order.service_date <= clock.day) {
    const late = order.service_date < clock.day || clock.minutes >= clockMinutes(closing) - PICKUP_WARNING_MINUTES;
    if (late) {
      found.push({
        kind: "pickup_before_closing",
        reason: `Not picked up, and ${order.pharmacy.name} closes at ${closing}.`,
        next:
          order.courier_id === null
            ? `Assign a courier who can reach ${order.pharmacy.name} before ${closing}.`
            : `Call the courier: they must pick it up before ${closing}, or move it to a courier who can.`,
      });
    }
  }
  return found;
}
