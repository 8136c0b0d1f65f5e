import { randomBytes, randomUUID } from "node:crypto";
import { cardBrand, cardBrandName, cardDigits, isValidCardNumber, isValidCvv, isValidExpiry } from "../../domain/card-rules.ts";
import type { Cents } from "../../domain/money.ts";
import type { AuthorizeResult, FoundTransaction, PaymentGateway, SettlementResult } from "./gateway.ts";
import {
  amountBehaviour,
  APPROVED_TEXT,
  cardBehaviour,
  declineText,
  PROCESSOR_UNAVAILABLE_TEXT,
  type CardBehaviour,
} from "./sandbox-cards.ts";

/**
 * A local gateway that behaves like Braintree's sandbox, for development,
 * tests and demos where there are no Braintree credentials (or no network).
 * It keeps, in memory only, what a nonce will do and for how long: never the
 * card number, CVV or expiry. One process, one memory: run a single API
 * process when using it (docs/payments.md).
 */

export interface CardInput {
  number: string;
  cvv: string;
  /** "MM/YY" */
  expirationDate: string;
}

export type TokenizeOutcome =
  | { ok: true; nonce: string; details: { cardType: string; lastFour: string } }
  | { ok: false; message: string };

interface NonceEntry {
  behaviour: CardBehaviour;
  expiresAt: number;
  consumed: boolean;
  lastFour: string;
}

interface TransactionEntry {
  amountCents: Cents;
  status: "authorized" | "submitted_for_settlement" | "voided";
  lastFour: string;
  reference: string | null;
}

export interface SandboxGatewayOptions {
  now?: () => Date;
  /** Braintree's nonces live three hours. */
  nonceTtlMs?: number;
}

const THREE_HOURS = 3 * 60 * 60 * 1000;
/** Bounds the memory a busy (or abusive) client can make the sandbox hold. */
const MAX_ENTRIES = 10_000;

/** Braintree transaction ids are short lowercase alphanumerics. */
function transactionId(): string {
  return randomBytes(6).toString("base64url").toLowerCase().replace(/[^a-z0-9]/g, "x").slice(0, 8);
}

function remember<K, V>(map: Map<K, V>, key: K, value: V): void {
  map.set(key, value);
  // Maps iterate in insertion order: the first key is the oldest.
  while (map.size > MAX_ENTRIES) map.delete(map.keys().next().value as K);
}

export class SandboxGateway implements PaymentGateway {
  readonly name = "sandbox" as const;
  private readonly nonces = new Map<string, NonceEntry>();
  private readonly transactions = new Map<string, TransactionEntry>();
  private readonly now: () => Date;
  private readonly nonceTtlMs: number;

  constructor(options: SandboxGatewayOptions = {}) {
    this.now = options.now ?? (() => new Date());
    this.nonceTtlMs = options.nonceTtlMs ?? THREE_HOURS;
  }

  async clientToken(): Promise<string> {
    // Opaque like Braintree's (base64 JSON); the local card fields need nothing from it but its presence.
    const token = { version: 2, environment: "local-sandbox", authorizationFingerprint: randomBytes(24).toString("hex") };
    return Buffer.from(JSON.stringify(token)).toString("base64");
  }

  /** Checks a card as Braintree's tokenization and the issuer would, and hands back a single-use nonce. */
  tokenize(card: CardInput): TokenizeOutcome {
    const digits = cardDigits(card.number);
    if (!/^\d{12,19}$/.test(digits)) return { ok: false, message: "Credit card number must be 12-19 digits." };
    if (!isValidCardNumber(digits)) return { ok: false, message: "Credit card number is invalid." };
    const behaviour = cardBehaviour(digits);
    if (!behaviour) {
      // Refusing real numbers keeps real card data out of a test system altogether.
      return { ok: false, message: "The sandbox accepts Braintree's test card numbers only (see docs/payments.md)." };
    }
    if (!isValidExpiry(card.expirationDate, this.now())) return { ok: false, message: "Expiration date is invalid or in the past." };
    const brand = cardBrand(digits);
    if (!isValidCvv(card.cvv.trim(), brand)) {
      return { ok: false, message: "CVV must be 4 digits for American Express and 3 digits for other card types." };
    }
    this.pruneExpired();
    const nonce = `tokencc_sb_${randomUUID()}`;
    remember(this.nonces, nonce, { behaviour, expiresAt: this.now().getTime() + this.nonceTtlMs, consumed: false, lastFour: digits.slice(-4) });
    return { ok: true, nonce, details: { cardType: cardBrandName(brand!), lastFour: digits.slice(-4) } };
  }

