import type { Address, Order, Pharmacy } from "./contract/entities.ts";
import { copayDueAtDoor, isValidCorrectedCopay, MINIMUM_COPAY_CENTS } from "./copay.ts";
import { isoToUsDate, usDateToIso } from "./dates.ts";
import { parseDecimalToCents, type Cents } from "./money.ts";
import {
  ID_TYPES,
  SIGNATURE_REFUSAL_REASONS,
  US_STATE_ABBREVIATIONS,
  type FailureReasonName,
  type IdTypeKey,
  type PaymentType,
} from "./vocabulary.ts";
import { COURIER_NOTES_MIN_LENGTH } from "./recipient.ts";

/**
 * Spec §4 "Delivery flow order" and §5 (Group Orders, ID, payment and
 * signature steps) as pure rules: the delivery-flow machine, the views and
 * POST /api/courier/deliveries ask the same questions here.
 */

// ---------------------------------------------------------------- delivery list

export interface DeliveryList<T> {
  /** Picked up and still to be delivered. */
  toDeliver: T[];
  /** Delivered. */
  completed: T[];
  /** 'Item(s) to return to pharmacy': attempted orders whose item has not gone back yet. */
  toReturn: T[];
}

/** Spec §2 Delivery list: the pharmacy's orders to deliver, the completed ones and the items to return. */
export function deliveryList<T extends Pick<Order, "status" | "item_returned"> & { pharmacy: Pick<Pharmacy, "id"> }>(
  orders: readonly T[],
  pharmacyId: number,
): DeliveryList<T> {
  const own = orders.filter((order) => order.pharmacy.id === pharmacyId);
  return {
    toDeliver: own.filter((order) => order.status.name === "picked_up"),
    completed: own.filter((order) => order.status.name === "delivered"),
    toReturn: own.filter((order) => order.status.name === "delivery_attempted" && !order.item_returned),
  };
}

/** Spec §2: 'All deliveries have been attempted' is enabled once no delivery is left, and there was one. */
export function allDeliveriesAttempted(orders: Parameters<typeof deliveryList>[0], pharmacyId: number): boolean {
  const list = deliveryList(orders, pharmacyId);
  return list.toDeliver.length === 0 && list.completed.length + list.toReturn.length > 0;
}

// ---------------------------------------------------------------- flow order

/** Spec §2: the date-of-birth step only when the pharmacy has dob_verification_enabled. */
export function dobVerificationNeeded(order: Pick<Order, "pharmacy">): boolean {
  return order.pharmacy.dob_verification_enabled;
}

/** The date the date-of-birth step shows to check (MM/DD/YYYY), or null: none on file ('Not available'). */
export function dobToCheck(order: Pick<Order, "patient_date_of_birth">): string | null {
  return isoToUsDate(order.patient_date_of_birth);
}

/**
 * A date of birth may be confirmed only when the step shows one to check
 * (docs/decisions/0011-a-date-of-birth-nobody-can-see-is-never-confirmed.md):
 * with none on file, 'Did not verify date of birth' is the courier's only
 * way on. The delivery-flow machine's guard and the server's completion
 * check are this one rule.
 */
export function dobCanBeVerified(order: Pick<Order, "patient_date_of_birth">): boolean {
  return dobToCheck(order) !== null;
}

/**
 * What a failed attempt records as dob_verified (issue 25): false when it
 * failed at 'Did not verify date of birth' (the question was asked and the
 * answer was no); null otherwise, as nothing about the date was decided.
 */
export function dobVerifiedAtFailure(reason: FailureReasonName): false | null {
  return reason === "Date of Birth Not Verified" ? false : null;
}

/** Spec §4: the ID step only when the order has collect_identification. */
export function identificationNeeded(order: Pick<Order, "collect_identification">): boolean {
  return order.collect_identification;
}

export type OwedOrder = Pick<
  Order,
  "copay" | "delivery_fee" | "other_items_amount_due" | "copay_paid_at" | "payment_collected" | "payment_authorized"
> & { pharmacy: Pick<Pharmacy, "allow_pod_copay_collection" | "payment_methods"> };

const cents = (value: string | null | undefined) => parseDecimalToCents(value ?? null) ?? 0;

/** The methods the pharmacy accepts at the door, in the spec's order (cash, check, card). */
export function allowedPaymentMethods(pharmacy: Pick<Pharmacy, "payment_methods">): PaymentType[] {
  const allowed = new Set(pharmacy.payment_methods.filter((method) => method.allowed).map((method) => method.type));
  return (["cash", "check", "card"] as const).filter((type) => allowed.has(type));
}

export function paymentMethodAllowed(pharmacy: Pick<Pharmacy, "payment_methods">, method: string | null | undefined): boolean {
  return method != null && (allowedPaymentMethods(pharmacy) as string[]).includes(method);
}

/** Payment is taken at the door only where the pharmacy allows it and accepts at least one method. */
export function collectsPaymentAtDoor(order: OwedOrder): boolean {
  return order.pharmacy.allow_pod_copay_collection && allowedPaymentMethods(order.pharmacy).length > 0;
}

