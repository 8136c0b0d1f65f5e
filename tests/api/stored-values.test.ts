import { count, eq, inArray } from "drizzle-orm";
import { expect, it } from "vitest";
import { API_MEDIA_TYPE } from "../../domain/contract/common.ts";
import { deliveryFormEntries, type DeliveryCompletion } from "../../domain/contract/deliveries.ts";
import { toFormData, type FormValue } from "../../domain/contract/form-fields.ts";
import { returnFormEntries } from "../../domain/contract/returns.ts";
import { statusByName } from "../../domain/vocabulary.ts";
import { deliveries, orders, payments, pharmacies, returnSignatures } from "../../server/db/schema.ts";
import type { AuthorizeRequest, PaymentGateway } from "../../server/payments/gateway.ts";
import { SandboxGateway } from "../../server/payments/sandbox-gateway.ts";
import { authorizeCardPayment, type AuthorizationStep } from "../../server/services/payments.ts";
import { describeApi, type ApiClient, type ApiContext } from "../support/api-harness.ts";
import { completion as baseCompletion } from "../support/courier-actions.ts";
import { OCCURRED } from "../support/instants.ts";

/**
 * Issue 14, findings 1–4 and 9: every value the API accepts is one the database
 * can store. Each of these was a 500 (or a wrong answer) before the request
 * schemas were built from domain/contract/scalars.ts.
 */

const SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 354 200" width="354" height="200">' +
  '<path d="M 10.000,20.000 C 11.000,21.000 12.500,22.000 14.000,23.000" stroke-width="2.250" stroke="black" fill="none"></path></svg>';
const OTHER = 2;
const VISA = "4111111111111111";

/** The shared completion, with this file's signature (its attributes are where the NUL and control characters go). */
function completion(orderIds: number[], overrides: Partial<DeliveryCompletion> = {}): DeliveryCompletion {
  return baseCompletion(orderIds, { signature_svg: SVG, ...overrides });
}

/** A refusal in the product's shape: 400, a code and a sentence. */
function expectBadRequest(response: { statusCode: number; body: string; json(): unknown }) {
  expect(response.statusCode, response.body).toBe(400);
  expect(response.json()).toMatchObject({ error: expect.any(String), message: expect.any(String) });
}