  async authorize(request: { amountCents: Cents; nonce: string; reference?: string }): Promise<AuthorizeResult> {
    if (!Number.isSafeInteger(request.amountCents) || request.amountCents <= 0) {
      return { status: "declined", transactionId: null, processorResponse: "81531 Amount must be greater than zero." };
    }
    const entry = this.nonces.get(request.nonce);
    if (!entry || entry.expiresAt <= this.now().getTime()) {
      return { status: "declined", transactionId: null, processorResponse: "91565 Unknown or expired payment_method_nonce." };
    }
    if (entry.consumed) {
      return { status: "declined", transactionId: null, processorResponse: "91564 Cannot use a payment_method_nonce more than once." };
    }
    entry.consumed = true;

    const id = transactionId();
    const card = entry.behaviour;
    if (card.kind === "outage") return { status: "processor_unavailable", transactionId: id, processorResponse: PROCESSOR_UNAVAILABLE_TEXT };
    if (card.kind === "fraud") return { status: "declined", transactionId: id, processorResponse: "Gateway Rejected: fraud" };
    if (card.kind === "decline") return { status: "declined", transactionId: id, processorResponse: declineText(card.code) };

    const amount = amountBehaviour(request.amountCents);
    if (amount.kind === "outage") return { status: "processor_unavailable", transactionId: id, processorResponse: PROCESSOR_UNAVAILABLE_TEXT };
    if (amount.kind === "decline") return { status: "declined", transactionId: id, processorResponse: declineText(amount.code) };
    if (amount.kind === "gateway_rejected") {
      return { status: "declined", transactionId: id, processorResponse: `Gateway Rejected: ${amount.reason}` };
    }
    remember(this.transactions, id, { amountCents: request.amountCents, status: "authorized", lastFour: entry.lastFour, reference: request.reference ?? null });
    return { status: "authorized", transactionId: id, processorResponse: APPROVED_TEXT };
  }

  async submitForSettlement(transactionId: string, amountCents: Cents): Promise<SettlementResult> {
    const entry = this.transactions.get(transactionId);
    if (!entry) return { status: "refused", transactionId, processorResponse: "91502 Transaction could not be found." };
    if (entry.status !== "authorized") {
      return { status: "refused", transactionId, processorResponse: "91507 Cannot submit for settlement unless status is authorized." };
    }
    if (amountCents > entry.amountCents) {
      return { status: "refused", transactionId, processorResponse: "91522 Settlement amount is too large." };
    }
    entry.status = "submitted_for_settlement";
    return { status: "submitted_for_settlement", transactionId, processorResponse: "submitted_for_settlement" };
  }

  async void(transactionId: string): Promise<SettlementResult> {
    const entry = this.transactions.get(transactionId);
    if (!entry) return { status: "refused", transactionId, processorResponse: "91502 Transaction could not be found." };
    if (entry.status === "voided") {
      return { status: "refused", transactionId, processorResponse: "91504 Transaction can only be voided if status is authorized or submitted_for_settlement." };
    }
    entry.status = "voided";
    return { status: "voided", transactionId, processorResponse: "voided" };
  }

  async cardLastFour(transactionId: string): Promise<string | null> {
    return this.transactions.get(transactionId)?.lastFour ?? null;
  }

  async findByReference(reference: string): Promise<FoundTransaction[]> {
    const found: FoundTransaction[] = [];
    for (const [id, entry] of this.transactions) {
      if (entry.reference === reference) found.push({ transactionId: id, held: entry.status === "authorized" });
    }
    return found;
  }

  /** The transactions still holding a card (authorized, neither captured nor voided): what a test checks is left. */
  heldTransactions(): string[] {
    return [...this.transactions].filter(([, entry]) => entry.status === "authorized").map(([id]) => id);
  }

  private pruneExpired(): void {
    const now = this.now().getTime();
    for (const [nonce, entry] of this.nonces) if (entry.expiresAt <= now) this.nonces.delete(nonce);
  }
}

export function isSandboxGateway(gateway: PaymentGateway): gateway is SandboxGateway {
  return gateway instanceof SandboxGateway;
}