/**
 * What the recipient pays for one order, as spec §9's return totals add it
 * up: the copay (or the courier's corrected copay), the delivery fee and other
 * items due. A copay already paid at pickup (copay_paid_at) is not asked
 * again; the fee and other items still are. Card authorization sends this as
 * `total`.
 */
export function paymentTotalCents(order: OwedOrder, newCopayCents: Cents | null = null): Cents {
  const parts = paymentPartsCents(order, newCopayCents);
  return parts.copay + parts.deliveryFee + parts.otherItems;
}

/** The lines paymentTotalCents adds up (the payment step shows them). */
export function paymentPartsCents(order: OwedOrder, newCopayCents: Cents | null = null): { copay: Cents; deliveryFee: Cents; otherItems: Cents } {
  return {
    copay: copayDueAtDoor(order) ? (newCopayCents ?? cents(order.copay)) : 0,
    deliveryFee: cents(order.delivery_fee),
    otherItems: cents(order.other_items_amount_due),
  };
}

/**
 * What is owed at the door, in cents: nothing where the pharmacy does not
 * collect at delivery (allow_pod_copay_collection off, or no method allowed)
 * or once a payment was collected or authorized; otherwise the payment total.
 */
export function amountOwedCents(order: OwedOrder): Cents {
  if (!collectsPaymentAtDoor(order) || order.payment_collected || order.payment_authorized) return 0;
  return paymentTotalCents(order);
}

/** Spec §4: the payment step only if copay or fee is due and the recipient is not skipped. */
export function paymentStepNeeded(order: OwedOrder, recipientSkipped: boolean): boolean {
  return !recipientSkipped && amountOwedCents(order) > 0;
}

/**
 * A corrected copay in cents, or null when it is not a valid correction:
 * spec §5, at least 3 digits and not all zeros; spec §9, a copay is at least
 * 1 dollar (the card authorization refuses less). Entered as a dollar amount
 * with two decimals, "$12.50" or "12.50".
 */
export function correctedCopayCents(value: string | null | undefined): Cents | null {
  if (!isValidCorrectedCopay(value)) return null;
  const cents = parseDecimalToCents(value!.replace(/[$,\s]/g, ""));
  return cents != null && cents >= MINIMUM_COPAY_CENTS ? cents : null;
}

// ---------------------------------------------------------------- group orders

export type GroupOrder = OwedOrder & Pick<Order, "id" | "status" | "controlled_substance" | "collect_identification" | "address">;

/**
 * Spec §5: 'Group Orders' is offered only when the order has no payment due,
 * is not a controlled substance and needs no ID.
 */
export function groupOrdersOffered(order: GroupOrder): boolean {
  return amountOwedCents(order) === 0 && !order.controlled_substance && !order.collect_identification;
}

const norm = (value: string | null | undefined) => (value ?? "").trim().replace(/\s+/g, " ").toLowerCase();

/** Two orders go to the same door: street, second line, city, state and zip, ignoring case and spacing. */
export function sameAddress(a: Pick<Address, "street_address" | "street_address_2" | "city" | "state_abbreviation" | "zipcode">, b: typeof a): boolean {
  return (
    norm(a.street_address) === norm(b.street_address) &&
    norm(a.street_address_2) === norm(b.street_address_2) &&
    norm(a.city) === norm(b.city) &&
    norm(a.state_abbreviation) === norm(b.state_abbreviation) &&
    norm(a.zipcode).slice(0, 5) === norm(b.zipcode).slice(0, 5)
  );
}

/**
 * Spec §5 eligible orders: picked up, same pharmacy, copay 0.00, no or zero
 * delivery fee, no ID collection; and, as a group is one handover, the same
 * address. The copay must be the string "0.00" (the spec says "no or zero"
 * only of the fee).
 */
export function groupableWith(order: GroupOrder & { pharmacy: Pick<Pharmacy, "id"> }, candidate: GroupOrder & { pharmacy: Pick<Pharmacy, "id"> }): boolean {
  return (
    candidate.id !== order.id &&
    candidate.status.name === "picked_up" &&
    candidate.pharmacy.id === order.pharmacy.id &&
    candidate.copay === "0.00" &&
    cents(candidate.delivery_fee) === 0 &&
    !candidate.collect_identification &&
    sameAddress(candidate.address, order.address)
  );
}

/** The orders the courier may group with this one (none when grouping is not offered). */
export function groupableOrders<T extends GroupOrder & { pharmacy: Pick<Pharmacy, "id"> }>(order: T, candidates: readonly T[]): T[] {
  if (!groupOrdersOffered(order)) return [];
  return candidates.filter((candidate) => groupableWith(order, candidate));
}

// ---------------------------------------------------------------- ID step

export interface IdentificationForm {
  type: string | null;
  state: string;
  number: string;
  /** MM/DD/YYYY as typed through the mask. */
  expiration: string;
}

