/**
 * What the local sandbox gateway does with each card and amount. It mirrors
 * Braintree's sandbox testing values (developer.paypal.com/braintree/docs/reference/general/testing)
 * so that switching to a real Braintree sandbox account changes nothing a
 * tester does. docs/payments.md lists them for people.
 */
import type { Cents } from "../../domain/money.ts";

export type CardBehaviour =
  | { kind: "approve" }
  /** Processor declined with a 2000-class response. */
  | { kind: "decline"; code: number }
  /** Gateway rejected by fraud tools (Braintree's 4000111111111511). */
  | { kind: "fraud" }
  /** The processor network is down (3000): our own choice of number, Braintree has none. */
  | { kind: "outage" };

/** Braintree's "valid card numbers": these authorize (unless the amount says otherwise). */
export const APPROVED_TEST_CARDS: readonly string[] = [
  "4111111111111111",
  "4005519200000004",
  "4009348888881881",
  "4012000033330026",
  "4012000077777777",
  "4012888888881881",
  "4217651111111119",
  "4500600000000061",
  "5555555555554444",
  "2223000048400011",
  "378282246310005",
  "371449635398431",
  "6011111111111117",
  "6011000991300009",
  "3530111333300000",
  "36259600000004",
];

/** Braintree's "card numbers for unsuccessful verification": processor declined 2000 Do Not Honor. */
export const DECLINED_TEST_CARDS: readonly string[] = [
  "4000111111111115",
  "5105105105105100",
  "378734493671000",
  "6011000990139424",
  "3566002020360505",
];

export const FRAUD_TEST_CARD = "4000111111111511";

/** Answers every authorization with 3000 Processor Network Unavailable (read: "4000 3000 …"). */
export const OUTAGE_TEST_CARD = "4000300000000006";

export function cardBehaviour(digits: string): CardBehaviour | null {
  if (APPROVED_TEST_CARDS.includes(digits)) return { kind: "approve" };
  if (DECLINED_TEST_CARDS.includes(digits)) return { kind: "decline", code: 2000 };
  if (digits === FRAUD_TEST_CARD) return { kind: "fraud" };
  if (digits === OUTAGE_TEST_CARD) return { kind: "outage" };
  return null;
}

/** Braintree's authorization response texts for the 2000 class; other codes read "Processor Declined". */
const DECLINE_TEXTS: Record<number, string> = {
  2000: "Do Not Honor",
  2001: "Insufficient Funds",
  2002: "Limit Exceeded",
  2003: "Cardholder's Activity Limit Exceeded",
  2004: "Expired Card",
  2005: "Invalid Credit Card Number",
  2006: "Invalid Expiration Date",
  2007: "No Account",
  2008: "Card Account Length Error",
  2009: "No Such Issuer",
  2010: "Card Issuer Declined CVV",
  2011: "Voice Authorization Required",
  2012: "Processor Declined - Possible Lost Card",
  2013: "Processor Declined - Possible Stolen Card",
  2014: "Processor Declined - Fraud Suspected",
  2015: "Transaction Not Allowed",
  2016: "Duplicate Transaction",
  2038: "Processor Declined",
  2044: "Declined - Call Issuer",
  2046: "Declined",
  2047: "Call Issuer. Pick Up Card",
};

export function declineText(code: number): string {
  return `${code} ${DECLINE_TEXTS[code] ?? "Processor Declined"}`;
}

export const PROCESSOR_UNAVAILABLE_TEXT = "3000 Processor Network Unavailable - Try Again";
export const APPROVED_TEXT = "1000 Approved";

export type AmountBehaviour =
  | { kind: "approve" }
  | { kind: "decline"; code: number }
  | { kind: "outage" }
  | { kind: "gateway_rejected"; reason: string };

/**
 * Braintree's sandbox amount rules: $2000.00–$2999.99 decline with the
 * processor response equal to the whole dollars, $3000.00–$3000.99 fail with
 * 3000, $5001.00 is gateway rejected (application_incomplete).
 */
export function amountBehaviour(amountCents: Cents): AmountBehaviour {
  if (amountCents >= 200_000 && amountCents <= 299_999) return { kind: "decline", code: Math.floor(amountCents / 100) };
  if (amountCents >= 300_000 && amountCents <= 300_099) return { kind: "outage" };
  if (amountCents === 500_100) return { kind: "gateway_rejected", reason: "application_incomplete" };
  return { kind: "approve" };
}
