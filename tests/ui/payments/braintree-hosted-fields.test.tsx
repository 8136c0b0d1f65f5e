import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { CARD_FAILURE, type CardFieldValidity } from "../../../src/payments/card-gateway.ts";
import { setUpCardClient } from "../../../src/payments/index.ts";

/**
 * braintree-web at its module boundary: client.create and hostedFields.create
 * are replaced (there is no Braintree here), everything of ours runs.
 */

type Handler = (state: unknown) => void;

const fake = vi.hoisted(() => {
  const state = (number: boolean, cvv: boolean, expirationDate: boolean) => ({
    cards: [],
    fields: {
      number: { isValid: number },
      cvv: { isValid: cvv },
      expirationDate: { isValid: expirationDate },
    },
  });
  const handlers = new Map<string, (state: unknown) => void>();
  const hostedFieldsInstance = {
    getState: vi.fn(() => state(false, false, false)),
    on: vi.fn((event: string, handler: (state: unknown) => void) => handlers.set(event, handler)),
    off: vi.fn((event: string) => handlers.delete(event)),
    tokenize: vi.fn(async () => ({ nonce: "tokencc_bc_abc", details: { cardType: "Visa", lastFour: "1111" } })),
    teardown: vi.fn(async () => undefined),
  };
  const clientInstance = { teardown: vi.fn((done: () => void) => done()) };
  return {
    state,
    handlers,
    hostedFieldsInstance,
    clientInstance,
    createClient: vi.fn(async (_options: { authorization: string }) => clientInstance),
    createHostedFields: vi.fn(async (_options: unknown) => hostedFieldsInstance),
  };
});

vi.mock("braintree-web/client", () => ({ create: fake.createClient }));
vi.mock("braintree-web/hosted-fields", () => ({ create: fake.createHostedFields }));

const braintreeError = (code: string, message: string) => Object.assign(new Error(message), { code, type: "NETWORK" });

function containers() {
  document.body.innerHTML = `<div id="n"></div><div id="c"></div><div id="e"></div>`;
  return { number: "#n", cvv: document.getElementById("c")!, expiration: "#e" };
}

const setUp = () =>
  setUpCardClient({ clientToken: "braintree-client-token", gateway: "braintree", containers: containers(), postJson: vi.fn() });

beforeEach(() => {
  vi.clearAllMocks();
  fake.handlers.clear();
});
afterEach(() => {
  document.body.innerHTML = "";
});

describe("Braintree hosted fields", () => {
  it("sets up the client with the page's client token and the three fields in the given containers", async () => {
    const card = await setUp();
    expect(card.gateway).toBe("braintree");
    expect(fake.createClient).toHaveBeenCalledWith({ authorization: "braintree-client-token" });
    const options = fake.createHostedFields.mock.calls[0]![0] as {
      client: unknown;
      fields: Record<string, { container: HTMLElement; internalLabel: string }>;
    };
    expect(options.client).toBe(fake.clientInstance);
    expect(options.fields.number!.container).toBe(document.getElementById("n"));
    expect(options.fields.cvv!.container).toBe(document.getElementById("c"));
    expect(options.fields.expirationDate!.container).toBe(document.getElementById("e"));
    expect(options.fields.number!.internalLabel).toBe("Card number");
  });

  it("turns validityChange events into field validity, only when it changes", async () => {
    const card = await setUp();
    const seen: CardFieldValidity[] = [];
    card.onValidityChange((validity) => seen.push(validity));
    const emit = fake.handlers.get("validityChange") as Handler;
    emit(fake.state(true, false, false));
    emit(fake.state(true, false, false));
    emit(fake.state(true, true, true));
    expect(seen).toEqual([
      { number: true, cvv: false, expiration: false },
      { number: true, cvv: true, expiration: true },
    ]);
    expect(card.validity()).toEqual({ number: true, cvv: true, expiration: true });
  });

  it("tokenizes into the nonce and the card's type and last four", async () => {
    const card = await setUp();
    expect(await card.tokenize()).toEqual({ nonce: "tokencc_bc_abc", details: { card_type: "Visa", last_four: "1111" } });
  });

  it("maps Braintree's tokenize errors onto the product's failure kinds", async () => {
    const card = await setUp();
    const cases = [
      ["HOSTED_FIELDS_TOKENIZATION_NETWORK_ERROR", "network", CARD_FAILURE.gatewayUnreachable],
      ["HOSTED_FIELDS_FIELDS_INVALID", "refused", CARD_FAILURE.fieldsInvalid],
      ["HOSTED_FIELDS_FIELDS_EMPTY", "refused", CARD_FAILURE.fieldsInvalid],
      ["HOSTED_FIELDS_TOKENIZATION_CVV_VERIFICATION_FAILED", "forbidden", CARD_FAILURE.tokenizationFailed],
      ["SOMETHING_ELSE", "other", CARD_FAILURE.tokenizationFailed],
    ] as const;
    for (const [code, kind, failure] of cases) {
      fake.hostedFieldsInstance.tokenize.mockRejectedValueOnce(braintreeError(code, "Cannot contact the gateway at this time."));
      await expect(card.tokenize(), code).rejects.toMatchObject({ kind, code: failure, status: null });
    }
  });

  it("fails set-up with card_setup_failed, as a network failure when Braintree is unreachable", async () => {
    fake.createClient.mockRejectedValueOnce(braintreeError("CLIENT_GATEWAY_NETWORK", "Cannot contact the gateway at this time."));
    await expect(setUp()).rejects.toMatchObject({ kind: "network", code: CARD_FAILURE.setupFailed });
    fake.createHostedFields.mockRejectedValueOnce(braintreeError("HOSTED_FIELDS_TIMEOUT", "Hosted Fields timed out"));
    await expect(setUp()).rejects.toMatchObject({ kind: "network", code: CARD_FAILURE.setupFailed });
    fake.createClient.mockRejectedValueOnce(braintreeError("CLIENT_AUTHORIZATION_INVALID", "bad token"));
    await expect(setUp()).rejects.toMatchObject({ kind: "other", code: CARD_FAILURE.setupFailed });
  });

  it("tears down the hosted fields and the client once", async () => {
    const card = await setUp();
    await card.teardown();
    await card.teardown();
    expect(fake.hostedFieldsInstance.off).toHaveBeenCalledWith("validityChange", expect.any(Function));
    expect(fake.hostedFieldsInstance.teardown).toHaveBeenCalledTimes(1);
    expect(fake.clientInstance.teardown).toHaveBeenCalledTimes(1);
  });
});