export const EMPTY_IDENTIFICATION: IdentificationForm = { type: null, state: "", number: "", expiration: "" };

export const ID_NUMBER_MAX_LENGTH = 32;

export function isIdType(value: string | null | undefined): value is IdTypeKey {
  return ID_TYPES.some((type) => type.key === value);
}

/** Spec §5: state is required unless passport or military (and disabled for those). */
export function idStateRequired(type: string | null | undefined): boolean {
  return type !== "passport" && type !== "military";
}

export type IdentificationField = keyof IdentificationForm;

/**
 * Spec §5 ID step: type, number and expiry are required; state too unless
 * passport or military. The expiry is MM/DD/YYYY, a real date, and not in
 * the past (an ID expiring today is still valid today). `today` is the
 * courier's calendar day, "YYYY-MM-DD".
 */
export function identificationProblems(form: IdentificationForm, today: string): Partial<Record<IdentificationField, string>> {
  const problems: Partial<Record<IdentificationField, string>> = {};
  if (!isIdType(form.type)) problems.type = "Choose the ID type.";
  if (idStateRequired(form.type) && !(US_STATE_ABBREVIATIONS as readonly string[]).includes(form.state.trim().toUpperCase())) {
    problems.state = "Choose the state that issued the ID.";
  }
  const number = form.number.trim();
  if (number === "") problems.number = "Enter the ID number.";
  else if (number.length > ID_NUMBER_MAX_LENGTH) problems.number = `ID number: at most ${ID_NUMBER_MAX_LENGTH} characters.`;
  else if (!/^[A-Za-z0-9 -]+$/.test(number)) problems.number = "ID number: letters, digits, spaces and dashes only.";
  const expiry = usDateToIso(form.expiration);
  if (expiry == null) problems.expiration = "Enter the expiry date as MM/DD/YYYY.";
  else if (expiry < today) problems.expiration = "This ID has expired.";
  return problems;
}

export function identificationComplete(form: IdentificationForm, today: string): boolean {
  return Object.keys(identificationProblems(form, today)).length === 0;
}

/** The ID as it is stored and sent: trimmed, state dropped for passport and military, expiry as YYYY-MM-DD. */
export function normalizedIdentification(form: IdentificationForm): {
  identification_type: IdTypeKey;
  identification_state: string | null;
  identification_number: string;
  identification_expiration: string;
} | null {
  const expiration = usDateToIso(form.expiration);
  if (!isIdType(form.type) || expiration == null) return null;
  return {
    identification_type: form.type,
    identification_state: idStateRequired(form.type) ? form.state.trim().toUpperCase() : null,
    identification_number: form.number.trim(),
    identification_expiration: expiration,
  };
}

// ---------------------------------------------------------------- signature step

export interface SignatureForm {
  /** The pad holds a signature. */
  signed: boolean;
  /** The no-signature reason's key, when the box is ticked. */
  refusal_reason: string | null;
  refusal_notes: string;
}

export const EMPTY_SIGNATURE_FORM: SignatureForm = { signed: false, refusal_reason: null, refusal_notes: "" };

export const PHYSICALLY_UNABLE = "physically_unable";

export function isSignatureRefusalReason(
  key: string | null | undefined,
  reasons: readonly { key: string }[] = SIGNATURE_REFUSAL_REASONS,
): boolean {
  return key != null && reasons.some((reason) => reason.key === key);
}

/** Spec §5: reason 'physically_unable' counts as signed. */
export function countsAsSigned(form: SignatureForm): boolean {
  return form.signed || form.refusal_reason === PHYSICALLY_UNABLE;
}

/**
 * Spec §5 Signature step: Continue requires the pad to be signed. Without
 * signing, the no-signature box (only when the pharmacy can_skip_signature)
 * needs a reason from the order's list and notes of at least 3 characters;
 * 'physically_unable' counts as signed and needs neither pad nor notes.
 */
export function signatureProblem(
  form: SignatureForm,
  order: { pharmacy: Pick<Pharmacy, "can_skip_signature">; signature_refusal_reasons?: readonly { key: string }[] },
): string | null {
  if (form.signed) return null;
  if (form.refusal_reason == null) return "The recipient must sign.";
  if (!order.pharmacy.can_skip_signature) return "This pharmacy requires a signature.";
  if (!isSignatureRefusalReason(form.refusal_reason, order.signature_refusal_reasons ?? SIGNATURE_REFUSAL_REASONS)) {
    return "Choose a reason for not signing.";
  }
  if (countsAsSigned(form)) return null;
  if (form.refusal_notes.trim().length < COURIER_NOTES_MIN_LENGTH) {
    return `Notes: at least ${COURIER_NOTES_MIN_LENGTH} characters.`;
  }
  return null;
}

export function signatureComplete(form: SignatureForm, order: Parameters<typeof signatureProblem>[1]): boolean {
  return signatureProblem(form, order) == null;
}