describeApi("stored values: what the API accepts the database can store", (api) => {
  const db = () => api().database.db;

  async function form(client: ApiClient, url: string, entries: [string, FormValue][]) {
    const request = new Request("http://localhost/", { method: "POST", body: toFormData([["_csrf_token", client.csrfToken], ...entries]) });
    return api().app.inject({
      method: "POST",
      url,
      headers: { accept: API_MEDIA_TYPE, cookie: client.cookie, "content-type": request.headers.get("content-type")! },
      payload: Buffer.from(await request.arrayBuffer()),
    });
  }

  /** A fresh order of the courier's own, out for delivery, owing the copay given. */
  async function newOrder(client: ApiClient, copayCents: number | null = null): Promise<number> {
    const [market] = await db().select().from(pharmacies).where(eq(pharmacies.name, "Market Street Apothecary"));
    const [row] = await db()
      .insert(orders)
      .values({
        courierId: client.courierId,
        pharmacyId: market!.id,
        serviceDate: "2026-11-21",
        statusId: statusByName("picked_up").id,
        patientFirstName: "Test",
        patientLastName: "Patient",
        recipientDescription: "Test Patient",
        streetAddress: "1 Test St",
        city: "Philadelphia",
        stateAbbreviation: "PA",
        zipcode: "19103",
        copayCents,
        otherItemsAmountDueCents: 0,
      })
      .returning({ id: orders.id });
    return row!.id;
  }
  const deliveryCount = async () => (await db().select({ n: count() }).from(deliveries))[0]!.n;
  const fail = (client: ApiClient, delivery: Record<string, unknown>) => client.post("/api/courier/deliveries", { delivery });

  it("finding 1: a NUL or other control character in any stored text is a 400, never a 500", async () => {
    const client = await api().login();
    const orderId = await newOrder(client);
    const before = await deliveryCount();

    expectBadRequest(await fail(client, { failure_reason: "Patient Not Home", client_occurred_at: OCCURRED, order_ids: [orderId], body: "a\u0000b" }));
    const completionWith = (overrides: Partial<DeliveryCompletion>) =>
      form(client, "/api/courier/deliveries", deliveryFormEntries(completion([orderId], overrides)));
    expectBadRequest(await completionWith({ body: "a\u0000b", signature_svg: null, signature_refusal_reason: "Patient refused" }));
    expectBadRequest(await completionWith({ signed_by: "Rosa\u0000" }));
    expectBadRequest(await completionWith({ relationship_id: OTHER, recipient_first_name: "Ro\u0000sa", recipient_last_name: "Delgado", other_relationship_description: "Neighbour" }));
    expectBadRequest(await completionWith({ relationship_id: OTHER, recipient_first_name: "Rosa", recipient_last_name: "Del\u0001gado", other_relationship_description: "Neighbour" }));
    expectBadRequest(await completionWith({ relationship_id: OTHER, recipient_first_name: "Rosa", recipient_last_name: "Delgado", other_relationship_description: "Neigh\u0000bour" }));
    expectBadRequest(await completionWith({ signature_svg: SVG.replace('stroke="black"', 'stroke="bla\u0000ck"') }));
    expectBadRequest(await completionWith({ signature_svg: SVG.replace('stroke="black"', 'stroke="bla\u0001ck"') }));
    // A lone surrogate would be silently changed on its way to UTF-8.
    expectBadRequest(await fail(client, { failure_reason: "Patient Not Home", client_occurred_at: OCCURRED, order_ids: [orderId], body: "a\uD800b" }));
    expect(await deliveryCount()).toBe(before);

    const [market] = await db().select().from(pharmacies).where(eq(pharmacies.name, "Market Street Apothecary"));
    const returnWith = (overrides: { first?: string; svg?: string }) =>
      form(
        client,
        `/api/courier/pharmacies/${market!.id}/returns`,
        returnFormEntries({
          recipient_first_name: overrides.first ?? "Priya",
          recipient_last_name: "Raman",
          signature_svg: overrides.svg ?? SVG,
          courier_id: client.courierId,
          pharmacy_id: market!.id,
          cash_collected: "0.00",
          check_collected: "0.00",
          latitude: null,
          longitude: null,
          returns: [],
        }),
      );
    const signaturesBefore = (await db().select({ n: count() }).from(returnSignatures))[0]!.n;
    expectBadRequest(await returnWith({ first: "Pri\u0000ya" }));
    expectBadRequest(await returnWith({ svg: SVG.replace('fill="none"', 'fill="no\u0000ne"') }));
    expect((await db().select({ n: count() }).from(returnSignatures))[0]!.n).toBe(signaturesBefore);
  });

  it("finding 2: a time outside the accepted window is a 400, never a 500", async () => {
    const client = await api().login();
    const orderId = await newOrder(client);
    const before = await deliveryCount();
    for (const time of ["0000-01-01T00:00:00Z", "0001-01-01T00:00:00+14:00", "9999-12-31T23:59:59-23:59", "2020-01-01T00:00:00Z"]) {
      expectBadRequest(await fail(client, { failure_reason: "Patient Not Home", client_occurred_at: time, order_ids: [orderId] }));
      const response = await form(client, "/api/courier/deliveries", deliveryFormEntries(completion([orderId], { recipient_called_at: time })));
      expectBadRequest(response);
      expect(response.json().message).toMatch(/recipient_called_at/);
    }
    // A phone a few hours ahead (a wrong time zone) is still accepted.
    const ahead = new Date(Date.now() + 3 * 3_600_000).toISOString();
    const accepted = await fail(client, { failure_reason: "Patient Not Home", client_occurred_at: ahead, order_ids: [orderId] });
    expect(accepted.statusCode, accepted.body).toBe(200);
    expect(await deliveryCount()).toBe(before + 1);
  });

  it("finding 3: money past the ceiling is a 400, never a 500 or a RangeError", async () => {
    const client = await api().login();
    const orderId = await newOrder(client, 1500);
    for (const copay of ["30000000.00", "21474836.47", "90071992547409.91", "100000.00"]) {
      const cash = await form(
        client,
        "/api/courier/deliveries",
        deliveryFormEntries(completion([orderId], { order_payment: { payment_type: "cash", amount: copay, new_copay: copay, transaction_id: null } })),
      );
      expectBadRequest(cash);
      expect(cash.json().message).toMatch(/99999\.99/);
      const card = await client.put(`/api/courier/orders/${orderId}/authorize`, {
        delivery: { order_payment: { payment_type: "credit_card", token: "fake-valid-nonce", new_copay: copay, total: copay } },
      });
      expectBadRequest(card);
    }
    expect(await db().select().from(payments).where(eq(payments.orderId, orderId))).toEqual([]);
    // The ceiling itself is a value the API takes (and the database stores).
    const ceiling = await client.put(`/api/courier/orders/${orderId}`, { order: { copay: "99999.99" } });
    expect(ceiling.statusCode).toBeLessThan(500);
  });

  it("finding 4: a return line's absurd amount is a 400 naming the field, not a 409 about $0.00", async () => {
    const client = await api().login();
    const orderId = await newOrder(client);
    const [market] = await db().select().from(pharmacies).where(eq(pharmacies.name, "Market Street Apothecary"));
    const response = await form(
      client,
      `/api/courier/pharmacies/${market!.id}/returns`,
      returnFormEntries({
        recipient_first_name: "Priya",
        recipient_last_name: "Raman",
        signature_svg: SVG,
        courier_id: client.courierId,
        pharmacy_id: market!.id,
        cash_collected: "0.00",
        check_collected: "0.00",
        latitude: null,
        longitude: null,
        returns: [{ type: "cash", amount: "99999999999999999999.99", order_id: orderId }],
      }),
    );
    expectBadRequest(response);
    expect(response.json().message).toMatch(/returns\.0\.amount.*99999\.99/);
  });

  it("finding 9: the signature file may say image/svg+xml; charset=utf-8", async () => {
    const client = await api().login();
    const orderId = await newOrder(client);
    const entries = deliveryFormEntries(completion([orderId])).map(([name, value]): [string, FormValue] =>
      typeof value === "string" ? [name, value] : [name, { ...value, type: "image/svg+xml; charset=utf-8" }],
    );
    const response = await form(client, "/api/courier/deliveries", entries);
    expect(response.statusCode, response.body).toBe(200);
    const latin = deliveryFormEntries(completion([await newOrder(client)])).map(([name, value]): [string, FormValue] =>
      typeof value === "string" ? [name, value] : [name, { ...value, type: "image/svg+xml; charset=iso-8859-1" }],
    );
    expectBadRequest(await form(client, "/api/courier/deliveries", latin));
  });

  describeAuthorizationOrdering(api, newOrder);
});

