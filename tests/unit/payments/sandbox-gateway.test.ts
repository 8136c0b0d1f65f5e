import { describe, expect, it } from "vitest";
import { SandboxGateway, type CardInput } from "../../../server/payments/sandbox-gateway.ts";
import {
  APPROVED_TEST_CARDS,
  DECLINED_TEST_CARDS,
  FRAUD_TEST_CARD,
  OUTAGE_TEST_CARD,
} from "../../../server/payments/sandbox-cards.ts";

const TODAY = new Date(2026, 10, 21); // 21 November 2026, local time

function gatewayAt(now: { date: Date }) {
  return new SandboxGateway({ now: () => now.date, nonceTtlMs: 60_000 });
}

function card(number: string, fields: Partial<CardInput> = {}): CardInput {
  return { number, cvv: number.startsWith("34") || number.startsWith("37") ? "1234" : "123", expirationDate: "12/29", ...fields };
}

function nonceFor(gateway: SandboxGateway, input: CardInput): string {
  const outcome = gateway.tokenize(input);
  if (!outcome.ok) throw new Error(`tokenize refused ${input.number}: ${outcome.message}`);
  return outcome.nonce;
}

const pay = (gateway: SandboxGateway, nonce: string, amountCents = 1234) => gateway.authorize({ amountCents, nonce });

describe("local sandbox gateway: cards", () => {
  it.each(APPROVED_TEST_CARDS)("authorizes Braintree's valid test card %s", async (number) => {
    const gateway = gatewayAt({ date: TODAY });
    const result = await pay(gateway, nonceFor(gateway, card(number)));
    expect(result.status).toBe("authorized");
    expect(result.processorResponse).toBe("1000 Approved");
    expect(result.transactionId).toMatch(/^[a-z0-9]{8}$/);
  });

  it.each(DECLINED_TEST_CARDS)("declines Braintree's unsuccessful-verification card %s with 2000 Do Not Honor", async (number) => {
    const gateway = gatewayAt({ date: TODAY });
    expect(await pay(gateway, nonceFor(gateway, card(number)))).toMatchObject({ status: "declined", processorResponse: "2000 Do Not Honor" });
  });

  it("rejects the fraud test card as the gateway's fraud tools would", async () => {
    const gateway = gatewayAt({ date: TODAY });
    expect(await pay(gateway, nonceFor(gateway, card(FRAUD_TEST_CARD)))).toMatchObject({
      status: "declined",
      processorResponse: "Gateway Rejected: fraud",
    });
  });

  it("answers the outage card with 3000 Processor Network Unavailable", async () => {
    const gateway = gatewayAt({ date: TODAY });
    expect(await pay(gateway, nonceFor(gateway, card(OUTAGE_TEST_CARD)))).toMatchObject({
      status: "processor_unavailable",
      processorResponse: "3000 Processor Network Unavailable - Try Again",
    });
  });

  it("gives back the card's type and last four only", () => {
    const gateway = gatewayAt({ date: TODAY });
    const cases: [string, string][] = [
      ["4111 1111 1111 1111", "Visa"],
      ["5555-5555-5555-4444", "MasterCard"],
      ["378282246310005", "American Express"],
      ["6011111111111117", "Discover"],
      ["3530111333300000", "JCB"],
      ["36259600000004", "Diners Club"],
    ];
    for (const [number, cardType] of cases) {
      const outcome = gateway.tokenize(card(number.replace(/\D/g, "")));
      expect(outcome).toEqual({ ok: true, nonce: expect.stringMatching(/^tokencc_sb_/), details: { cardType, lastFour: number.slice(-4) } });
    }
  });

  it("refuses numbers that fail Luhn, have the wrong length, or are not test cards", () => {
    const gateway = gatewayAt({ date: TODAY });
    expect(gateway.tokenize(card("4111111111111112"))).toEqual({ ok: false, message: "Credit card number is invalid." });
    expect(gateway.tokenize(card("41111111111"))).toEqual({ ok: false, message: "Credit card number must be 12-19 digits." });
    expect(gateway.tokenize(card("4111abcd11111111"))).toMatchObject({ ok: false });
    const real = gateway.tokenize(card("4242424242424242"));
    expect(real).toMatchObject({ ok: false, message: expect.stringContaining("test card numbers only") });
  });

  it("refuses an expiry in the past or not a month, and takes the current month", () => {
    const gateway = gatewayAt({ date: TODAY });
    const expiryRefused = { ok: false, message: "Expiration date is invalid or in the past." };
    expect(gateway.tokenize(card("4111111111111111", { expirationDate: "10/26" }))).toEqual(expiryRefused);
    expect(gateway.tokenize(card("4111111111111111", { expirationDate: "13/29" }))).toEqual(expiryRefused);
    expect(gateway.tokenize(card("4111111111111111", { expirationDate: "1229" }))).toEqual(expiryRefused);
    expect(gateway.tokenize(card("4111111111111111", { expirationDate: "12/60" }))).toEqual(expiryRefused);
    expect(gateway.tokenize(card("4111111111111111", { expirationDate: "11/26" }))).toMatchObject({ ok: true });
    expect(gateway.tokenize(card("4111111111111111", { expirationDate: "01/2027" }))).toMatchObject({ ok: true });
  });

  it("refuses a CVV of the wrong length for the card type", () => {
    const gateway = gatewayAt({ date: TODAY });
    const cvvRefused = { ok: false, message: "CVV must be 4 digits for American Express and 3 digits for other card types." };
    expect(gateway.tokenize(card("4111111111111111", { cvv: "12" }))).toEqual(cvvRefused);
    expect(gateway.tokenize(card("4111111111111111", { cvv: "1234" }))).toEqual(cvvRefused);
    expect(gateway.tokenize(card("378282246310005", { cvv: "123" }))).toEqual(cvvRefused);
    expect(gateway.tokenize(card("4111111111111111", { cvv: "12a" }))).toEqual(cvvRefused);
  });
});

