/**
 * Money is integer cents everywhere inside the product; the API and the spec
 * speak decimal strings with two places ("0.00" means none).
 */
export type Cents = number;

const DECIMAL_AMOUNT = /^\d+\.\d{2}$/;

/** "12.34" → 1234. Returns null for anything that is not a two-place decimal string. */
export function parseDecimalToCents(value: string | null | undefined): Cents | null {
  if (value == null) return null;
  const trimmed = value.trim();
  if (!DECIMAL_AMOUNT.test(trimmed)) return null;
  const [whole, fraction] = trimmed.split(".") as [string, string];
  const cents = Number(whole) * 100 + Number(fraction);
  return Number.isSafeInteger(cents) ? cents : null;
}

/** 1234 → "12.34"; null stays null. */
export function centsToDecimal(cents: Cents | null | undefined): string | null {
  if (cents == null) return null;
  if (!Number.isSafeInteger(cents)) throw new RangeError(`Not a whole number of cents: ${cents}`);
  const sign = cents < 0 ? "-" : "";
  const abs = Math.abs(cents);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, "0")}`;
}

/**
 * 1234 → "$12.34" for display, as Intl.NumberFormat("en-US", { style:
 * "currency", currency: "USD" }) writes it ("-$0.05", "$1,234.56"), but by
 * hand from the whole cents: a page's first Intl formatter initialises ICU's
 * number formatting, ~140 ms on a low-tier phone (issue 29), and the amounts
 * are exact integers that need no locale data.
 */
export function formatUsd(cents: Cents): string {
  const whole = Math.round(cents);
  const abs = Math.abs(whole);
  const dollars = String(Math.floor(abs / 100)).replace(/\B(?=(\d{3})+$)/g, ",");
  return `${whole < 0 ? "-" : ""}$${dollars}.${String(abs % 100).padStart(2, "0")}`;
}

/** A decimal string counts as "none" when absent or zero. */
export function isZeroOrAbsent(value: string | null | undefined): boolean {
  const cents = parseDecimalToCents(value ?? null);
  return cents == null || cents === 0;
}

/**
 * The largest amount one payment or one return line can carry: $99,999.99.
 * Every amount a request names is at most this (contract/scalars.ts), and so
 * is an order's total due: an order the courier could never be paid for, or
 * whose return line could never be handed back, is refused when it is made.
 */
export const AMOUNT_CEILING_CENTS: Cents = 9_999_999;

/** What an order asks at the door and what its return line carries: copay + delivery fee + other items. */
export function orderTotalDueCents(parts: { copay: Cents | null; deliveryFee: Cents | null; otherItems: Cents | null }): Cents {
  return (parts.copay ?? 0) + (parts.deliveryFee ?? 0) + (parts.otherItems ?? 0);
}

/** The money rule over an order: null when its total due fits one payment, else the reason in words. */
export function totalDueProblem(parts: { copay: Cents | null; deliveryFee: Cents | null; otherItems: Cents | null }): string | null {
  const total = orderTotalDueCents(parts);
  if (total <= AMOUNT_CEILING_CENTS) return null;
  return (
    `the total due (copay + delivery fee + other items) is ${centsToDecimal(total)}, ` +
    `more than ${centsToDecimal(AMOUNT_CEILING_CENTS)}, the largest amount one payment or one return line can carry`
  );
}