/**
 * Card authorization (finding 3's second half): the payments row is written
 * before the gateway is called, and a hold whose row or order cannot be
 * completed is released. The path is stopped at each step.
 */
function describeAuthorizationOrdering(
  api: () => ApiContext,
  newOrder: (client: ApiClient, copayCents: number | null) => Promise<number>,
) {
  class WatchedGateway extends SandboxGateway {
    authorized: string[] = [];
    voided: string[] = [];
    calls = 0;
    override async authorize(request: AuthorizeRequest) {
      this.calls++;
      const result = await super.authorize(request);
      if (result.status === "authorized") this.authorized.push(result.transactionId);
      return result;
    }
    override async void(transactionId: string) {
      this.voided.push(transactionId);
      return super.void(transactionId);
    }
  }
  const nonce = (gateway: SandboxGateway) => {
    const outcome = gateway.tokenize({ number: VISA, cvv: "123", expirationDate: "12/39" });
    if (!outcome.ok) throw new Error(outcome.message);
    return outcome.nonce;
  };

  it.each<[AuthorizationStep, { gatewayCalled: boolean; released: boolean; recorded: boolean }]>([
    ["row_written", { gatewayCalled: false, released: false, recorded: false }],
    ["row_committed", { gatewayCalled: false, released: false, recorded: false }],
    ["gateway_answered", { gatewayCalled: true, released: true, recorded: false }],
    ["row_completed", { gatewayCalled: true, released: true, recorded: false }],
    ["attempt_completed", { gatewayCalled: true, released: false, recorded: true }],
  ])("card authorization failing after %s leaves no hold without its row", async (step, expected) => {
    const db = api().database.db;
    const client = await api().login();
    const orderId = await newOrder(client, 800);
    const gateway = new WatchedGateway();
    const deps = {
      db,
      gateway: gateway as PaymentGateway,
      log: { error: () => undefined },
      checkpoint: (at: AuthorizationStep) => {
        if (at === step) throw new Error(`failed after ${at}`);
      },
    };
    await expect(authorizeCardPayment(deps, client.courierId, orderId, { payment_type: "credit_card", token: nonce(gateway), total: "8.00" })).rejects.toThrow(
      `failed after ${step}`,
    );
    expect(gateway.calls).toBe(expected.gatewayCalled ? 1 : 0);
    // Every hold the gateway gave was released at once, and nothing in our tables claims one (a crash is
    // tests/api/payment-crash-recovery.test.ts); the attempt's row, once written, says how it ended.
    expect(gateway.voided).toEqual(expected.released ? gateway.authorized : []);
    const rows = await db.select().from(payments).where(eq(payments.orderId, orderId));
    expect(rows.map((row) => row.status)).toEqual(step === "row_written" ? [] : [expected.recorded ? "authorized" : "failed"]);
    const [order] = await db.select().from(orders).where(inArray(orders.id, [orderId]));
    expect(order!.paymentAuthorized).toBe(expected.recorded);

    // The order can still be paid afterwards, once.
    const again = await authorizeCardPayment({ ...deps, checkpoint: undefined }, client.courierId, orderId, { payment_type: "credit_card", token: nonce(gateway), total: "8.00" });
    expect(again.transaction_id).toEqual(expect.any(String));
    expect((await db.select().from(payments).where(eq(payments.orderId, orderId))).map((row) => row.status).filter((status) => status === "authorized")).toEqual(["authorized"]);
  });
}
