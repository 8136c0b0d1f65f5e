import type { PaymentOutput } from "./payment-step.ts";
import { DELIVERY_STEPS, type DeliveryRecord, type DeliveryStep } from "./delivery-record.ts";

/**
 * A delivery in progress as the courier entered it, kept on the phone so a
 * reload (a dead battery, the OS closing the browser) brings the courier back
 * to the same place with what they entered. Plain data the domain owns — not
 * a machine's snapshot — so it survives a change to the machine: the
 * delivery-flow machine starts from it (its input) at the place it names.
 *
 * Never card data: a payment is in the draft only once the payment step has
 * collected it; a reload during the payment step asks for the method again.
 */

export const DELIVERY_DRAFT_VERSION = 1;

/** Where the courier was: a step of the wizard, the photo of the drop-off after the recipient or signature step, or a call being sent. */
export const DRAFT_PLACES = [
  ...DELIVERY_STEPS,
  "recipientPhoto",
  "signaturePhoto",
  "sendingFailure",
  "sendingRecipient",
  "sendingDelivery",
] as const;
export type DraftPlace = (typeof DRAFT_PLACES)[number];

/** What the steps recorded (the payment as the payment step answered); the order itself comes from the day when the flow starts again. */
export type DraftRecord = Omit<DeliveryRecord, "order" | "payment"> & { payment: PaymentOutput | null };

export interface DeliveryDraft {
  version: typeof DELIVERY_DRAFT_VERSION;
  orderId: number;
  place: DraftPlace;
  /** Steps entered so far (a deep link may go back to one of these). */
  reached: DeliveryStep[];
  record: DraftRecord;
}

/** A call was being sent when the draft was kept: it must be sent again, whatever the order's status says now. */
export const isSending = (draft: DeliveryDraft): boolean => draft.place.startsWith("sending");

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === "object" && value !== null && !Array.isArray(value);
const RECORD_OBJECTS = ["recipient", "identification", "signature", "survey"] as const;

/** The draft read back from storage for this order, or null when it is not one this version wrote. */
export function deliveryDraftOf(value: unknown, orderId: number): DeliveryDraft | null {
  if (!isObject(value) || value.version !== DELIVERY_DRAFT_VERSION || value.orderId !== orderId) return null;
  if (typeof value.place !== "string" || !(DRAFT_PLACES as readonly string[]).includes(value.place)) return null;
  const reached = value.reached;
  if (!Array.isArray(reached) || !reached.every((step) => (DELIVERY_STEPS as readonly unknown[]).includes(step))) return null;
  const record = value.record;
  if (!isObject(record) || !RECORD_OBJECTS.every((key) => isObject(record[key]))) return null;
  if (!Array.isArray(record.groupedOrderIds) || typeof record.dobVerified !== "boolean") return null;
  return value as unknown as DeliveryDraft;
}
