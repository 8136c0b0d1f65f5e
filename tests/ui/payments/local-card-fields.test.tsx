import { userEvent } from "@testing-library/user-event";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { ApiFailure } from "../../../domain/api-failure.ts";
import { CARD_FAILURE, type CardClient, type CardFieldValidity } from "../../../src/payments/card-gateway.ts";
import { authorizeCard, setUpCardClient } from "../../../src/payments/index.ts";
import { SANDBOX_TOKENIZE_PATH } from "../../../src/payments/local-card-fields.ts";

/** Two years ahead of whatever today is, so the test never expires. */
const future = () => `12/${String((new Date().getFullYear() + 2) % 100).padStart(2, "0")}`;

let client: CardClient | null = null;
let postJson: ReturnType<typeof vi.fn<(path: string, body: unknown) => Promise<unknown>>>;

function containers() {
  document.body.innerHTML = `
    <div id="card-number"></div>
    <div id="card-cvv"></div>
    <div id="card-expiration"></div>`;
  return {
    number: document.getElementById("card-number")!,
    cvv: "#card-cvv",
    expiration: document.getElementById("card-expiration")!,
  };
}

async function setUp(): Promise<CardClient> {
  client = await setUpCardClient({ clientToken: "local-token", gateway: "sandbox", containers: containers(), postJson });
  return client;
}

const input = (field: "number" | "cvv" | "expiration") =>
  document.querySelector<HTMLInputElement>(`input[data-card-field="${field}"]`)!;

beforeEach(() => {
  postJson = vi.fn(async () => ({ nonce: "tokencc_sb_1", details: { card_type: "Visa", last_four: "1111" } }));
});

afterEach(async () => {
  await client?.teardown();
  client = null;
  document.body.innerHTML = "";
});

