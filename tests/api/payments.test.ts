import { and, eq } from "drizzle-orm";
import { expect, it } from "vitest";
import { ClientTokenResponse, SaveChargeDataResponse, TokenizeResponse } from "../../domain/contract/payments.ts";
import { TEXT } from "../../domain/texts.ts";
import { statusByName, type OrderStatusName } from "../../domain/vocabulary.ts";
import { idempotencyKeys, orders, payments, pharmacies } from "../../server/db/schema.ts";
import { SandboxGateway } from "../../server/payments/sandbox-gateway.ts";
import { authorizeCardPayment, captureOrderPayment, voidOrderPayment } from "../../server/services/payments.ts";
import { describeApi, type ApiClient } from "../support/api-harness.ts";

const VISA = "4111111111111111";
const FAR_EXPIRY = "12/39";

describeApi("card payments against the local sandbox gateway", (api) => {
  const db = () => api().database.db;

  async function pharmacyId(name: string): Promise<number> {
    const [row] = await db().select({ id: pharmacies.id }).from(pharmacies).where(eq(pharmacies.name, name));
    return row!.id;
  }

  /** An order of the courier's own at a pharmacy, in the given status, owing what the test needs. */
  async function newOrder(
    client: ApiClient,
    money: { copay: number | null; fee?: number | null; other?: number; copayPaidAt?: Date },
    options: { pharmacy?: string; status?: OrderStatusName } = {},
  ): Promise<number> {
    const [row] = await db()
      .insert(orders)
      .values({
        courierId: client.courierId,
        pharmacyId: await pharmacyId(options.pharmacy ?? "Market Street Apothecary"),
        serviceDate: "2026-11-21",
        statusId: statusByName(options.status ?? "picked_up").id,
        patientFirstName: "Test",
        patientLastName: "Patient",
        recipientDescription: "Test Patient",
        streetAddress: "1 Test St",
        city: "Philadelphia",
        stateAbbreviation: "PA",
        zipcode: "19103",
        copayCents: money.copay,
        deliveryFeeCents: money.fee ?? null,
        otherItemsAmountDueCents: money.other ?? 0,
        copayPaidAt: money.copayPaidAt ?? null,
      })
      .returning({ id: orders.id });
    return row!.id;
  }

  async function demoOrderId(lastName: string): Promise<number> {
    const [row] = await db().select({ id: orders.id }).from(orders).where(eq(orders.patientLastName, lastName));
    return row!.id;
  }

  async function nonce(client: ApiClient, number = VISA, cvv = number.length === 15 ? "1234" : "123"): Promise<string> {
    const response = await client.post("/api/payments/sandbox/tokenize", { number, cvv, expiration_date: FAR_EXPIRY });
    expect(response.statusCode, response.body).toBe(200);
    return TokenizeResponse.parse(response.json()).nonce;
  }

  function paymentBody(total: string, token: string | null, extra: Record<string, unknown> = {}) {
    return {
      delivery: {
        order_payment: {
          payment_type: "credit_card",
          token,
          email: "",
          new_copay: null,
          total,
          braintree_transaction_id: null,
          ...extra,
        },
      },
    };
  }

  const authorize = (client: ApiClient, orderId: number, body: unknown, options?: { csrf?: boolean }) =>
    client.put(`/api/courier/orders/${orderId}/authorize`, body, options);

  const paymentRows = (orderId: number) => db().select().from(payments).where(eq(payments.orderId, orderId)).orderBy(payments.id);

  async function orderRow(orderId: number) {
    const [row] = await db().select().from(orders).where(eq(orders.id, orderId));
    return row!;
  }

  it("hands out a client token naming the sandbox gateway, only to a logged-in courier, never cached", async () => {
    const client = await api().login();
    const response = await client.get("/api/courier/payments/client_token");
    expect(response.statusCode).toBe(200);
    expect(response.headers["cache-control"]).toBe("no-store");
    const body = ClientTokenResponse.parse(response.json());
    expect(body.gateway).toBe("sandbox");
    expect(body.client_token.length).toBeGreaterThan(20);
    expect((await api().anonymous("GET", "/api/courier/payments/client_token")).statusCode).toBe(401);
  });

  it("tokenizes a test card into a nonce and the card's type and last four, and nothing else", async () => {
    const client = await api().login();
    const response = await client.post("/api/payments/sandbox/tokenize", { number: "3782 822463 10005", cvv: "1234", expiration_date: FAR_EXPIRY });
    expect(response.statusCode).toBe(200);
    const body = TokenizeResponse.parse(response.json());
    expect(body.details).toEqual({ card_type: "American Express", last_four: "0005" });
    expect(body.nonce).toMatch(/^tokencc_sb_/);
    expect(response.body).not.toContain("378282246310005");
  });

  it("refuses an expired card, a wrong-length CVV, a non-test number and a bad number with 400 in words", async () => {
    const client = await api().login();
    const tokenize = (number: string, cvv: string, expiration_date: string) =>
      client.post("/api/payments/sandbox/tokenize", { number, cvv, expiration_date });
    const expired = await tokenize(VISA, "123", "01/20");
    expect(expired.statusCode).toBe(400);
    expect(expired.json()).toEqual({ error: "card_invalid", message: "Expiration date is invalid or in the past." });
    const amexCvv = await tokenize("378282246310005", "123", FAR_EXPIRY);
    expect(amexCvv.statusCode).toBe(400);
    expect(amexCvv.json().message).toBe("CVV must be 4 digits for American Express and 3 digits for other card types.");
    const visaCvv = await tokenize(VISA, "1234", FAR_EXPIRY);
    expect(visaCvv.statusCode).toBe(400);
    const realLooking = await tokenize("4242424242424242", "123", FAR_EXPIRY);
    expect(realLooking.statusCode).toBe(400);
    expect(realLooking.json().message).toContain("test card numbers only");
    const luhn = await tokenize("4111111111111112", "123", FAR_EXPIRY);
    expect(luhn.json()).toEqual({ error: "card_invalid", message: "Credit card number is invalid." });
    const missing = await client.post("/api/payments/sandbox/tokenize", { number: VISA });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().error).toBe("invalid_request");
    expect((await client.post("/api/payments/sandbox/tokenize", { number: VISA, cvv: "123", expiration_date: FAR_EXPIRY }, { csrf: false })).statusCode).toBe(403);
  });

  it("never stores a fingerprint of card data under an Idempotency-Key", async () => {
    const client = await api().login();
    const key = "5d0c2f55-6a3b-4f4e-9c43-0f0d7f3c1a11";
    const response = await client.post(
      "/api/payments/sandbox/tokenize",
      { number: VISA, cvv: "123", expiration_date: FAR_EXPIRY },
      { headers: { "idempotency-key": key } },
    );
    expect(response.statusCode).toBe(200);
    expect(await db().select().from(idempotencyKeys).where(eq(idempotencyKeys.key, key))).toEqual([]);
  });

  it("authorizes the amount owed, records it, and marks the order paid by card", async () => {
    const client = await api().login();
    // Samuel Okafor at Market Street: copay 25.00 + delivery fee 3.99, picked up for this test.
    const orderId = await demoOrderId("Okafor");
    await db().update(orders).set({ statusId: statusByName("picked_up").id }).where(eq(orders.id, orderId));
    const token = await nonce(client);

    const response = await authorize(client, orderId, paymentBody("28.99", token, { _csrf_token: client.csrfToken }));
    expect(response.statusCode, response.body).toBe(200);
    const { transaction_id } = response.json() as { transaction_id: string };
    expect(transaction_id).toMatch(/^[a-z0-9]{8}$/);

    const rows = await paymentRows(orderId);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      status: "authorized",
      amountCents: 2899,
      newCopayCents: null,
      transactionId: transaction_id,
      gateway: "sandbox",
      paymentType: "card",
      processorResponse: "1000 Approved",
      courierId: client.courierId,
    });
    // Neither the nonce nor the card number is kept anywhere on the payment or the order.
    const order = await orderRow(orderId);
    const stored = JSON.stringify([rows, order]);
    expect(stored).not.toContain(token);
    expect(stored).not.toContain(VISA);
    expect(order).toMatchObject({ paymentAuthorized: true, paymentType: "card" });
    expect(order.chargeData).toEqual({ transaction_id, amount: "28.99", new_copay: null, gateway: "sandbox", payment_type: "credit_card" });
  });

  it("takes a corrected copay in place of the copay, and checks the total against it", async () => {
    const client = await api().login();
    const orderId = await newOrder(client, { copay: 1500, fee: 250 });
    const oldTotal = await authorize(client, orderId, paymentBody("17.50", await nonce(client), { new_copay: "20.00" }));
    expect(oldTotal.statusCode).toBe(400);
    expect(oldTotal.json()).toEqual({
      error: "amount_mismatch",
      message: "The total 17.50 does not match the 22.50 owed on this order (copay 20.00 + delivery fee 2.50 + other items 0.00).",
    });
    const response = await authorize(client, orderId, paymentBody("22.50", await nonce(client), { new_copay: "20.00" }));
    expect(response.statusCode, response.body).toBe(200);
    const [row] = await paymentRows(orderId);
    expect(row).toMatchObject({ status: "authorized", amountCents: 2250, newCopayCents: 2000 });
  });

  it("refuses a corrected copay under $1.00, all zeros or not a two-place amount with 400", async () => {
    const client = await api().login();
    const orderId = await newOrder(client, { copay: 1500 });
    for (const newCopay of ["0.99", "0.00", "000.00", "12", "1.5", "abc", "-5.00"]) {
      const response = await authorize(client, orderId, paymentBody("15.00", "any-nonce", { new_copay: newCopay }));
      expect(response.statusCode, newCopay).toBe(400);
      expect(response.json().message).toContain("new_copay");
    }
    expect(await paymentRows(orderId)).toEqual([]);
  });

  it("refuses a total that is not what is owed with 400, without calling the gateway", async () => {
    const client = await api().login();
    // Copay 10.00 + fee 1.50 + other items 4.00 = 15.50.
    const orderId = await newOrder(client, { copay: 1000, fee: 150, other: 400 });
    const token = await nonce(client);
    const wrong = await authorize(client, orderId, paymentBody("15.49", token));
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().error).toBe("amount_mismatch");
    expect(wrong.json().message).toContain("15.50");
    expect(await paymentRows(orderId)).toEqual([]);
    // Nonces are single-use: this one still working shows the gateway never saw it.
    expect((await authorize(client, orderId, paymentBody("15.50", token))).statusCode).toBe(200);
  });

  it("leaves the copay out once it was collected at pickup", async () => {
    const client = await api().login();
    const orderId = await newOrder(client, { copay: 1000, fee: 300, copayPaidAt: new Date() });
    const corrected = await authorize(client, orderId, paymentBody("23.00", await nonce(client), { new_copay: "20.00" }));
    expect(corrected.statusCode).toBe(400);
    expect((await authorize(client, orderId, paymentBody("3.00", await nonce(client)))).statusCode).toBe(200);
  });

  it("answers a declined card with 403 and the processor's words, records the decline, and lets another card pay", async () => {
    const client = await api().login();
    const orderId = await newOrder(client, { copay: 1200 });
    const declined = await authorize(client, orderId, paymentBody("12.00", await nonce(client, "4000111111111115")));
    expect(declined.statusCode).toBe(403);
    expect(declined.json()).toEqual({ error: "card_declined", message: "2000 Do Not Honor" });
    expect(await orderRow(orderId)).toMatchObject({ paymentAuthorized: false, chargeData: null });

    const paid = await authorize(client, orderId, paymentBody("12.00", await nonce(client, "5555555555554444")));
    expect(paid.statusCode).toBe(200);
    const rows = await paymentRows(orderId);
    expect(rows.map((row) => [row.status, row.amountCents, row.processorResponse])).toEqual([
      ["declined", 1200, "2000 Do Not Honor"],
      ["authorized", 1200, "1000 Approved"],
    ]);
  });

  it("declines amounts of $2000.00-$2999.99 with the matching processor response, like Braintree's sandbox", async () => {
    const client = await api().login();
    const orderId = await newOrder(client, { copay: 200_100 });
    const response = await authorize(client, orderId, paymentBody("2001.00", await nonce(client)));
    expect(response.statusCode).toBe(403);
    expect(response.json()).toEqual({ error: "card_declined", message: "2001 Insufficient Funds" });
  });

  it("answers a processor outage with 503 and the spec's words, and records the failed attempt", async () => {
    const client = await api().login();
    const orderId = await newOrder(client, { copay: 900 });
    const response = await authorize(client, orderId, paymentBody("9.00", await nonce(client, "4000300000000006")));
    expect(response.statusCode).toBe(503);
    expect(response.json()).toEqual({ error: "processor_unavailable", message: TEXT.processorUnavailable });
    const [row] = await paymentRows(orderId);
    expect(row).toMatchObject({ status: "failed", processorResponse: "3000 Processor Network Unavailable - Try Again" });

    const byAmount = await newOrder(client, { copay: 300_000 });
    expect((await authorize(client, byAmount, paymentBody("3000.00", await nonce(client)))).statusCode).toBe(503);
  });

  it("refuses an unknown or reused nonce as a decline", async () => {
    const client = await api().login();
    const first = await newOrder(client, { copay: 500 });
    const second = await newOrder(client, { copay: 500 });
    const token = await nonce(client);
    expect((await authorize(client, first, paymentBody("5.00", token))).statusCode).toBe(200);
    const reused = await authorize(client, second, paymentBody("5.00", token));
    expect(reused.statusCode).toBe(403);
    expect(reused.json().message).toBe("91564 Cannot use a payment_method_nonce more than once.");
    const unknown = await authorize(client, second, paymentBody("5.00", "tokencc_sb_made-up"));
    expect(unknown.json()).toEqual({ error: "card_declined", message: "91565 Unknown or expired payment_method_nonce." });
  });

  it("returns the first authorization to a retried submission without charging again", async () => {
    const client = await api().login();
    const orderId = await newOrder(client, { copay: 700 });
    const first = await authorize(client, orderId, paymentBody("7.00", await nonce(client)));
    const unusedToken = await nonce(client);
    const again = await authorize(client, orderId, paymentBody("7.00", unusedToken));
    expect(first.statusCode).toBe(200);
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual(first.json());
    expect((await paymentRows(orderId)).map((row) => row.status)).toEqual(["authorized"]);

    // The retry's nonce was never sent to the gateway: it still pays another order.
    const other = await newOrder(client, { copay: 700 });
    expect((await authorize(client, other, paymentBody("7.00", unusedToken))).statusCode).toBe(200);
  });

  it("authorizes once when the same payment is submitted several times at once", async () => {
    const client = await api().login();
    const orderId = await newOrder(client, { copay: 1850 });
    const tokens = await Promise.all([nonce(client), nonce(client), nonce(client)]);
    const responses = await Promise.all(tokens.map((token) => authorize(client, orderId, paymentBody("18.50", token))));
    expect(responses.map((response) => response.statusCode)).toEqual([200, 200, 200]);
    const ids = new Set(responses.map((response) => (response.json() as { transaction_id: string }).transaction_id));
    expect(ids.size).toBe(1);
    const rows = await paymentRows(orderId);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ status: "authorized", transactionId: [...ids][0] });
  });

  it("refuses to authorize a second, different amount once one is authorized", async () => {
    const client = await api().login();
    const orderId = await newOrder(client, { copay: 1000 });
    expect((await authorize(client, orderId, paymentBody("10.00", await nonce(client)))).statusCode).toBe(200);
    const different = await authorize(client, orderId, paymentBody("12.00", await nonce(client), { new_copay: "12.00" }));
    expect(different.statusCode).toBe(409);
    expect(different.json().message).toBe("This order's card payment was already authorized for 10.00.");
  });

  it("accepts a resubmission naming the authorized transaction, and refuses one naming another", async () => {
    const client = await api().login();
    const orderId = await newOrder(client, { copay: 1100 });
    const { transaction_id } = (await authorize(client, orderId, paymentBody("11.00", await nonce(client)))).json() as { transaction_id: string };
    const resubmitted = await authorize(client, orderId, paymentBody("11.00", null, { braintree_transaction_id: transaction_id }));
    expect(resubmitted.statusCode).toBe(200);
    expect(resubmitted.json()).toEqual({ transaction_id });
    const wrong = await authorize(client, orderId, paymentBody("11.00", null, { braintree_transaction_id: "zzzzzzzz" }));
    expect(wrong.statusCode).toBe(409);
    const never = await newOrder(client, { copay: 1100 });
    expect((await authorize(client, never, paymentBody("11.00", null, { braintree_transaction_id: transaction_id }))).statusCode).toBe(409);
  });

  it("refuses a payment without a card token with 400", async () => {
    const client = await api().login();
    const orderId = await newOrder(client, { copay: 1100 });
    const response = await authorize(client, orderId, paymentBody("11.00", null));
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe("The card token is missing. Please enter the card again.");
  });

  it("answers 404 for another courier's order, whichever way round", async () => {
    const dana = await api().login();
    const marcus = await api().login("courier2@example.com");
    const danas = await newOrder(dana, { copay: 1500 });
    const asMarcus = await authorize(marcus, danas, paymentBody("15.00", await nonce(marcus)));
    expect(asMarcus.statusCode).toBe(404);
    expect(asMarcus.json().error).toBe("not_found");
    const victor = await demoOrderId("Underwood");
    expect((await authorize(dana, victor, paymentBody("15.00", await nonce(dana)))).statusCode).toBe(404);
    expect((await authorize(dana, 999_999, paymentBody("15.00", "x"))).statusCode).toBe(404);
    expect(await paymentRows(danas)).toEqual([]);
  });

  it("lets courier2 pay Victor Underwood's copay at Market Street", async () => {
    const marcus = await api().login("courier2@example.com");
    const victor = await demoOrderId("Underwood");
    const response = await authorize(marcus, victor, paymentBody("15.00", await nonce(marcus, "6011111111111117")));
    expect(response.statusCode, response.body).toBe(200);
  });

  it("refuses with 409 an order not picked up, a pharmacy that takes no card, an order owing nothing or already paid", async () => {
    const client = await api().login();
    const notPickedUp = await newOrder(client, { copay: 1500 }, { status: "submitted_to_courier" });
    const refused = await authorize(client, notPickedUp, paymentBody("15.00", await nonce(client)));
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe(
      `Order ${notPickedUp} is submitted to courier; a card payment is taken only for an order out for delivery.`,
    );

    const cashOnly = await newOrder(client, { copay: 1500 }, { pharmacy: "Greenway Health Pharmacy" });
    const noCard = await authorize(client, cashOnly, paymentBody("15.00", await nonce(client)));
    expect(noCard.statusCode).toBe(409);
    expect(noCard.json()).toEqual({ error: "card_not_accepted", message: "Greenway Health Pharmacy does not accept card payments." });

    const nothingOwed = await newOrder(client, { copay: 0, fee: 0 });
    expect((await authorize(client, nothingOwed, paymentBody("0.00", await nonce(client)))).statusCode).toBe(409);

    const cashTaken = await newOrder(client, { copay: 1500 });
    await db().update(orders).set({ paymentCollected: true, paymentType: "cash" }).where(eq(orders.id, cashTaken));
    const collected = await authorize(client, cashTaken, paymentBody("15.00", await nonce(client)));
    expect(collected.statusCode).toBe(409);
    expect(collected.json().message).toBe(`The payment for order ${cashTaken} was already collected.`);
  });

  it("refuses with 409 a pharmacy that takes cards but does not collect payment at delivery", async () => {
    const client = await api().login();
    const [market] = await db().select().from(pharmacies).where(eq(pharmacies.name, "Market Street Apothecary"));
    const { id: _id, ...fields } = market!;
    await db()
      .insert(pharmacies)
      .values({ ...fields, name: "Card At Pickup Only", allowPodCopayCollection: false });
    const orderId = await newOrder(client, { copay: 1500 }, { pharmacy: "Card At Pickup Only" });
    const response = await authorize(client, orderId, paymentBody("15.00", await nonce(client)));
    expect(response.statusCode).toBe(409);
    expect(response.json()).toEqual({ error: "card_not_accepted", message: "Card At Pickup Only does not collect payment at delivery." });
  });

  it("refuses an authorization without the CSRF token, and a body that is not a card payment", async () => {
    const client = await api().login();
    const orderId = await newOrder(client, { copay: 1500 });
    const noCsrf = await authorize(client, orderId, paymentBody("15.00", await nonce(client)), { csrf: false });
    expect(noCsrf.statusCode).toBe(403);
    expect(noCsrf.json().error).toBe("csrf");
    const cash = await authorize(client, orderId, paymentBody("15.00", await nonce(client), { payment_type: "cash" }));
    expect(cash.statusCode).toBe(400);
    expect((await authorize(client, orderId, { total: "15.00" })).statusCode).toBe(400);
    expect((await authorize(client, orderId, paymentBody("15", "x"))).statusCode).toBe(400);
    expect(await paymentRows(orderId)).toEqual([]);
  });

  it("saves the delivery's charge data when it names the order's own authorization", async () => {
    const client = await api().login();
    const orderId = await newOrder(client, { copay: 1300, fee: 200 });
    const { transaction_id } = (await authorize(client, orderId, paymentBody("15.00", await nonce(client)))).json() as { transaction_id: string };

    const save = (charge: Record<string, unknown>, as: ApiClient = client, id = orderId) =>
      as.put(`/api/courier/orders/${id}`, { delivery: { charge_data: charge } });

    const saved = await save({ transaction_id, amount: "15.00", new_copay: null, payment_type: "credit_card" });
    expect(saved.statusCode, saved.body).toBe(200);
    const { order } = SaveChargeDataResponse.parse(saved.json());
    expect(order).toMatchObject({ id: orderId, payment_authorized: true, payment_type: "card" });
    expect(order.chargeData).toMatchObject({ transaction_id, amount: "15.00", gateway: "sandbox" });
    expect((await orderRow(orderId)).chargeData).toMatchObject({ transaction_id });

    const wrongTransaction = await save({ transaction_id: "abcdefgh", amount: "15.00" });
    expect(wrongTransaction.statusCode).toBe(400);
    expect(wrongTransaction.json().error).toBe("charge_data_mismatch");
    expect((await save({ transaction_id, amount: "14.00" })).statusCode).toBe(400);
    expect((await save({ transaction_id, amount: "15.00", new_copay: "13.00" })).statusCode).toBe(400);
    expect((await save({ transaction_id })).statusCode).toBe(400);

    const unpaid = await newOrder(client, { copay: 1300 });
    expect((await save({ transaction_id, amount: "15.00" }, client, unpaid)).statusCode).toBe(409);
    const marcus = await api().login("courier2@example.com");
    expect((await save({ transaction_id, amount: "15.00" }, marcus)).statusCode).toBe(404);
    expect((await client.put(`/api/courier/orders/${orderId}`, { delivery: { charge_data: { transaction_id, amount: "15.00" } } }, { csrf: false })).statusCode).toBe(403);
  });

  it("lists the payment endpoints in the OpenAPI document", async () => {
    const doc = (await api().anonymous("GET", "/api/openapi.json")).json();
    expect(doc.paths["/api/courier/payments/client_token"].get).toBeDefined();
    expect(doc.paths["/api/payments/sandbox/tokenize"].post).toBeDefined();
    expect(doc.paths["/api/courier/orders/{id}/authorize"].put.responses["403"]).toBeDefined();
    expect(doc.paths["/api/courier/orders/{id}"].put).toBeDefined();
  });

  it("captures an authorization at delivery and voids one for a failed delivery (service level)", async () => {
    const client = await api().login();
    const gateway = new SandboxGateway();
    const deps = { db: db(), gateway, log: { error: () => undefined } };
    const tokenize = () => {
      const outcome = gateway.tokenize({ number: VISA, cvv: "123", expirationDate: FAR_EXPIRY });
      if (!outcome.ok) throw new Error(outcome.message);
      return outcome.nonce;
    };
    const pay = (orderId: number) =>
      authorizeCardPayment(deps, client.courierId, orderId, { payment_type: "credit_card", token: tokenize(), total: "8.00" });

    const delivered = await newOrder(client, { copay: 800 });
    await pay(delivered);
    expect(await captureOrderPayment(db(), gateway, delivered)).toMatchObject({ status: "submitted_for_settlement" });
    expect((await paymentRows(delivered)).map((row) => row.status)).toEqual(["settled"]);
    expect(await captureOrderPayment(db(), gateway, delivered)).toBeNull();

    const failed = await newOrder(client, { copay: 800 });
    await pay(failed);
    expect(await voidOrderPayment(db(), gateway, failed)).toMatchObject({ status: "voided" });
    expect((await paymentRows(failed)).map((row) => row.status)).toEqual(["voided"]);
    expect(await orderRow(failed)).toMatchObject({ paymentAuthorized: false });
    expect(await voidOrderPayment(db(), gateway, failed)).toBeNull();
    // A voided authorization no longer blocks paying again.
    expect(await pay(failed)).toMatchObject({ transaction_id: expect.any(String) });
    expect(await db().select().from(payments).where(and(eq(payments.orderId, failed), eq(payments.status, "authorized")))).toHaveLength(1);
  });
});
