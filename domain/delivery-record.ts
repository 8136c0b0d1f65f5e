import type {
  DeliveryCompletion,
  DeliverySurvey,
  FailureSubmission,
  RecipientSubmission,
  WirePaymentType,
} from "./contract/delivery-submissions.ts";
import type { Order } from "./contract/entities.ts";
import type { DeliveryPhoto } from "./delivery-photo.ts";
import {
  dobVerificationNeeded,
  identificationNeeded,
  normalizedIdentification,
  type IdentificationForm,
  type SignatureForm,
} from "./delivery-rules.ts";
import { isOther, recipientFullName, recipientSkipped, relationshipName, type RecipientForm } from "./recipient.ts";
import type { FailureReasonName } from "./vocabulary.ts";

/**
 * What one delivery records at the door, and the three request bodies built
 * from it (spec §7 failed delivery, recipient submission, delivery
 * completion). The delivery-flow machine keeps a DeliveryRecord in its context
 * and gives these bodies to its submit actors.
 */

/** Spec §4 "Delivery flow order": the wizard's steps, in order. */
export const DELIVERY_STEPS = ["address", "verifyDob", "recipient", "idVerification", "payment", "signature"] as const;
export type DeliveryStep = (typeof DELIVERY_STEPS)[number];

export const EMPTY_SURVEY: DeliverySurvey = {
  have_you_left_prescription_at_pharmacy: null,
  use_delivery_service_again: null,
  refill_reminder_opt_in: null,
};

/** The reason a step gives for a failed delivery, before the courier confirms it. */
export interface FailureAsked {
  reason: FailureReasonName;
  /** The step it is given at (where Cancel returns). */
  step: DeliveryStep;
}

/**
 * The courier's answers at a step that ask to confirm a failed delivery, by the
 * delivery flow's event: the reason each gives, and the step it is given at.
 */
export const FAILURE_ANSWERS = {
  ADDRESS_INCORRECT: { reason: "Incorrect Address", step: "address" },
  DOB_NOT_VERIFIED: { reason: "Date of Birth Not Verified", step: "verifyDob" },
  ID_NOT_PROVIDED: { reason: "ID Not Provided", step: "idVerification" },
} as const satisfies Record<string, FailureAsked>;
export type FailureAnswer = keyof typeof FAILURE_ANSWERS;

/** The failed delivery a courier's answer asks to confirm; null for any other event. */
export const failureAskedBy = (eventType: string): FailureAsked | null =>
  Object.hasOwn(FAILURE_ANSWERS, eventType) ? FAILURE_ANSWERS[eventType as FailureAnswer] : null;

/** The recipient step's 'Failed delivery' tick (recorded with the courier's notes). */
export const FAILED_TICK = { reason: "Patient Not Home", step: "recipient" } as const satisfies FailureAsked;

/** 'Unable to pay', confirmed in the payment step itself. */
export const COULD_NOT_PAY = { reason: "Patient Could Not Provide Copayment", step: "payment" } as const satisfies FailureAsked;

interface PendingFailure extends FailureAsked {
  occurred_at: string;
  /** Courier notes, for the recipient step's failed tick. */
  body: string | null;
}

interface SignatureEntry extends Omit<SignatureForm, "signed"> {
  /** The pad's SVG (signature.svg), null while unsigned. */
  svg: string | null;
}

/** What the payment step collected (the payment machine's output has this shape). */
interface CollectedPayment {
  payment_type: WirePaymentType | null;
  /** What was collected, "17.50"; "0.00" when nothing was. */
  amount: string;
  new_copay: string | null;
  transaction_id: string | null;
  collected: boolean;
}

export interface DeliveryRecord {
  order: Order;
  groupedOrderIds: number[];
  dobVerified: boolean;
  recipientCalledAt: string | null;
  recipient: RecipientForm;
  identification: IdentificationForm;
  payment: CollectedPayment | null;
  signature: SignatureEntry;
  survey: DeliverySurvey;
  failure: PendingFailure | null;
  /** The photo of the drop-off where nobody signs (shrunk on the phone, EXIF stripped), or null. */
  photo: DeliveryPhoto | null;
  /** When the delivery was completed or submitted (client_occurred_at). */
  occurredAt: string | null;
}

const now = () => new Date().toISOString();

