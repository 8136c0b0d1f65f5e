import type { PaymentGatewayName } from "../../domain/contract/payments.ts";
import type { Cents } from "../../domain/money.ts";

/**
 * The one card-payment interface the server speaks. Braintree
 * (braintree-gateway.ts) and the local sandbox (sandbox-gateway.ts) both
 * implement it; services never know which one they hold.
 */
export interface PaymentGateway {
  readonly name: PaymentGatewayName;
  /** The token the browser's hosted-fields client is set up with. Throws GatewayUnavailableError. */
  clientToken(): Promise<string>;
  /** Authorizes (never captures) the amount on a card nonce. Outcomes are values; only misconfiguration throws. */
  authorize(request: AuthorizeRequest): Promise<AuthorizeResult>;
  /** Captures an authorization when the delivery completes. */
  submitForSettlement(transactionId: string, amountCents: Cents): Promise<SettlementResult>;
  /** Releases an authorization that will not be captured (failed delivery, or our own write failed). */
  void(transactionId: string): Promise<SettlementResult>;
  /** The card's last four digits as the gateway holds them (proof of delivery); null when it cannot say. We never store them. */
  cardLastFour(transactionId: string): Promise<string | null>;
  /**
   * The transactions an authorization attempt created, found by the reference
   * it was sent with (AuthorizeRequest.reference): how the recovery sweep finds
   * a hold whose answer we never recorded. Throws GatewayUnavailableError.
   */
  findByReference(reference: string): Promise<FoundTransaction[]>;
}

export interface FoundTransaction {
  transactionId: string;
  /** True while the card is held (authorized, neither captured nor voided): a void releases it. */
  held: boolean;
}

export interface AuthorizeRequest {
  amountCents: Cents;
  /** The single-use card nonce from the browser's tokenization. */
  nonce: string;
  /** Our order id: shown on the transaction in the gateway's control panel. */
  orderId: number;
  /**
   * This attempt's unique reference (it starts with the order id), sent as the
   * gateway's order id so findByReference can find the attempt's transaction
   * again. Without it the gateway is sent the plain order id.
   */
  reference?: string;
  /** For the gateway's receipt, when the recipient gave one; never stored by us. */
  email?: string | null;
}

export type AuthorizeResult =
  | { status: "authorized"; transactionId: string; processorResponse: string }
  /** The processor or the gateway refused the card; transactionId when the gateway created one. */
  | { status: "declined"; transactionId: string | null; processorResponse: string }
  /** The processor network or the gateway could not be reached: try again later. */
  | { status: "processor_unavailable"; transactionId: string | null; processorResponse: string };

export type SettlementResult =
  | { status: "submitted_for_settlement" | "voided"; transactionId: string; processorResponse: string }
  | { status: "refused"; transactionId: string; processorResponse: string }
  | { status: "processor_unavailable"; transactionId: string; processorResponse: string };

/** The gateway could not be reached (network, timeout, its own outage). */
export class GatewayUnavailableError extends Error {
  override readonly name = "GatewayUnavailableError";
}

/** The gateway refused our credentials or our request shape: a bug or a misconfiguration, never the card. */
export class GatewayConfigurationError extends Error {
  override readonly name = "GatewayConfigurationError";
}