describe("local sandbox gateway: amounts, like Braintree's sandbox", () => {
  const cases: [number, string, string][] = [
    [1, "authorized", "1000 Approved"],
    [199_999, "authorized", "1000 Approved"],
    [200_000, "declined", "2000 Do Not Honor"],
    [200_150, "declined", "2001 Insufficient Funds"],
    [204_600, "declined", "2046 Declined"],
    [299_999, "declined", "2999 Processor Declined"],
    [300_000, "processor_unavailable", "3000 Processor Network Unavailable - Try Again"],
    [300_099, "processor_unavailable", "3000 Processor Network Unavailable - Try Again"],
    [300_100, "authorized", "1000 Approved"],
    [500_100, "declined", "Gateway Rejected: application_incomplete"],
    [500_101, "authorized", "1000 Approved"],
  ];
  it.each(cases)("%i cents → %s (%s)", async (amountCents, status, processorResponse) => {
    const gateway = gatewayAt({ date: TODAY });
    expect(await pay(gateway, nonceFor(gateway, card("4111111111111111")), amountCents)).toMatchObject({ status, processorResponse });
  });

  it("declines a zero or negative amount without using the nonce", async () => {
    const gateway = gatewayAt({ date: TODAY });
    const nonce = nonceFor(gateway, card("4111111111111111"));
    expect(await pay(gateway, nonce, 0)).toEqual({ status: "declined", transactionId: null, processorResponse: "81531 Amount must be greater than zero." });
    expect((await pay(gateway, nonce, 100)).status).toBe("authorized");
  });
});

