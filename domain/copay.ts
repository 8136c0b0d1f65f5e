import { centsToDecimal, parseDecimalToCents, type Cents } from "./money.ts";

/** Spec §5 / §9: the minimum copay is 1 dollar. */
export const MINIMUM_COPAY_CENTS: Cents = 100;

/** Spec §5: a copay must end with digit, point, two digits, and be at least $1.00. */
export function isValidCopay(value: string | null | undefined): boolean {
  if (value == null || !/\d\.\d{2}$/.test(value)) return false;
  const cents = parseDecimalToCents(value.replace(/[$,\s]/g, ""));
  return cents != null && cents >= MINIMUM_COPAY_CENTS;
}

/** Spec §5: copay is treated as absent when copay and delivery_fee are both null or '0.00'. */
export function isCopayAbsent(order: { copay: string | null; delivery_fee: string | null }): boolean {
  const none = (v: string | null) => v == null || v === "0.00";
  return none(order.copay) && none(order.delivery_fee);
}

/**
 * A copay already paid at pickup (copay_paid_at) is neither asked nor
 * corrected at the door; the fee and other items still are. The one reading
 * of copay_paid_at: the payment total, the payment step, the verify screen's
 * copay section and the row indicators.
 */
export function copayDueAtDoor(order: { copay_paid_at: string | null }): boolean {
  return !order.copay_paid_at;
}

/**
 * A corrected copay is refused once the copay was paid at pickup (copayDueAtDoor): the one
 * rule for the card authorization and the delivery's completion. Null when the correction
 * may stand (or there is none); otherwise the refusal, in the product's words.
 */
export function copayCorrectionRefusal(order: { copay_paid_at: string | null }, newCopayCents: Cents | null): string | null {
  if (newCopayCents == null || copayDueAtDoor(order)) return null;
  return "The copay on this order was already collected at pickup, so it cannot be corrected.";
}

/** Spec §5 Payment step: a corrected copay is valid only with at least 3 digits and not all zeros. */
export function isValidCorrectedCopay(value: string | null | undefined): boolean {
  if (value == null) return false;
  const digits = value.replace(/\D/g, "");
  return digits.length >= 3 && /[1-9]/.test(digits);
}

/** The copay as the courier answered it ("$1,234.50" typed, or 'No copay'), as the API's decimal string: "1234.50", "0.00"; null if unreadable. */
export function copayForApi(typed: string, noCopay = false): string | null {
  if (noCopay) return "0.00";
  return centsToDecimal(parseDecimalToCents(typed.replace(/[$,\s]/g, "")));
}

/** Spec §5: a copay is answered once 'No copay' is ticked or a valid copay is typed. */
export function copayAnswered(typed: string, noCopay: boolean): boolean {
  return noCopay || isValidCopay(typed);
}
