/**
 * Payment card rules both sides need: the browser's own card fields (when the
 * local sandbox gateway stands in for Braintree) and the sandbox gateway on
 * the server check a card the same way. Card data only ever passes through
 * these functions; nothing here keeps it.
 */

export type CardBrand = "visa" | "mastercard" | "american-express" | "discover" | "jcb" | "diners-club";

interface BrandRule {
  brand: CardBrand;
  /** The name Braintree gives the brand in a tokenized card's details. */
  displayName: string;
  /** Inclusive ranges of leading digits, compared on as many digits as the bounds have. */
  prefixes: [string, string][];
  lengths: number[];
  cvvLength: number;
}

const BRANDS: BrandRule[] = [
  { brand: "visa", displayName: "Visa", prefixes: [["4", "4"]], lengths: [13, 16, 19], cvvLength: 3 },
  {
    brand: "mastercard",
    displayName: "MasterCard",
    prefixes: [["51", "55"], ["2221", "2720"]],
    lengths: [16],
    cvvLength: 3,
  },
  { brand: "american-express", displayName: "American Express", prefixes: [["34", "34"], ["37", "37"]], lengths: [15], cvvLength: 4 },
  {
    brand: "diners-club",
    displayName: "Diners Club",
    prefixes: [["300", "305"], ["36", "36"], ["38", "39"]],
    lengths: [14, 16, 19],
    cvvLength: 3,
  },
  {
    brand: "discover",
    displayName: "Discover",
    prefixes: [["6011", "6011"], ["644", "649"], ["65", "65"]],
    lengths: [16, 19],
    cvvLength: 3,
  },
  { brand: "jcb", displayName: "JCB", prefixes: [["3528", "3589"]], lengths: [16, 17, 18, 19], cvvLength: 3 },
];

/** Spaces and dashes people type or paste are not part of the number. */
export function cardDigits(value: string): string {
  return value.replace(/[\s-]/g, "");
}

function ruleFor(digits: string): BrandRule | null {
  return (
    BRANDS.find((rule) =>
      rule.prefixes.some(([low, high]) => {
        if (digits.length < low.length) return false;
        const head = digits.slice(0, low.length);
        return head >= low && head <= high;
      }),
    ) ?? null
  );
}

/** The brand a (possibly partial) number belongs to, from its leading digits. */
export function cardBrand(number: string): CardBrand | null {
  return ruleFor(cardDigits(number))?.brand ?? null;
}

export function cardBrandName(brand: CardBrand): string {
  return BRANDS.find((rule) => rule.brand === brand)!.displayName;
}

/** The longest number the brand allows (for the input's mask). */
export function maxCardLength(brand: CardBrand | null): number {
  return brand ? Math.max(...BRANDS.find((rule) => rule.brand === brand)!.lengths) : 19;
}

/** The Luhn (mod 10) check digit test every card number passes. */
export function passesLuhn(digits: string): boolean {
  if (!/^\d+$/.test(digits)) return false;
  let sum = 0;
  let double = false;
  for (let i = digits.length - 1; i >= 0; i--) {
    let digit = Number(digits[i]);
    if (double) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
    double = !double;
  }
  return sum % 10 === 0;
}

/** A complete number of a known brand, of that brand's length, passing Luhn. */
export function isValidCardNumber(number: string): boolean {
  const digits = cardDigits(number);
  const rule = ruleFor(digits);
  return rule != null && rule.lengths.includes(digits.length) && passesLuhn(digits);
}

/** American Express has a 4-digit CID; the others a 3-digit CVV. Unknown brand: 3 or 4. */
export function cvvLengthsFor(brand: CardBrand | null): number[] {
  if (!brand) return [3, 4];
  return [BRANDS.find((rule) => rule.brand === brand)!.cvvLength];
}

export function isValidCvv(cvv: string, brand: CardBrand | null): boolean {
  return /^\d+$/.test(cvv) && cvvLengthsFor(brand).includes(cvv.length);
}

export interface CardExpiry {
  month: number;
  /** Four digits. */
  year: number;
}

/** "MM/YY" (or "MM/YYYY") → month and four-digit year; null when not a month of a year. */
export function parseExpiry(value: string): CardExpiry | null {
  const match = /^\s*(\d{1,2})\s*\/\s*(\d{2}|\d{4})\s*$/.exec(value);
  if (!match) return null;
  const month = Number(match[1]);
  const year = match[2]!.length === 2 ? 2000 + Number(match[2]) : Number(match[2]);
  if (month < 1 || month > 12) return null;
  return { month, year };
}

/** Cards are issued for at most this many years ahead; further is a typing slip. */
const MAX_YEARS_AHEAD = 20;

/**
 * A card is good through the last day of its expiry month, so the current
 * month is still valid. `today` is the device's (or server's) date.
 */
export function isValidExpiry(value: string, today: Date = new Date()): boolean {
  const expiry = parseExpiry(value);
  if (!expiry) return false;
  const thisYear = today.getFullYear();
  const thisMonth = today.getMonth() + 1;
  if (expiry.year < thisYear || (expiry.year === thisYear && expiry.month < thisMonth)) return false;
  return expiry.year <= thisYear + MAX_YEARS_AHEAD;
}
