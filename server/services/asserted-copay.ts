import { isValidCopay, MINIMUM_COPAY_CENTS } from "../../domain/copay.ts";
import { formatUsd, parseDecimalToCents, type Cents } from "../../domain/money.ts";
import { badRequest } from "../http/errors.ts";

/** The copay column is a PostgreSQL integer of cents. */
const MAX_COPAY_CENTS: Cents = 2_147_483_647;

/**
 * A copay the courier asserts at pickup (spec §5): "0.00" for no copay,
 * otherwise it must pass isValidCopay (at least $1.00). The same rule the
 * verify and add-on screens apply, enforced again here.
 */
export function assertedCopayCents(copay: string, what: string): Cents {
  const cents = parseDecimalToCents(copay);
  if (cents === 0) return 0;
  if (cents == null || !isValidCopay(copay)) {
    throw badRequest(`The copay for ${what} must be at least ${formatUsd(MINIMUM_COPAY_CENTS)}, or 0.00 for no copay.`);
  }
  if (cents > MAX_COPAY_CENTS) throw badRequest(`The copay for ${what} is too large.`);
  return cents;
}

/**
 * The audit details of an asserted copay (issue 25): its cents before and
 * after when the courier changed it ('No copay' on an order with one), null
 * when they confirmed the copay on file. No copay on file counts as 0.
 */
export function copayChange(before: Cents | null, after: Cents): { copay_before: Cents | null; copay_after: Cents } | null {
  return (before ?? 0) === after ? null : { copay_before: before, copay_after: after };
}