describe("local sandbox card fields", () => {
  it("renders three numeric inputs the browser can autofill, each with an accessible name", async () => {
    const card = await setUp();
    expect(card.gateway).toBe("sandbox");
    const expected = [
      ["number", "cc-number", "Card number"],
      ["cvv", "cc-csc", "CVV"],
      ["expiration", "cc-exp", "Expiration date (MM/YY)"],
    ] as const;
    for (const [field, autocomplete, label] of expected) {
      const element = input(field);
      expect(element).toBeInTheDocument();
      expect(element.getAttribute("autocomplete")).toBe(autocomplete);
      expect(element.inputMode).toBe("numeric");
      expect(element).toHaveAccessibleName(label);
    }
    expect(document.getElementById("card-cvv")!.contains(input("cvv"))).toBe(true);
  });

  it("groups the digits as printed on the card and masks the expiry as MM/YY", async () => {
    await setUp();
    const user = userEvent.setup();
    await user.type(input("number"), "4111111111111111");
    expect(input("number").value).toBe("4111 1111 1111 1111");
    await user.clear(input("number"));
    await user.type(input("number"), "378282246310005");
    expect(input("number").value).toBe("3782 822463 10005");
    await user.type(input("expiration"), "1229");
    expect(input("expiration").value).toBe("12/29");
    await user.type(input("cvv"), "12a345");
    expect(input("cvv").value).toBe("1234");
  });

  it("reports validity as each field becomes valid, with the CVV length following the card type", async () => {
    const card = await setUp();
    const seen: CardFieldValidity[] = [];
    card.onValidityChange((validity) => seen.push(validity));
    expect(card.validity()).toEqual({ number: false, cvv: false, expiration: false });
    const user = userEvent.setup();
    await user.type(input("number"), "4111111111111111");
    await user.type(input("cvv"), "123");
    await user.type(input("expiration"), future().replace("/", ""));
    expect(card.validity()).toEqual({ number: true, cvv: true, expiration: true });
    expect(seen.at(-1)).toEqual({ number: true, cvv: true, expiration: true });

    // An American Express number wants a 4-digit CID: the 3-digit CVV stops being valid.
    await user.clear(input("number"));
    await user.type(input("number"), "378282246310005");
    expect(card.validity()).toEqual({ number: true, cvv: false, expiration: true });
    expect(seen.at(-1)).toEqual({ number: true, cvv: false, expiration: true });
  });

  it("refuses a number failing Luhn and an expiry in the past, and marks them once left", async () => {
    const card = await setUp();
    const user = userEvent.setup();
    await user.type(input("number"), "4111111111111112");
    await user.type(input("expiration"), "0120");
    await user.click(input("cvv"));
    expect(card.validity()).toMatchObject({ number: false, expiration: false });
    expect(input("number")).toHaveAttribute("aria-invalid", "true");
    expect(input("expiration")).toHaveAttribute("aria-invalid", "true");
  });

  it("tokenizes through the server's sandbox endpoint, sending the digits, CVV and MM/YY", async () => {
    const card = await setUp();
    const user = userEvent.setup();
    await user.type(input("number"), "4111 1111 1111 1111");
    await user.type(input("cvv"), "123");
    await user.type(input("expiration"), future().replace("/", ""));
    expect(await card.tokenize()).toEqual({ nonce: "tokencc_sb_1", details: { card_type: "Visa", last_four: "1111" } });
    expect(postJson).toHaveBeenCalledWith(SANDBOX_TOKENIZE_PATH, { number: "4111111111111111", cvv: "123", expiration_date: future() });
  });

  it("does not send incomplete card data, and passes the server's refusal through", async () => {
    const card = await setUp();
    await expect(card.tokenize()).rejects.toMatchObject({ kind: "refused", code: CARD_FAILURE.fieldsInvalid });
    expect(postJson).not.toHaveBeenCalled();

    const refusal: ApiFailure = { kind: "refused", status: 400, message: "Expiration date is invalid or in the past.", code: "card_invalid" };
    postJson.mockRejectedValueOnce(refusal);
    const user = userEvent.setup();
    await user.type(input("number"), "4111111111111111");
    await user.type(input("cvv"), "123");
    await user.type(input("expiration"), future().replace("/", ""));
    await expect(card.tokenize()).rejects.toEqual(refusal);
  });

  it("tears down: inputs gone, listeners silent, tokenize refused", async () => {
    const card = await setUp();
    const listener = vi.fn();
    card.onValidityChange(listener);
    await card.teardown();
    await card.teardown();
    expect(document.querySelectorAll("input")).toHaveLength(0);
    expect(listener).not.toHaveBeenCalled();
    await expect(card.tokenize()).rejects.toMatchObject({ code: CARD_FAILURE.setupFailed });
  });

  it("fails set-up with card_setup_failed when a container is missing", async () => {
    await expect(
      setUpCardClient({ clientToken: "t", gateway: "sandbox", containers: { number: "#nope", cvv: "#nope", expiration: "#nope" }, postJson }),
    ).rejects.toMatchObject({ code: CARD_FAILURE.setupFailed });
  });
});

describe("authorizeCard", () => {
  it("tokenizes, then PUTs the spec's order_payment and returns the transaction id", async () => {
    const card = await setUp();
    const user = userEvent.setup();
    await user.type(input("number"), "4111111111111111");
    await user.type(input("cvv"), "123");
    await user.type(input("expiration"), future().replace("/", ""));
    const putJson = vi.fn(async () => ({ transaction_id: "abc12345" }));
    const result = await authorizeCard(card, putJson, { order_id: 42, payment_type: "credit_card", new_copay: "20.00", total: "22.50" });
    expect(result).toEqual({ transaction_id: "abc12345" });
    expect(putJson).toHaveBeenCalledWith("courier/orders/42/authorize", {
      delivery: {
        order_payment: {
          payment_type: "credit_card",
          token: "tokencc_sb_1",
          email: null,
          new_copay: "20.00",
          total: "22.50",
          braintree_transaction_id: null,
        },
      },
    });
  });

  it("rejects with the server's failure (a decline is 403 forbidden)", async () => {
    const card = await setUp();
    const user = userEvent.setup();
    await user.type(input("number"), "4000111111111115");
    await user.type(input("cvv"), "123");
    await user.type(input("expiration"), future().replace("/", ""));
    const declined: ApiFailure = { kind: "forbidden", status: 403, message: "2000 Do Not Honor", code: "card_declined" };
    await expect(
      authorizeCard(card, async () => Promise.reject(declined), { order_id: 1, payment_type: "credit_card", new_copay: null, total: "5.00" }),
    ).rejects.toEqual(declined);
  });
});
