import type { ApiFailure } from "../../domain/api-failure.ts";
import type { PaymentGatewayName } from "../../domain/contract/payments.ts";

/**
 * The browser's one card interface (spec §7 "Other client behaviour"): a
 * hosted-fields client set up with the client token the page is given, with
 * fields card number, cvv and expiration, that tokenizes them into a nonce.
 * Braintree's hosted fields (braintree-hosted-fields.ts) and the local
 * sandbox's own fields (local-card-fields.ts) both implement it. Plain DOM:
 * a React view mounts it into three empty divs and tears it down on unmount.
 */

export type CardFieldName = "number" | "cvv" | "expiration";
export type CardFieldValidity = Record<CardFieldName, boolean>;

/** An element, or a selector for one, that the field is rendered into. It should be empty. */
export type FieldContainer = HTMLElement | string;

/** The app's JSON POST to the API, with its cookie and CSRF token. `path` is relative to /api ("payments/sandbox/tokenize"). */
export type PostJson = (path: string, body: unknown) => Promise<unknown>;

export interface CardClientOptions {
  /** From GET /api/courier/payments/client_token. */
  clientToken: string;
  /** Which gateway issued the token (same response). */
  gateway: PaymentGatewayName;
  containers: Record<CardFieldName, FieldContainer>;
  /** Accessible names of the inputs (the view shows its own visible labels). */
  labels?: Partial<Record<CardFieldName, string>>;
  /** Used by the local sandbox fields to tokenize; Braintree's fields talk to Braintree themselves. */
  postJson: PostJson;
}

export interface CardNonce {
  nonce: string;
  details: { card_type: string; last_four: string };
}

export interface CardClient {
  readonly gateway: PaymentGatewayName;
  /** Whether each field currently holds a valid value. */
  validity(): CardFieldValidity;
  /** Called whenever any field's validity changes; returns the unsubscribe function. */
  onValidityChange(listener: (validity: CardFieldValidity) => void): () => void;
  /** The entered card as a single-use nonce. Rejects with an ApiFailure (codes below). */
  tokenize(): Promise<CardNonce>;
  /** Removes the fields and every listener. Safe to call more than once. */
  teardown(): Promise<void>;
}

export const DEFAULT_LABELS: Record<CardFieldName, string> = {
  number: "Card number",
  cvv: "CVV",
  expiration: "Expiration date (MM/YY)",
};

/** Stable ApiFailure codes a card client rejects with, for the payment machine to choose its words. */
export const CARD_FAILURE = {
  /** Setting up the fields failed: spec §8, the payment method is reset to empty. */
  setupFailed: "card_setup_failed",
  /** A field is empty or invalid. */
  fieldsInvalid: "card_fields_invalid",
  /** 'Cannot contact the gateway at this time.': spec §8's no-internet text (TEXT.gatewayUnreachable). */
  gatewayUnreachable: "card_gateway_unreachable",
  /** The gateway refused the card at tokenization (e.g. CVV verification). */
  tokenizationFailed: "card_tokenization_failed",
} as const;

export function cardFailure(kind: ApiFailure["kind"], code: string, message: string, status: number | null = null): ApiFailure {
  return { kind, status, message, code };
}

export const allCardFieldsValid = (validity: CardFieldValidity): boolean => validity.number && validity.cvv && validity.expiration;

export function sameValidity(a: CardFieldValidity, b: CardFieldValidity): boolean {
  return a.number === b.number && a.cvv === b.cvv && a.expiration === b.expiration;
}

/** Listeners of validity changes, shared by both implementations. */
export function validityListeners() {
  const listeners = new Set<(validity: CardFieldValidity) => void>();
  return {
    add(listener: (validity: CardFieldValidity) => void): () => void {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    emit(validity: CardFieldValidity): void {
      for (const listener of [...listeners]) listener({ ...validity });
    },
    clear(): void {
      listeners.clear();
    },
  };
}

export function resolveContainer(container: FieldContainer): HTMLElement {
  if (typeof container !== "string") return container;
  const element = document.querySelector<HTMLElement>(container);
  if (!element) throw new Error(`No element matches ${container}`);
  return element;
}
