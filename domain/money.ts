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
 * Made on first use, not when the app loads: a page's first Intl formatter
 * costs ~8 ms (tens on a slow phone), and most first screens show no money.
 */
let usd: Intl.NumberFormat | undefined;

/** 1234 → "$12.34" for display. */
export function formatUsd(cents: Cents): string {
  usd ??= new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" });
  return usd.format(cents / 100);
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
