import { Readable } from "node:stream";
import braintree from "braintree";
import { describe, expect, it, vi } from "vitest";
import { braintreeConfigFrom } from "../../../server/payments/braintree-config.ts";
import { braintreeGateway, createBraintreeSdk, type BraintreeSdk } from "../../../server/payments/braintree-gateway.ts";
import { GatewayConfigurationError, GatewayUnavailableError } from "../../../server/payments/gateway.ts";
import { createPaymentGateway } from "../../../server/payments/index.ts";
import { SandboxGateway } from "../../../server/payments/sandbox-gateway.ts";

/**
 * The adapter against the real `braintree` SDK with only its HTTP transport
 * replaced: the SDK's own request checks (allowed keys), response classes
 * (ErrorResponse, Transaction, validation errors) and exceptions run as they
 * do in production, and nothing leaves the machine.
 */

/** The SDK's own error factories (lib/braintree/exceptions.js); @types/braintree does not declare them. */
type ErrorFactory = (message: string) => Error & { type: string };
const sdkErrors = (braintree as unknown as { exceptions: Record<string, ErrorFactory> }).exceptions as Record<
  "UnexpectedError" | "ServiceUnavailableError" | "GatewayTimeoutError" | "ServerError" | "AuthenticationError",
  ErrorFactory
>;

const CREDENTIALS = { merchantId: "merchant", publicKey: "public", privateKey: "private", environment: "sandbox" } as const;

type Transport = (method: "post" | "put", url: string, body: unknown) => Promise<unknown>;

function sdkWith(transport: Transport) {
  const sdk = new braintree.BraintreeGateway({
    environment: braintree.Environment.Sandbox,
    merchantId: CREDENTIALS.merchantId,
    publicKey: CREDENTIALS.publicKey,
    privateKey: CREDENTIALS.privateKey,
  });
  const calls: { method: string; url: string; body: unknown }[] = [];
  const http = (sdk as unknown as { http: Record<string, unknown> }).http;
  for (const method of ["post", "put"] as const) {
    http[method] = vi.fn(async (url: string, body: unknown) => {
      calls.push({ method, url, body });
      return transport(method, url, body);
    });
  }
  return { gateway: braintreeGateway(sdk as BraintreeSdk), calls };
}

/** The SDK's parsed-XML shape of a transaction. */
const transaction = (fields: Record<string, unknown>) => ({ id: "bt7x9k2m", amount: "12.34", ...fields });

const approved = { transaction: transaction({ status: "authorized", processorResponseCode: "1000", processorResponseText: "Approved" }) };

const failure = (message: string, fields: Record<string, unknown> | null, errors: unknown = { errors: [] }) => ({
  apiErrorResponse: { message, errors, ...(fields ? { transaction: transaction(fields) } : {}), params: {} },
});

