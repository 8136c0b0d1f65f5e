import { z } from "zod";
import { correctedCopayCents } from "../delivery-rules.ts";
import { Order } from "./entities.ts";
import { MoneyAmount, StoredText } from "./scalars.ts";

/** Which card gateway the server uses; the page sets up the matching card fields. */
export const PaymentGatewayName = z.enum(["braintree", "sandbox"]);
export type PaymentGatewayName = z.infer<typeof PaymentGatewayName>;

/** GET /api/courier/payments/client_token: what the hosted-fields client is set up with (spec §7). */
export const ClientTokenResponse = z.object({
  client_token: z.string(),
  gateway: PaymentGatewayName,
});
export type ClientTokenResponse = z.infer<typeof ClientTokenResponse>;

/**
 * POST /api/payments/sandbox/tokenize: the local sandbox's stand-in for
 * Braintree's tokenization. The card data is checked and forgotten; only a
 * short-lived nonce comes back.
 */
export const SandboxTokenizeRequest = z.object({
  number: StoredText(23, { min: 1, tooShort: "Enter the card number" }),
  cvv: StoredText(4, { min: 1, tooShort: "Enter the CVV" }),
  expiration_date: StoredText(7, { min: 1, tooShort: "Enter the expiration date" }),
});
export type SandboxTokenizeRequest = z.infer<typeof SandboxTokenizeRequest>;

export const CardDetails = z.object({ card_type: z.string(), last_four: z.string() });
export type CardDetails = z.infer<typeof CardDetails>;

export const TokenizeResponse = z.object({ nonce: z.string(), details: CardDetails });
export type TokenizeResponse = z.infer<typeof TokenizeResponse>;

/** Spec §5/§9: a corrected copay has at least 3 digits, not all zeros, and is at least $1.00. */
export const CorrectedCopay = MoneyAmount.refine((value) => correctedCopayCents(value) != null, "must be a corrected copay of at least 1.00");

/** An empty email field means no receipt email. */
const OptionalEmail = z.preprocess(
  (value) => (typeof value === "string" && value.trim() === "" ? null : value),
  StoredText(254).pipe(z.email("must be a valid email address")).nullable().optional(),
);

/**
 * PUT /api/courier/orders/{id}/authorize, spec §7:
 * delivery[order_payment][payment_type, token, email, new_copay, total, braintree_transaction_id, _csrf_token].
 * `token` is the card nonce; `total` must equal what is owed (paymentTotalCents in domain/delivery-rules.ts).
 * `braintree_transaction_id` is sent when resubmitting an authorization the app already has.
 * `_csrf_token` is accepted for the spec's shape; the X-CSRF-Token header is what is checked.
 */
export const OrderPayment = z.object({
  payment_type: z.literal("credit_card", { message: "must be credit_card: only card payments are authorized" }),
  token: StoredText(4096, { min: 1 }).nullable().optional(),
  email: OptionalEmail,
  new_copay: CorrectedCopay.nullable().optional(),
  total: MoneyAmount,
  braintree_transaction_id: StoredText(64, { min: 1 }).nullable().optional(),
  _csrf_token: StoredText(200).optional(),
});
export type OrderPayment = z.infer<typeof OrderPayment>;

export const AuthorizeRequest = z.object({ delivery: z.object({ order_payment: OrderPayment }) });
export type AuthorizeRequest = z.infer<typeof AuthorizeRequest>;

/** The app reads data.transaction_id. */
export const AuthorizeResponse = z.object({ transaction_id: z.string() });
export type AuthorizeResponse = z.infer<typeof AuthorizeResponse>;

/** What the order keeps about its card payment: references, never card data. */
export const ChargeData = z.object({
  transaction_id: StoredText(64, { min: 1 }),
  amount: MoneyAmount,
  new_copay: MoneyAmount.nullable().optional(),
  payment_type: z.literal("credit_card").optional(),
});
export type ChargeData = z.infer<typeof ChargeData>;

/** PUT /api/courier/orders/{id}: "delivery with charge data" (spec §7). */
export const SaveChargeDataRequest = z.object({ delivery: z.object({ charge_data: ChargeData }) });
export type SaveChargeDataRequest = z.infer<typeof SaveChargeDataRequest>;

export const SaveChargeDataResponse = z.object({ order: Order });
export type SaveChargeDataResponse = z.infer<typeof SaveChargeDataResponse>;