describe("local sandbox gateway: nonces", () => {
  it("uses a nonce once", async () => {
    const gateway = gatewayAt({ date: TODAY });
    const nonce = nonceFor(gateway, card("4111111111111111"));
    expect((await pay(gateway, nonce)).status).toBe("authorized");
    expect(await pay(gateway, nonce)).toEqual({
      status: "declined",
      transactionId: null,
      processorResponse: "91564 Cannot use a payment_method_nonce more than once.",
    });
  });

  it("forgets a nonce after its lifetime, and never knew a made-up one", async () => {
    const clock = { date: TODAY };
    const gateway = gatewayAt(clock);
    const nonce = nonceFor(gateway, card("4111111111111111"));
    clock.date = new Date(TODAY.getTime() + 60_001);
    const expired = { status: "declined", transactionId: null, processorResponse: "91565 Unknown or expired payment_method_nonce." };
    expect(await pay(gateway, nonce)).toEqual(expired);
    expect(await pay(gateway, "tokencc_sb_made-up")).toEqual(expired);
  });

  it("hands out a fresh opaque client token each time", async () => {
    const gateway = gatewayAt({ date: TODAY });
    const [a, b] = [await gateway.clientToken(), await gateway.clientToken()];
    expect(a).not.toBe(b);
    expect(JSON.parse(Buffer.from(a, "base64").toString())).toMatchObject({ environment: "local-sandbox" });
  });
});

describe("local sandbox gateway: settlement and void", () => {
  async function authorized(gateway: SandboxGateway, amountCents = 1500): Promise<string> {
    const result = await pay(gateway, nonceFor(gateway, card("4111111111111111")), amountCents);
    if (result.status !== "authorized") throw new Error("not authorized");
    return result.transactionId;
  }

  it("submits an authorization for settlement once, up to the authorized amount", async () => {
    const gateway = gatewayAt({ date: TODAY });
    const id = await authorized(gateway);
    expect(await gateway.submitForSettlement(id, 1600)).toMatchObject({ status: "refused", processorResponse: "91522 Settlement amount is too large." });
    expect(await gateway.submitForSettlement(id, 1500)).toMatchObject({ status: "submitted_for_settlement" });
    expect(await gateway.submitForSettlement(id, 1500)).toMatchObject({ status: "refused" });
  });

  it("voids an authorization (or a submitted one) once, and knows no other transaction", async () => {
    const gateway = gatewayAt({ date: TODAY });
    const id = await authorized(gateway);
    expect(await gateway.void(id)).toMatchObject({ status: "voided" });
    expect(await gateway.void(id)).toMatchObject({ status: "refused" });
    expect(await gateway.submitForSettlement(id, 1500)).toMatchObject({ status: "refused" });
    const submitted = await authorized(gateway);
    await gateway.submitForSettlement(submitted, 1500);
    expect(await gateway.void(submitted)).toMatchObject({ status: "voided" });
    expect(await gateway.void("nosuchid")).toMatchObject({ status: "refused", processorResponse: "91502 Transaction could not be found." });
  });

  it("keeps no declined transaction to settle", async () => {
    const gateway = gatewayAt({ date: TODAY });
    const declined = await pay(gateway, nonceFor(gateway, card("4000111111111115")));
    expect(await gateway.submitForSettlement(declined.transactionId!, 1234)).toMatchObject({ status: "refused" });
  });
});

describe("local sandbox gateway: finding an attempt by its reference (the recovery sweep)", () => {
  it("finds the attempt's transaction while it holds the card, and says when it no longer does", async () => {
    const gateway = gatewayAt({ date: TODAY });
    const [visa] = APPROVED_TEST_CARDS;
    const held = await gateway.authorize({ amountCents: 1234, nonce: nonceFor(gateway, card(visa!)), reference: "7-a" });
    await gateway.authorize({ amountCents: 1234, nonce: nonceFor(gateway, card(visa!)), reference: "7-b" });
    expect(await gateway.findByReference("7-a")).toEqual([{ transactionId: held.transactionId, held: true }]);
    expect(gateway.heldTransactions()).toHaveLength(2);
    await gateway.void(held.transactionId!);
    expect(await gateway.findByReference("7-a")).toEqual([{ transactionId: held.transactionId, held: false }]);
    expect(await gateway.findByReference("unknown")).toEqual([]);
    expect(gateway.heldTransactions()).toHaveLength(1);
  });
});
