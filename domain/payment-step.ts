import { failureText, type ApiFailure } from "./api-failure.ts";
import type { WirePaymentType } from "./contract/delivery-submissions.ts";
import type { Order } from "./contract/entities.ts";
import { correctedCopayCents, paymentTotalCents } from "./delivery-rules.ts";
import { centsToDecimal } from "./money.ts";
import { TEXT } from "./texts.ts";
import type { PaymentType } from "./vocabulary.ts";

/**
 * The payment step's rules (spec §5 Payment step, §8 card errors): the
 * corrected copay, the total, the alerts, and what the step hands back to the
 * delivery flow. The payment machine and the payment step's view share them.
 */

type PaymentOutcome = "collected" | "not_collected" | "could_not_pay";

/** What the step hands back to the delivery flow (and the completion's order payment fields). */
export interface PaymentOutput {
  outcome: PaymentOutcome;
  payment_type: WirePaymentType | null;
  /** What was collected, "17.50"; "0.00" when nothing was. */
  amount: string;
  new_copay: string | null;
  transaction_id: string | null;
  collected: boolean;
}

/** What the step has recorded (the payment machine's context has these fields). */
export interface PaymentEntry {
  order: Order;
  method: PaymentType | null;
  /** The corrected copay as typed ("$12.50"); null when the copay is not being corrected. */
  newCopay: string | null;
  transactionId: string | null;
  outcome: PaymentOutcome | null;
}

/** The authorizeCard actor's input: tokenize the hosted fields and PUT /courier/orders/{id}/authorize (spec §7). */
export interface AuthorizeCardInput {
  order_id: number;
  payment_type: "credit_card";
  /** The corrected copay, "12.50", or null when the copay was not corrected. */
  new_copay: string | null;
  /** What the card is authorized for, "17.50": paymentTotalCents (domain/delivery-rules.ts) as a decimal. */
  total: string;
}

const WIRE: Record<PaymentType, WirePaymentType> = { cash: "cash", check: "check", card: "credit_card" };

/** The corrected copay in cents; null when there is none or it is not valid. */
function newCopayCents(entry: Pick<PaymentEntry, "newCopay">): number | null {
  return entry.newCopay == null ? null : correctedCopayCents(entry.newCopay);
}

export function copayCorrectionValid(entry: Pick<PaymentEntry, "newCopay">): boolean {
  return entry.newCopay == null || newCopayCents(entry) != null;
}

/** What the recipient pays now, with the corrected copay if there is one. */
export function paymentTotal(entry: Pick<PaymentEntry, "order" | "newCopay">): string {
  return centsToDecimal(paymentTotalCents(entry.order, newCopayCents(entry)))!;
}

/** Spec §8: 503 → 'Processor Network Unavailable…', 403 → the authorization text, else the catalogue. */
export function authorizationErrorText(failure: ApiFailure): string {
  if (failure.kind === "unavailable") return TEXT.processorUnavailable;
  if (failure.kind === "forbidden") return TEXT.authorizationError;
  return failureText(failure);
}

/** Spec §8: a card client that cannot be set up resets the method; an unreachable gateway says so. */
export function cardSetupErrorText(failure: ApiFailure): string | null {
  const unreachable =
    failure.kind === "network" || failure.kind === "unavailable" || failure.message.includes("Cannot contact the gateway");
  return unreachable ? TEXT.gatewayUnreachable : null;
}

export function authorizeCardInputOf(entry: Pick<PaymentEntry, "order" | "newCopay">): AuthorizeCardInput {
  const correction = newCopayCents(entry);
  return {
    order_id: entry.order.id,
    payment_type: "credit_card",
    new_copay: correction == null ? null : centsToDecimal(correction),
    total: paymentTotal(entry),
  };
}

export function paymentOutputOf(entry: PaymentEntry): PaymentOutput {
  const collected = entry.outcome === "collected";
  const correction = newCopayCents(entry);
  return {
    outcome: entry.outcome ?? "not_collected",
    payment_type: entry.method ? WIRE[entry.method] : null,
    amount: collected ? paymentTotal(entry) : "0.00",
    new_copay: collected && correction != null ? centsToDecimal(correction) : null,
    transaction_id: collected ? entry.transactionId : null,
    collected,
  };
}