describe("Braintree adapter", () => {
  it("authorizes without capturing: amount as a decimal string, the nonce, our order id, submitForSettlement false", async () => {
    const { gateway, calls } = sdkWith(async () => approved);
    const result = await gateway.authorize({ amountCents: 1234, nonce: "tokencc_abc", orderId: 42, email: "pat@example.com" });
    expect(result).toEqual({ status: "authorized", transactionId: "bt7x9k2m", processorResponse: "1000 Approved" });
    expect(calls).toHaveLength(1);
    expect(calls[0]!.url).toBe("/merchants/merchant/transactions");
    expect(calls[0]!.body).toEqual({
      transaction: {
        type: "sale",
        amount: "12.34",
        paymentMethodNonce: "tokencc_abc",
        orderId: "42",
        customer: { email: "pat@example.com" },
        options: { submitForSettlement: false },
      },
    });
  });

  it("sends no customer when there is no email", async () => {
    const { gateway, calls } = sdkWith(async () => approved);
    await gateway.authorize({ amountCents: 500, nonce: "n", orderId: 1, email: null });
    expect((calls[0]!.body as { transaction: Record<string, unknown> }).transaction).not.toHaveProperty("customer");
  });

  it("maps a processor decline to declined with the processor's code and text", async () => {
    const { gateway } = sdkWith(async () =>
      failure("Do Not Honor", { status: "processor_declined", processorResponseCode: "2000", processorResponseText: "Do Not Honor" }),
    );
    expect(await gateway.authorize({ amountCents: 1234, nonce: "n", orderId: 1 })).toEqual({
      status: "declined",
      transactionId: "bt7x9k2m",
      processorResponse: "2000 Do Not Honor",
    });
  });

  it("maps a gateway rejection (CVV, fraud…) to declined, naming the reason", async () => {
    const { gateway } = sdkWith(async () => failure("Gateway Rejected: cvv", { status: "gateway_rejected", gatewayRejectionReason: "cvv" }));
    expect(await gateway.authorize({ amountCents: 1234, nonce: "n", orderId: 1 })).toMatchObject({
      status: "declined",
      processorResponse: "Gateway Rejected: cvv",
    });
  });

  it("maps a 3000-class processor failure to processor_unavailable", async () => {
    const { gateway } = sdkWith(async () =>
      failure("Processor Network Unavailable - Try Again", {
        status: "failed",
        processorResponseCode: "3000",
        processorResponseText: "Processor Network Unavailable - Try Again",
      }),
    );
    expect(await gateway.authorize({ amountCents: 300_000, nonce: "n", orderId: 1 })).toEqual({
      status: "processor_unavailable",
      transactionId: "bt7x9k2m",
      processorResponse: "3000 Processor Network Unavailable - Try Again",
    });
  });

  it("maps validation errors (no transaction created) to declined with their codes", async () => {
    const { gateway } = sdkWith(async () =>
      failure("Cannot use a payment_method_nonce more than once.", null, {
        transaction: {
          errors: [{ attribute: "payment_method_nonce", code: "91564", message: "Cannot use a payment_method_nonce more than once." }],
        },
      }),
    );
    expect(await gateway.authorize({ amountCents: 1234, nonce: "used", orderId: 1 })).toEqual({
      status: "declined",
      transactionId: null,
      processorResponse: "91564 Cannot use a payment_method_nonce more than once.",
    });
  });

  it("maps the SDK's network, timeout and outage errors to processor_unavailable", async () => {
    for (const error of [
      sdkErrors.UnexpectedError("Unexpected request error: Error: connect ECONNREFUSED"),
      sdkErrors.UnexpectedError("Request timed out"),
      sdkErrors.ServiceUnavailableError("Service Unavailable Error"),
      sdkErrors.GatewayTimeoutError("Gateway Timeout Error"),
      sdkErrors.ServerError("Server Error"),
    ]) {
      const { gateway } = sdkWith(async () => Promise.reject(error));
      const result = await gateway.authorize({ amountCents: 1234, nonce: "n", orderId: 1 });
      expect(result.status, error.message).toBe("processor_unavailable");
      expect(result.processorResponse).toContain(error.message);
    }
  });

  it("throws a configuration error for bad credentials, never calling it a decline", async () => {
    const { gateway } = sdkWith(async () => Promise.reject(sdkErrors.AuthenticationError("Authentication Error")));
    await expect(gateway.authorize({ amountCents: 1234, nonce: "n", orderId: 1 })).rejects.toBeInstanceOf(GatewayConfigurationError);
    await expect(gateway.clientToken()).rejects.toBeInstanceOf(GatewayConfigurationError);
  });

  it("lets an error that is not the SDK's through unchanged", async () => {
    const bug = new TypeError("cannot read properties of undefined");
    const { gateway } = sdkWith(async () => Promise.reject(bug));
    await expect(gateway.authorize({ amountCents: 1234, nonce: "n", orderId: 1 })).rejects.toBe(bug);
  });

  it("generates a client token, and reports an unreachable Braintree as unavailable", async () => {
    const { gateway, calls } = sdkWith(async () => ({ clientToken: { value: "eyJ2ZXJzaW9uIjoyfQ==" } }));
    expect(await gateway.clientToken()).toBe("eyJ2ZXJzaW9uIjoyfQ==");
    expect(calls[0]).toMatchObject({ url: "/merchants/merchant/client_token", body: { client_token: { version: 2 } } });

    const down = sdkWith(async () => Promise.reject(sdkErrors.UnexpectedError("Unexpected request error: ENOTFOUND")));
    await expect(down.gateway.clientToken()).rejects.toBeInstanceOf(GatewayUnavailableError);
    const refused = sdkWith(async () => failure("Merchant account is suspended.", null));
    await expect(refused.gateway.clientToken()).rejects.toBeInstanceOf(GatewayConfigurationError);
  });

  it("submits for settlement with the amount, and voids, mapping refusals and outages", async () => {
    const settled = sdkWith(async () => ({ transaction: transaction({ status: "submitted_for_settlement" }) }));
    expect(await settled.gateway.submitForSettlement("bt7x9k2m", 1234)).toEqual({
      status: "submitted_for_settlement",
      transactionId: "bt7x9k2m",
      processorResponse: "submitted_for_settlement",
    });
    expect(settled.calls[0]).toMatchObject({
      method: "put",
      url: "/merchants/merchant/transactions/bt7x9k2m/submit_for_settlement",
      body: { transaction: { amount: "12.34" } },
    });

    const voided = sdkWith(async () => ({ transaction: transaction({ status: "voided" }) }));
    expect(await voided.gateway.void("bt7x9k2m")).toMatchObject({ status: "voided" });
    expect(voided.calls[0]).toMatchObject({ method: "put", url: "/merchants/merchant/transactions/bt7x9k2m/void" });

    const refused = sdkWith(async () =>
      failure("Transaction can only be voided if status is authorized…", null, {
        transaction: { errors: [{ attribute: "status", code: "91504", message: "Transaction can only be voided if status is authorized…" }] },
      }),
    );
    expect(await refused.gateway.void("bt7x9k2m")).toEqual({
      status: "refused",
      transactionId: "bt7x9k2m",
      processorResponse: "91504 Transaction can only be voided if status is authorized…",
    });
    const down = sdkWith(async () => Promise.reject(sdkErrors.ServiceUnavailableError("Service Unavailable Error")));
    expect(await down.gateway.submitForSettlement("bt7x9k2m", 1234)).toMatchObject({ status: "processor_unavailable" });
  });

  it("builds the SDK for the configured environment and merchant", () => {
    const sandbox = createBraintreeSdk(CREDENTIALS) as unknown as { config: { merchantId: string; environment: unknown } };
    expect(sandbox.config.merchantId).toBe("merchant");
    expect(sandbox.config.environment).toBe(braintree.Environment.Sandbox);
    const production = createBraintreeSdk({ ...CREDENTIALS, environment: "production" }) as unknown as { config: { environment: unknown } };
    expect(production.config.environment).toBe(braintree.Environment.Production);
  });
});

