import type { ApiFailure } from "../../domain/api-failure.ts";
import type { PaymentOutput } from "../../domain/payment-step.ts";

/**
 * The delivery-flow machine's events and actor outcomes, shared by its
 * model-based test (tests/unit/machines) and the same paths walked through
 * the screens (tests/ui/delivery): one catalogue, so both cover the same machine.
 */

export const PATIENT = 1;
export const OTHER = 2;
export const NO_RECIPIENT = 3;
export const CONTACTLESS = 4;

export const failure = (kind: ApiFailure["kind"], status: number | null, message = "nope"): ApiFailure => ({ kind, status, message, code: null });
export const SERVER = failure("server", 500);
export const REFUSED = failure("refused", 409, "Order 70 is delivered and cannot be marked as a failed delivery attempt.");

export const paid: PaymentOutput = { outcome: "collected", payment_type: "cash", amount: "17.50", new_copay: null, transaction_id: null, collected: true };
export const notCollected: PaymentOutput = { outcome: "not_collected", payment_type: "credit_card", amount: "0.00", new_copay: null, transaction_id: null, collected: false };
export const couldNotPay: PaymentOutput = { outcome: "could_not_pay", payment_type: null, amount: "0.00", new_copay: null, transaction_id: null, collected: false };
export const DONE = { queued: false, delivery: { id: 1, status: "delivered", order_ids: [70] } };
/** A call that failed on the network: answered with the entry to keep on the device, which the flow hands to the offline queue. */
export const QUEUED_ENTRY = {
  kind: "signature",
  id: 70,
  orderIds: [70],
  status: "delivered",
  delivery: { "delivery[order_ids][]": ["70"] },
  dataToSubmit: null,
  idempotencyKey: "00000000-0000-4000-8000-000000000070",
  payment: false,
  storedOn: "2026-11-21",
  createdAt: "2026-11-21T15:00:00.000Z",
} as const;
export const QUEUED = { queued: true, entry: QUEUED_ENTRY };

/** What the submit machine answers the flow: the call sent, kept on the device, or cancelled after it failed. */
export const SENT = { sent: true, queued: false };
export const SENT_QUEUED = { sent: true, queued: true };
export const CANCELLED = { sent: false, queued: false };

/** A photo as the phone's shrinker hands it over: a real (tiny) JPEG, since the UI shows it back. */
export const PHOTO = {
  data_url:
    "data:image/jpeg;base64,/9j/4AAQSkZJRgABAQEASABIAAD/2wBDAP//////////////////////////////////////////////////////////////////////////////////////wgALCAABAAEBAREA/8QAFBABAAAAAAAAAAAAAAAAAAAAAP/aAAgBAQABPxA=",
  media_type: "image/jpeg",
  bytes: 160,
  width: 1,
  height: 1,
  latitude: 39.9526,
  longitude: -75.1652,
} as const;

export const ID = { type: "driver", state: "PA", number: "D1234567", expiration: "12/31/2030" };

/** signatureSvg: what the pad yields in the test (the screens' test pad draws a fixed one). */
export function deliveryFlowEvents(signatureSvg: string) {
  return {
    present: { type: "PRESENT_AT_ADDRESS" },
    addressIncorrect: { type: "ADDRESS_INCORRECT" },
    dobVerified: { type: "DOB_VERIFIED" },
    dobNotVerified: { type: "DOB_NOT_VERIFIED" },
    confirm: { type: "CONFIRM" },
    cancel: { type: "CANCEL" },
    retry: { type: "RETRY" },
    continue: { type: "CONTINUE" },
    patient: { type: "SELECT_RELATIONSHIP", relationship_id: PATIENT },
    other: { type: "SELECT_RELATIONSHIP", relationship_id: OTHER },
    noRecipient: { type: "SELECT_RELATIONSHIP", relationship_id: NO_RECIPIENT },
    contactless: { type: "SELECT_RELATIONSHIP", relationship_id: CONTACTLESS },
    otherNames: { type: "RECIPIENT_CHANGED", changes: { first_name: "Bo", last_name: "Lee", other_description: "Son" } },
    names: { type: "RECIPIENT_CHANGED", changes: { first_name: "Harold", last_name: "Johnson" } },
    notes: { type: "RECIPIENT_CHANGED", changes: { courier_notes: "Nobody answered the door" } },
    group: { type: "SET_GROUPED", grouped: true },
    ungroup: { type: "SET_GROUPED", grouped: false },
    tick: { type: "TICK_FAILED" },
    untick: { type: "UNTICK_FAILED" },
    called: { type: "RECIPIENT_CALLED", at: "2026-11-21T15:20:00.000Z" },
    id: { type: "ID_CHANGED", changes: ID },
    noId: { type: "ID_NOT_PROVIDED" },
    sign: { type: "SIGNATURE_CHANGED", svg: signatureSvg },
    clearPad: { type: "SIGNATURE_CHANGED", svg: null },
    refuse: { type: "REFUSAL_CHANGED", reason: "refused", notes: "Would not sign" },
    survey: { type: "SURVEY_CHANGED", answers: { use_delivery_service_again: true } },
    // The photo machine the flow runs (machines/photo-proof.machine.ts): each photo it keeps, then Continue or Back.
    photo: { type: "PHOTO_CHANGED", photo: PHOTO },
    removePhoto: { type: "PHOTO_CHANGED", photo: null },
    photoContinue: { type: "xstate.done.actor.photo", output: { accepted: true } },
    back: { type: "xstate.done.actor.photo", output: { accepted: false } },
    paid: { type: "xstate.done.actor.payment", output: paid },
    notCollected: { type: "xstate.done.actor.payment", output: notCollected },
    couldNotPay: { type: "xstate.done.actor.payment", output: couldNotPay },
    // The submit machine the flow runs as child 'submit' (machines/delivery-submit.machine.ts): sent, kept for the offline queue, or cancelled after a failure.
    sent: { type: "xstate.done.actor.submit", output: SENT },
    sentQueued: { type: "xstate.done.actor.submit", output: SENT_QUEUED },
    sendCancelled: { type: "xstate.done.actor.submit", output: CANCELLED },
  } as const;
}
