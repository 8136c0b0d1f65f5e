import type { Readable } from "node:stream";
import braintree from "braintree";
import { centsToDecimal } from "../../domain/money.ts";
import type { BraintreeConfig } from "./braintree-config.ts";
import {
  GatewayConfigurationError,
  GatewayUnavailableError,
  type AuthorizeResult,
  type FoundTransaction,
  type PaymentGateway,
  type SettlementResult,
} from "./gateway.ts";

export type BraintreeCredentials = BraintreeConfig;

type Response<T> = braintree.ValidatedResponse<T>;

/**
 * The part of the `braintree` SDK this adapter uses. A real
 * `braintree.BraintreeGateway` is one; the unit tests hand in a fake.
 */
export interface BraintreeSdk {
  clientToken: { generate(request: braintree.ClientTokenRequest): Promise<Response<braintree.ClientToken>> };
  transaction: {
    sale(request: braintree.TransactionRequest): Promise<Response<braintree.Transaction>>;
    submitForSettlement(transactionId: string, amount?: string): Promise<Response<braintree.Transaction>>;
    void(transactionId: string): Promise<Response<braintree.Transaction>>;
    /** Optional so fakes written before proof of delivery still fit. */
    find?(transactionId: string): Promise<braintree.Transaction>;
    /** Optional so fakes written before the recovery sweep still fit; a real SDK always has it. */
    search?(searchFn: braintree.TransactionSearchFn): Readable;
  };
}

export function createBraintreeSdk(credentials: BraintreeCredentials): BraintreeSdk {
  return new braintree.BraintreeGateway({
    environment: credentials.environment === "production" ? braintree.Environment.Production : braintree.Environment.Sandbox,
    merchantId: credentials.merchantId,
    publicKey: credentials.publicKey,
    privateKey: credentials.privateKey,
  });
}

/** SDK error types (lib/braintree/error_types.js) that mean "Braintree could not be reached or is down": retry later. */
const UNAVAILABLE_TYPES = new Set([
  "serviceUnavailableError",
  "gatewayTimeoutError",
  "requestTimeoutError",
  "serverError",
  "tooManyRequestsError",
  // Connection refused, DNS failure, socket timeout and unknown HTTP statuses all arrive as this.
  "unexpectedError",
]);

/** SDK error types that mean our credentials or request are wrong: no retry will help. */
const CONFIGURATION_TYPES = new Set([
  "authenticationError",
  "authorizationError",
  "invalidKeysError",
  "notFoundError",
  "upgradeRequired",
  "testOperationPerformedInProductionError",
]);

function sdkErrorType(error: unknown): string | null {
  if (error && typeof error === "object" && "type" in error && typeof error.type === "string") return error.type;
  return null;
}

/** Turns a thrown SDK error into ours; anything that is not the SDK's is rethrown as it is. */
function classify(error: unknown): GatewayUnavailableError | GatewayConfigurationError {
  const type = sdkErrorType(error);
  const message = error instanceof Error && error.message ? error.message : String(type);
  if (type && UNAVAILABLE_TYPES.has(type)) return new GatewayUnavailableError(`Braintree ${type}: ${message}`);
  if (type && CONFIGURATION_TYPES.has(type)) return new GatewayConfigurationError(`Braintree ${type}: ${message}`);
  throw error;
}

function processorText(transaction: braintree.Transaction): string {
  return [transaction.processorResponseCode, transaction.processorResponseText].filter(Boolean).join(" ");
}

/** Validation errors (no transaction was created), e.g. "91564 Cannot use a payment_method_nonce more than once." */
function validationText(result: Response<unknown>): string {
  const errors = result.errors?.deepErrors?.() ?? [];
  const listed = errors.map((error) => `${error.code} ${error.message}`).join("; ");
  return listed || result.message || "The gateway refused the transaction.";
}