/** The orders one submission covers: this one and those grouped with it. */
export const orderIdsOf = (record: Pick<DeliveryRecord, "order" | "groupedOrderIds">) => [record.order.id, ...record.groupedOrderIds];

/** POST /courier/deliveries {delivery:{failure_reason, client_occurred_at, order_ids}}. */
export function failureSubmissionOf(record: DeliveryRecord): FailureSubmission {
  const failure = record.failure!;
  return {
    failure_reason: failure.reason,
    client_occurred_at: failure.occurred_at,
    order_ids: orderIdsOf(record),
    ...(failure.body ? { body: failure.body } : {}),
  };
}

/** Spec §7 "Recipient submission". */
export function recipientSubmissionOf(record: DeliveryRecord): RecipientSubmission {
  return {
    order_ids: orderIdsOf(record),
    relationship: relationshipName(record.recipient.relationship_id) ?? "",
    relationship_id: record.recipient.relationship_id!,
    recipient_called_at: record.recipientCalledAt,
    client_occurred_at: record.occurredAt ?? now(),
    body: record.recipient.courier_notes.trim(),
    photo: record.photo,
  };
}

/** Spec §7 "Delivery completion": everything the steps collected. */
export function deliveryCompletionOf(record: DeliveryRecord): DeliveryCompletion {
  const { recipient, signature, payment } = record;
  const signed = signature.svg != null;
  const refusal = signed ? null : signature.refusal_reason;
  const id = identificationNeeded(record.order) ? normalizedIdentification(record.identification) : null;
  const text = (value: string) => (value.trim() === "" ? null : value.trim());
  return {
    order_ids: orderIdsOf(record),
    signature_svg: signature.svg,
    body: refusal ? text(signature.refusal_notes) : null,
    signed_by: signed ? recipientFullName(recipient) : null,
    dob_verified: dobVerificationNeeded(record.order) ? record.dobVerified : null,
    recipient_called_at: record.recipientCalledAt,
    client_occurred_at: record.occurredAt ?? now(),
    relationship_id: recipient.relationship_id!,
    recipient_first_name: text(recipient.first_name),
    recipient_last_name: text(recipient.last_name),
    other_relationship_description: isOther(recipient) ? text(recipient.other_description) : null,
    survey: record.survey,
    order_payment:
      payment?.collected && payment.payment_type
        ? { payment_type: payment.payment_type, amount: payment.amount, new_copay: payment.new_copay, transaction_id: payment.transaction_id }
        : null,
    identification_state: id?.identification_state ?? null,
    identification_type: id?.identification_type ?? null,
    identification_number: id?.identification_number ?? null,
    identification_expiration: id?.identification_expiration ?? null,
    signature_refusal_reason: refusal,
    // A photo only where nobody signed (the courier may have gone back and had the recipient sign after all).
    photo: signed ? null : record.photo,
  };
}

/** The delivery's call (spec §7), as the record makes it: the submit machine sends it. */
export type DeliverySubmission =
  | { kind: "failure"; body: FailureSubmission }
  | { kind: "recipient"; body: RecipientSubmission }
  | { kind: "delivery"; body: DeliveryCompletion };

/**
 * Which call the record is ready for: a failure once one is recorded; the
 * recipient submission when nobody signs for it (No Recipient, contactless —
 * the signature step is never reached then); the completion otherwise.
 */
export function submissionKindOf(record: Pick<DeliveryRecord, "failure" | "recipient">): DeliverySubmission["kind"] {
  if (record.failure) return "failure";
  return recipientSkipped(record.recipient) ? "recipient" : "delivery";
}

export function submissionOf(record: DeliveryRecord): DeliverySubmission {
  switch (submissionKindOf(record)) {
    case "failure":
      return { kind: "failure", body: failureSubmissionOf(record) };
    case "recipient":
      return { kind: "recipient", body: recipientSubmissionOf(record) };
    default:
      return { kind: "delivery", body: deliveryCompletionOf(record) };
  }
}

/** The step a call is sent from: where the courier waits, and returns to when it is cancelled after failing. */
export function submittedFrom(record: Pick<DeliveryRecord, "failure" | "recipient">): DeliveryStep {
  const kind = submissionKindOf(record);
  return kind === "failure" ? (record.failure?.step ?? "address") : kind === "recipient" ? "recipient" : "signature";
}