describe("choosing the gateway from the environment", () => {
  const all = { BRAINTREE_MERCHANT_ID: "m", BRAINTREE_PUBLIC_KEY: "pub", BRAINTREE_PRIVATE_KEY: "priv" };

  it("uses the local sandbox when no credentials are set, Braintree when all three are", () => {
    expect(braintreeConfigFrom({})).toBeNull();
    expect(createPaymentGateway({ braintree: null })).toBeInstanceOf(SandboxGateway);
    const config = braintreeConfigFrom(all);
    expect(config).toEqual({ merchantId: "m", publicKey: "pub", privateKey: "priv", environment: "sandbox" });
    expect(createPaymentGateway({ braintree: config }).name).toBe("braintree");
    expect(braintreeConfigFrom({ ...all, BRAINTREE_ENVIRONMENT: "production" })?.environment).toBe("production");
  });

  it("refuses to start with some credentials missing or an unknown environment", () => {
    expect(() => braintreeConfigFrom({ BRAINTREE_MERCHANT_ID: "m", BRAINTREE_PUBLIC_KEY: "pub" })).toThrow(/all of/);
    expect(() => braintreeConfigFrom({ ...all, BRAINTREE_PRIVATE_KEY: "  " })).toThrow(/all of/);
    expect(() => braintreeConfigFrom({ ...all, BRAINTREE_ENVIRONMENT: "live" })).toThrow(/sandbox or production/);
  });
});

describe("Braintree adapter: finding an attempt's transaction by its reference", () => {
  /** A fake of the SDK's search: it records the criteria and streams the given transactions, as the SDK's SearchResponse does. */
  function searching(found: Partial<braintree.Transaction>[] | Error) {
    const criteria: string[] = [];
    const sdk = {
      clientToken: { generate: vi.fn() },
      transaction: {
        sale: vi.fn(),
        submitForSettlement: vi.fn(),
        void: vi.fn(),
        search: (searchFn: braintree.TransactionSearchFn) => {
          searchFn({ orderId: () => ({ is: (value: string) => criteria.push(`orderId is ${value}`) }) } as unknown as Parameters<braintree.TransactionSearchFn>[0]);
          if (found instanceof Error) {
            const stream = new Readable({ objectMode: true, read() {} });
            queueMicrotask(() => stream.destroy(found));
            return stream;
          }
          return Readable.from(found);
        },
      },
    } as unknown as BraintreeSdk;
    return { gateway: braintreeGateway(sdk), criteria };
  }

  it("searches by order id and says which transactions still hold the card", async () => {
    const { gateway, criteria } = searching([
      { id: "held1", status: "authorized" },
      { id: "gone1", status: "voided" },
    ]);
    expect(await gateway.findByReference("42-ref")).toEqual([
      { transactionId: "held1", held: true },
      { transactionId: "gone1", held: false },
    ]);
    expect(criteria).toEqual(["orderId is 42-ref"]);
  });

  it("sends the attempt's reference as the order id when it has one", async () => {
    const { gateway, calls } = sdkWith(async () => approved);
    await gateway.authorize({ amountCents: 500, nonce: "n", orderId: 42, reference: "42-5f0c" });
    expect(calls[0]!.body).toMatchObject({ transaction: { orderId: "42-5f0c" } });
  });

  it("an unreachable Braintree during the search is GatewayUnavailableError (the sweep tries again later)", async () => {
    const { gateway } = searching(sdkErrors.ServiceUnavailableError("down"));
    await expect(gateway.findByReference("42-ref")).rejects.toBeInstanceOf(GatewayUnavailableError);
  });
});