/** Braintree's sale result → ours. Exported for the adapter's unit tests. */
export function mapSaleResult(result: Response<braintree.Transaction>): AuthorizeResult {
  const transaction = result.transaction as braintree.Transaction | undefined;
  if (result.success && transaction) {
    return { status: "authorized", transactionId: transaction.id, processorResponse: processorText(transaction) || "1000 Approved" };
  }
  if (!transaction) return { status: "declined", transactionId: null, processorResponse: validationText(result) };
  // 3000-class processor responses are the processor network failing, not the card (Braintree's authorization responses).
  if (transaction.status === "failed" || transaction.processorResponseCode?.startsWith("3")) {
    return { status: "processor_unavailable", transactionId: transaction.id, processorResponse: processorText(transaction) || result.message };
  }
  if (transaction.status === "gateway_rejected") {
    return {
      status: "declined",
      transactionId: transaction.id,
      processorResponse: `Gateway Rejected: ${transaction.gatewayRejectionReason ?? "unknown"}`,
    };
  }
  return { status: "declined", transactionId: transaction.id, processorResponse: processorText(transaction) || result.message };
}

async function settle(
  transactionId: string,
  done: "submitted_for_settlement" | "voided",
  call: () => Promise<Response<braintree.Transaction>>,
): Promise<SettlementResult> {
  let result: Response<braintree.Transaction>;
  try {
    result = await call();
  } catch (error) {
    const classified = classify(error);
    if (classified instanceof GatewayUnavailableError) {
      return { status: "processor_unavailable", transactionId, processorResponse: classified.message };
    }
    throw classified;
  }
  if (result.success) return { status: done, transactionId, processorResponse: result.transaction?.status ?? done };
  return { status: "refused", transactionId, processorResponse: validationText(result) };
}

/** The Braintree implementation of the gateway, over the SDK (or a fake of it). */
export function braintreeGateway(sdk: BraintreeSdk): PaymentGateway {
  return {
    name: "braintree",

    async clientToken() {
      let result: Response<braintree.ClientToken>;
      try {
        result = await sdk.clientToken.generate({});
      } catch (error) {
        throw classify(error);
      }
      if (!result.success || !result.clientToken) {
        throw new GatewayConfigurationError(`Braintree refused a client token: ${validationText(result)}`);
      }
      return result.clientToken;
    },

    async authorize(request) {
      const amount = centsToDecimal(request.amountCents)!;
      let result: Response<braintree.Transaction>;
      try {
        result = await sdk.transaction.sale({
          amount,
          paymentMethodNonce: request.nonce,
          // The attempt's reference (it starts with our order id): the recovery sweep searches by it.
          orderId: request.reference ?? String(request.orderId),
          ...(request.email ? { customer: { email: request.email } } : {}),
          // Authorize only: the money is captured when the delivery completes (submitForSettlement).
          options: { submitForSettlement: false },
        });
      } catch (error) {
        const classified = classify(error);
        if (classified instanceof GatewayUnavailableError) {
          return { status: "processor_unavailable", transactionId: null, processorResponse: classified.message };
        }
        throw classified;
      }
      return mapSaleResult(result);
    },

    submitForSettlement: (transactionId, amountCents) =>
      settle(transactionId, "submitted_for_settlement", () =>
        sdk.transaction.submitForSettlement(transactionId, centsToDecimal(amountCents)!),
      ),

    void: (transactionId) => settle(transactionId, "voided", () => sdk.transaction.void(transactionId)),

    async cardLastFour(transactionId) {
      if (!sdk.transaction.find) return null;
      try {
        const transaction = await sdk.transaction.find(transactionId);
        return transaction.creditCard?.last4 ?? null;
      } catch {
        // The proof still stands without it; it says "not available".
        return null;
      }
    },

    async findByReference(reference) {
      if (!sdk.transaction.search) throw new GatewayConfigurationError("This Braintree client cannot search transactions.");
      const found: FoundTransaction[] = [];
      try {
        // The SDK's search answers as a stream of transactions (one page at a time).
        for await (const transaction of sdk.transaction.search((search) => search.orderId().is(reference))) {
          const { id, status } = transaction as braintree.Transaction;
          found.push({ transactionId: id, held: status === "authorized" || status === "authorizing" });
        }
      } catch (error) {
        throw classify(error);
      }
      return found;
    },
  };
}

export function createBraintreeGateway(credentials: BraintreeCredentials): PaymentGateway {
  return braintreeGateway(createBraintreeSdk(credentials));
}
