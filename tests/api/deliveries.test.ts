import { and, count, eq, inArray } from "drizzle-orm";
import { expect, it } from "vitest";
import { API_MEDIA_TYPE } from "../../domain/contract/common.ts";
import { deliveryFormEntries, type DeliveryCompletion, type RecipientSubmission } from "../../domain/contract/deliveries.ts";
import { toFormData, type FormValue } from "../../domain/contract/form-fields.ts";
import { ItineraryResponse } from "../../domain/contract/itinerary.ts";
import { TokenizeResponse } from "../../domain/contract/payments.ts";
import { statusByName } from "../../domain/vocabulary.ts";
import { auditEvents, deliveries, deliveryOrders, orders, payments } from "../../server/db/schema.ts";
import { describeApi, type ApiClient } from "../support/api-harness.ts";
import { OCCURRED, CALLED } from "../support/instants.ts";

const URL = "/api/courier/deliveries";
const SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" viewBox="0 0 354 200" width="354" height="200">' +
  '<path d="M 10.000,20.000 C 11.000,21.000 12.500,22.000 14.000,23.000" stroke-width="2.250" stroke="black" fill="none" stroke-linecap="round"></path>' +
  '<circle r="1.5" cx="40" cy="50" fill="black"></circle></svg>';
const NO_SURVEY = { have_you_left_prescription_at_pharmacy: null, use_delivery_service_again: null, refill_reminder_opt_in: null };
const PATIENT = 1;
const OTHER = 2;
const NO_RECIPIENT = 3;
const CONTACTLESS = 4;

function completion(orderIds: number[], overrides: Partial<DeliveryCompletion> = {}): DeliveryCompletion {
  return {
    order_ids: orderIds,
    signature_svg: SVG,
    body: null,
    signed_by: null,
    dob_verified: null,
    recipient_called_at: null,
    client_occurred_at: OCCURRED,
    relationship_id: PATIENT,
    recipient_first_name: null,
    recipient_last_name: null,
    other_relationship_description: null,
    survey: NO_SURVEY,
    order_payment: null,
    identification_state: null,
    identification_type: null,
    identification_number: null,
    identification_expiration: null,
    signature_refusal_reason: null,
    ...overrides,
  };
}

describeApi("POST /api/courier/deliveries", (api) => {
  const db = () => api().database.db;

  async function orderOf(lastName: string, firstName?: string) {
    const rows = await db().select().from(orders).where(eq(orders.patientLastName, lastName));
    const row = firstName ? rows.find((r) => r.patientFirstName === firstName) : rows[0];
    if (!row) throw new Error(`no demo order for ${firstName ?? ""} ${lastName}`);
    return row;
  }
  const idOf = async (lastName: string, firstName?: string) => (await orderOf(lastName, firstName)).id;

  /** The pickup endpoints are another feature: these tests put demo orders in the bag directly. */
  async function pickedUp(...names: [string, string?][]): Promise<number[]> {
    const ids = await Promise.all(names.map(([last, first]) => idOf(last, first)));
    await db().update(orders).set({ statusId: statusByName("picked_up").id }).where(inArray(orders.id, ids));
    return ids;
  }

  /** A POST to the deliveries endpoint with the body exactly as the test gives it. */
  const postRaw = (client: ApiClient, contentType: string, payload: string | Buffer, headers: Record<string, string> = {}) =>
    api().app.inject({
      method: "POST",
      url: URL,
      headers: { accept: API_MEDIA_TYPE, cookie: client.cookie, "content-type": contentType, ...headers },
      payload,
    });

  async function postForm(
    client: ApiClient,
    entries: [string, FormValue][],
    csrf: "field" | "header" | "none" = "field",
    headers: Record<string, string> = {},
  ) {
    const request = new Request("http://localhost/", {
      method: "POST",
      body: toFormData(csrf === "field" ? [["_csrf_token", client.csrfToken], ...entries] : entries),
    });
    return postRaw(client, request.headers.get("content-type")!, Buffer.from(await request.arrayBuffer()), {
      ...(csrf === "header" ? { "x-csrf-token": client.csrfToken } : {}),
      ...headers,
    });
  }
  const submit = (client: ApiClient, submission: DeliveryCompletion | RecipientSubmission, csrf?: "field" | "header" | "none") =>
    postForm(client, deliveryFormEntries(submission), csrf);

  const fail = (client: ApiClient, orderIds: number[], reason = "Patient Not Home", options?: { csrf?: boolean }) =>
    client.post(URL, { delivery: { failure_reason: reason, client_occurred_at: OCCURRED, order_ids: orderIds } }, options);

  async function itineraryOrder(client: ApiClient, id: number) {
    const response = await client.get("/api/courier/itinerary");
    return ItineraryResponse.parse(response.json()).orders.find((order) => order.id === id)!;
  }

  async function deliveryOf(deliveryId: number) {
    const [row] = await db().select().from(deliveries).where(eq(deliveries.id, deliveryId));
    const members = await db().select().from(deliveryOrders).where(eq(deliveryOrders.deliveryId, deliveryId));
    return { row: row!, orderIds: members.map((m) => m.orderId).sort((a, b) => a - b) };
  }

  /** Everything a refused request could have half-written. */
  async function databaseState() {
    const [d] = await db().select({ n: count() }).from(deliveries);
    const [o] = await db().select({ n: count() }).from(deliveryOrders);
    const [a] = await db().select({ n: count() }).from(auditEvents);
    const rows = await db().select().from(orders).orderBy(orders.id);
    return { deliveries: d!.n, deliveryOrders: o!.n, audit: a!.n, orders: rows };
  }
  async function expectRefusedUnchanged(request: () => Promise<{ statusCode: number; json(): unknown }>, status: number) {
    const before = await databaseState();
    const response = await request();
    expect(response.statusCode, JSON.stringify(response.json())).toBe(status);
    expect(await databaseState()).toEqual(before);
    return response.json() as { error: string; message: string };
  }

  // ---------------------------------------------------------------- successes

  it("records a failed delivery (JSON): delivery_attempted, a failed delivery row, the audit trail", async () => {
    const client = await api().login();
    const id = await idOf("Haddad");
    const response = await fail(client, [id]);
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json();
    expect(body).toEqual({ delivery: { id: expect.any(Number), status: "delivery_attempted", order_ids: [id] } });
    expect((await itineraryOrder(client, id)).status.name).toBe("delivery_attempted");
    const { row, orderIds } = await deliveryOf(body.delivery.id);
    expect(orderIds).toEqual([id]);
    expect(row).toMatchObject({ outcome: "failed", failureReasonId: 1, courierId: client.courierId, signatureSvg: null });
    expect(row.clientOccurredAt?.toISOString()).toBe(OCCURRED);
    const trail = await db().select().from(auditEvents).where(and(eq(auditEvents.orderId, id), eq(auditEvents.action, "status_change")));
    expect(trail.at(-1)).toMatchObject({ fromStatus: "picked_up", toStatus: "delivery_attempted" });
    expect(trail.at(-1)!.clientOccurredAt?.toISOString()).toBe(OCCURRED);
  });

  it("keeps the courier's notes of a failed recipient step", async () => {
    const client = await api().login();
    const [id] = await pickedUp(["Jimenez"]);
    const response = await client.post(URL, {
      delivery: { failure_reason: "Patient Not Home", client_occurred_at: OCCURRED, order_ids: [id], body: "Rang twice, no answer" },
    });
    expect(response.statusCode, response.body).toBe(200);
    expect((await deliveryOf(response.json().delivery.id)).row.body).toBe("Rang twice, no answer");
  });

  it("records a No Recipient submission (multipart, CSRF as a form field): delivered, no payment", async () => {
    const client = await api().login();
    const [id] = await pickedUp(["Okafor"]);
    const response = await submit(client, {
      order_ids: [id!],
      relationship: "No Recipient",
      relationship_id: NO_RECIPIENT,
      recipient_called_at: CALLED,
      client_occurred_at: OCCURRED,
      body: "Left with the front desk as instructed",
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().delivery).toMatchObject({ status: "delivered", order_ids: [id] });
    const order = await itineraryOrder(client, id!);
    expect(order).toMatchObject({
      status: { name: "delivered" },
      recipient_relationship_id: NO_RECIPIENT,
      recipient_first_name: null,
      recipient_called_at: CALLED,
      payment_collected: false,
    });
    const { row } = await deliveryOf(response.json().delivery.id);
    expect(row).toMatchObject({ outcome: "completed", relationshipId: NO_RECIPIENT, body: "Left with the front desk as instructed", signatureSvg: null });
  });

  it("records a contactless submission with notes", async () => {
    const client = await api().login();
    const id = await idOf("Mayfield");
    const response = await submit(
      client,
      { order_ids: [id], relationship: "Contactless - No Signature Requested", relationship_id: CONTACTLESS, recipient_called_at: null, client_occurred_at: OCCURRED, body: "In the lockbox" },
      "header",
    );
    expect(response.statusCode, response.body).toBe(200);
    expect((await itineraryOrder(client, id)).recipient_relationship_id).toBe(CONTACTLESS);
  });

  it("completes a delivery with signature, date of birth, ID, cash copay, survey and location", async () => {
    const client = await api().login();
    const [id] = await pickedUp(["Delgado"]);
    const response = await submit(
      client,
      completion([id!], {
        signed_by: "Rosa Delgado",
        dob_verified: true,
        recipient_called_at: CALLED,
        survey: { have_you_left_prescription_at_pharmacy: false, use_delivery_service_again: true, refill_reminder_opt_in: null },
        order_payment: { payment_type: "cash", amount: "45.00", new_copay: null, transaction_id: null },
        identification_state: "PA",
        identification_type: "driver",
        identification_number: "D1234567",
        identification_expiration: "2030-12-31",
        latitude: 39.9389,
        longitude: -75.1575,
      }),
    );
    expect(response.statusCode, response.body).toBe(200);
    const deliveryId = response.json().delivery.id;
    const order = await itineraryOrder(client, id!);
    expect(order).toMatchObject({
      status: { name: "delivered" },
      recipient_relationship_id: PATIENT,
      // Patient (not grouped): the names are the patient's.
      recipient_first_name: "Rosa",
      recipient_last_name: "Delgado",
      payment_collected: true,
      payment_type: "cash",
      identification_type: "driver",
      identification_state: "PA",
      identification_number: "D1234567",
      identification_expiration: "2030-12-31",
      recipient_called_at: CALLED,
    });
    const { row, orderIds } = await deliveryOf(deliveryId);
    expect(orderIds).toEqual([id]);
    expect(row).toMatchObject({
      outcome: "completed",
      signatureSvg: SVG,
      signedBy: "Rosa Delgado",
      dobVerified: true,
      latitude: 39.9389,
      longitude: -75.1575,
      survey: { have_you_left_prescription_at_pharmacy: false, use_delivery_service_again: true, refill_reminder_opt_in: null },
      paymentType: "cash",
      paymentAmountCents: 4500,
      identificationExpiration: "2030-12-31",
    });
  });

  it("delivers every grouped order together", async () => {
    const client = await api().login();
    const ids = await pickedUp(["Johnson", "Harold"], ["Johnson", "Margaret"]);
    const response = await submit(
      client,
      completion(ids, { dob_verified: true, recipient_first_name: "Harold", recipient_last_name: "Johnson", signed_by: "Harold Johnson" }),
    );
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().delivery.order_ids).toEqual(ids);
    for (const id of ids) {
      expect(await itineraryOrder(client, id)).toMatchObject({ status: { name: "delivered" }, recipient_first_name: "Harold", recipient_relationship_id: PATIENT });
    }
    expect((await deliveryOf(response.json().delivery.id)).orderIds).toEqual([...ids].sort((a, b) => a - b));
  });

  it("completes with a signature refusal reason and notes where the pharmacy can skip signatures", async () => {
    const client = await api().login();
    const [id] = await pickedUp(["Brennan"]);
    const response = await submit(
      client,
      completion([id!], { signature_svg: null, signature_refusal_reason: "refused", body: "Would not sign", dob_verified: true }),
    );
    expect(response.statusCode, response.body).toBe(200);
    const { row } = await deliveryOf(response.json().delivery.id);
    expect(row).toMatchObject({ signatureSvg: null, signatureRefusalReason: "refused", body: "Would not sign", signedBy: null });
    expect((await itineraryOrder(client, id!)).status.name).toBe("delivered");
  });

  it("completes a card payment authorized through the payments API and captures it", async () => {
    const client = await api().login();
    const [id] = await pickedUp(["Ivanova"]);
    const token = await client.post("/api/payments/sandbox/tokenize", { number: "4111111111111111", cvv: "123", expiration_date: "12/40" });
    expect(token.statusCode, token.body).toBe(200);
    const authorized = await client.put(`/api/courier/orders/${id}/authorize`, {
      delivery: { order_payment: { payment_type: "credit_card", token: TokenizeResponse.parse(token.json()).nonce, total: "40.00" } },
    });
    expect(authorized.statusCode, authorized.body).toBe(200);
    const transactionId = authorized.json().transaction_id as string;

    const wrong = await expectRefusedUnchanged(
      () => submit(client, completion([id!], { order_payment: { payment_type: "credit_card", amount: "40.00", new_copay: null, transaction_id: "not-it" } })),
      409,
    );
    expect(wrong.message).toBe(`Order ${id} has no card authorization with transaction not-it.`);

    const response = await submit(
      client,
      completion([id!], { order_payment: { payment_type: "credit_card", amount: "40.00", new_copay: null, transaction_id: transactionId } }),
    );
    expect(response.statusCode, response.body).toBe(200);
    expect(await itineraryOrder(client, id!)).toMatchObject({ status: { name: "delivered" }, payment_authorized: true, payment_type: "card", payment_collected: false });
    const [payment] = await db().select().from(payments).where(eq(payments.transactionId, transactionId));
    expect(payment!.status).toBe("settled");
  });

  it("releases a card authorization when the delivery fails", async () => {
    const client = await api().login();
    const okafor = await orderOf("Okafor");
    // A fresh order like Okafor's (Market Street takes cards): 12.50 copay + 3.00 fee; not the pharmacy's external_id again.
    const { id: _id, updatedAt: _updated, ...copy } = okafor;
    const [row] = await db()
      .insert(orders)
      .values({ ...copy, externalId: null, statusId: statusByName("picked_up").id, copayCents: 1250, deliveryFeeCents: 300, paymentAuthorized: false, recipientRelationshipId: null })
      .returning({ id: orders.id });
    const id = row!.id;
    const token = await client.post("/api/payments/sandbox/tokenize", { number: "4111111111111111", cvv: "123", expiration_date: "12/40" });
    const authorized = await client.put(`/api/courier/orders/${id}/authorize`, {
      delivery: { order_payment: { payment_type: "credit_card", token: TokenizeResponse.parse(token.json()).nonce, total: "15.50" } },
    });
    expect(authorized.statusCode, authorized.body).toBe(200);
    const response = await fail(client, [id], "Patient Could Not Provide Copayment");
    expect(response.statusCode, response.body).toBe(200);
    const [payment] = await db().select().from(payments).where(eq(payments.transactionId, authorized.json().transaction_id));
    expect(payment!.status).toBe("voided");
    expect(await itineraryOrder(client, id)).toMatchObject({ status: { name: "delivery_attempted" }, payment_authorized: false });
  });

  // ---------------------------------------------------------------- refusals

  it("refuses a request without the CSRF token (403), JSON or form", async () => {
    const client = await api().login();
    const id = await idOf("Nguyen");
    const json = await expectRefusedUnchanged(() => fail(client, [id], "Patient Not Home", { csrf: false }), 403);
    expect(json.error).toBe("csrf");
    const form = await expectRefusedUnchanged(
      () => submit(client, { order_ids: [id], relationship: "Contactless - No Signature Requested", relationship_id: CONTACTLESS, recipient_called_at: null, client_occurred_at: OCCURRED, body: "Porch" }, "none"),
      403,
    );
    expect(form.error).toBe("csrf");
  });

  it("refuses without a session (401)", async () => {
    const response = await api().anonymous("POST", URL, { delivery: { failure_reason: "Patient Not Home", client_occurred_at: OCCURRED, order_ids: [1] } });
    expect(response.statusCode).toBe(401);
  });

  it("answers another courier's order as not found (404)", async () => {
    const courier2 = await api().login("courier2@example.com");
    const mine = await idOf("Nguyen");
    const refused = await expectRefusedUnchanged(() => fail(courier2, [mine]), 404);
    expect(refused).toEqual({ error: "not_found", message: `Order ${mine} was not found.` });
    const client = await api().login();
    const theirs = await idOf("Thompson");
    await expectRefusedUnchanged(() => submit(client, completion([theirs])), 404);
    // One of mine with one of theirs: still nothing written.
    await expectRefusedUnchanged(() => fail(client, [mine, theirs]), 404);
  });

  it("refuses an order that is not picked up (409)", async () => {
    const client = await api().login();
    const id = await idOf("Kowalski");
    const refused = await expectRefusedUnchanged(() => fail(client, [id]), 409);
    expect(refused.message).toBe(`Order ${id} is new and cannot be marked as a failed delivery attempt.`);
    const delivered = await idOf("Haddad");
    const again = await expectRefusedUnchanged(() => fail(client, [delivered]), 409);
    expect(again.message).toContain("delivery attempted");
  });

  it("refuses a completion without a signature or a valid refusal (400)", async () => {
    const client = await api().login();
    const [id] = await pickedUp(["Diaz"]);
    const unsigned = await expectRefusedUnchanged(() => submit(client, completion([id!], { signature_svg: null, dob_verified: true })), 400);
    expect(unsigned).toEqual({ error: "signature_required", message: "The recipient must sign." });
    // Northside cannot skip signatures.
    const refusal = await expectRefusedUnchanged(
      () => submit(client, completion([id!], { signature_svg: null, signature_refusal_reason: "refused", body: "Would not sign", dob_verified: true })),
      400,
    );
    expect(refusal.message).toBe("This pharmacy requires a signature.");
    const [brennanLike] = await pickedUp(["Abernathy"]);
    const noNotes = await expectRefusedUnchanged(
      () => submit(client, completion([brennanLike!], { signature_svg: null, signature_refusal_reason: "other", body: "ok", dob_verified: true })),
      400,
    );
    expect(noNotes.message).toBe("Notes: at least 3 characters.");
    const unknownReason = await expectRefusedUnchanged(
      () => submit(client, completion([brennanLike!], { signature_svg: null, signature_refusal_reason: "bored", body: "bored now", dob_verified: true })),
      400,
    );
    expect(unknownReason.message).toBe("Choose a reason for not signing.");
  });

  it("refuses a recipient that does not count as selected, or is not offered (400)", async () => {
    const client = await api().login();
    const [id] = await pickedUp(["Diaz"]);
    const other = await expectRefusedUnchanged(
      () => submit(client, completion([id!], { relationship_id: OTHER, recipient_first_name: "Bo", recipient_last_name: "Lee", dob_verified: true })),
      400,
    );
    expect(other.message).toBe("Enter the recipient's first name, last name and relationship.");
    const longDescription = await expectRefusedUnchanged(
      () => submit(client, completion([id!], { relationship_id: OTHER, recipient_first_name: "Bo", recipient_last_name: "Lee", other_relationship_description: "x".repeat(33), dob_verified: true })),
      400,
    );
    expect(longDescription.message).toBe("delivery.other_relationship_description must be at most 32 characters.");
    // Diaz: copay 0.00, no signature required, no pharmacy config: No Recipient is not offered.
    const noRecipient = await expectRefusedUnchanged(
      () => submit(client, { order_ids: [id!], relationship: "No Recipient", relationship_id: NO_RECIPIENT, recipient_called_at: null, client_occurred_at: OCCURRED, body: "Not home" }),
      400,
    );
    expect(noRecipient.message).toBe(`No Recipient is not offered as the recipient of order ${id}.`);
    const price = await idOf("Price");
    const notesTooShort = await expectRefusedUnchanged(
      () => submit(client, { order_ids: [price], relationship: "Contactless - No Signature Requested", relationship_id: CONTACTLESS, recipient_called_at: null, client_occurred_at: OCCURRED, body: "ok" }),
      400,
    );
    expect(notesTooShort.message).toBe("Courier notes: at least 3 characters.");
    const mismatch = await expectRefusedUnchanged(
      () => submit(client, { order_ids: [price], relationship: "Patient", relationship_id: CONTACTLESS, recipient_called_at: null, client_occurred_at: OCCURRED, body: "Porch" }),
      400,
    );
    expect(mismatch.message).toContain("is not relationship 4");
    const noRelationship = await expectRefusedUnchanged(
      () => postForm(client, [["delivery[order_ids][]", String(price)], ["delivery[client_occurred_at]", OCCURRED]]),
      400,
    );
    expect(noRelationship.message).toContain("relationship_id");
  });

  it("refuses signatures that are not a plain drawing (400)", async () => {
    const client = await api().login();
    const [id] = await pickedUp(["Diaz"]);
    const cases: [string, string][] = [
      [SVG.replace("</svg>", "<script>alert(document.cookie)</script></svg>"), "The signature may contain drawing elements only, not <script>."],
      [SVG.replace("<svg ", '<svg onload="alert(1)" '), "The signature may not contain event handlers."],
      [SVG.replace("</svg>", '<foreignObject><iframe src="https://evil.example"/></foreignObject></svg>'), "The signature may contain drawing elements only, not <foreignObject>."],
      [SVG.replace("<circle ", '<circle xlink:href="https://evil.example/x" '), "The signature may not link to other resources."],
      ["not an svg", "The signature may not contain text."],
    ];
    for (const [svg, message] of cases) {
      const refused = await expectRefusedUnchanged(() => submit(client, completion([id!], { signature_svg: svg, dob_verified: true })), 400);
      expect(refused).toEqual({ error: "invalid_signature", message });
    }
    const png = await expectRefusedUnchanged(
      () =>
        postForm(client, [
          ...deliveryFormEntries(completion([id!], { signature_svg: null, dob_verified: true })),
          ["delivery[signature][attachment][file]", { filename: "signature.png", type: "image/png", content: "\u0089PNG" }],
        ]),
      400,
    );
    expect(png.message).toBe("The signature must be an SVG image (image/svg+xml).");
  });

  it("refuses oversized signatures and forms (413) before touching anything", async () => {
    const client = await api().login();
    const [id] = await pickedUp(["Diaz"]);
    const padding = `<path d="M0 0 ${"L1 1 ".repeat(60_000)}"/>`;
    const big = SVG.replace("</svg>", `${padding}</svg>`);
    expect(big.length).toBeGreaterThan(256 * 1024);
    const tooBig = await expectRefusedUnchanged(() => submit(client, completion([id!], { signature_svg: big, dob_verified: true })), 413);
    expect(tooBig.error).toBe("body_too_large");
    const huge = SVG.replace("</svg>", `<path d="M0 0 ${"L1 1 ".repeat(400_000)}"/></svg>`);
    await expectRefusedUnchanged(() => submit(client, completion([id!], { signature_svg: huge, dob_verified: true })), 413);
    const manyParts: [string, FormValue][] = Array.from({ length: 70 }, (_, i) => [`delivery[x${i}]`, "1"]);
    const parts = await expectRefusedUnchanged(() => postForm(client, manyParts), 413);
    expect(parts.message).toBe("The form has more than 60 parts.");
    const longFields: [string, FormValue][] = Array.from({ length: 5 }, (_, i) => [`delivery[f${i}]`, "x".repeat(20_000)]);
    await expectRefusedUnchanged(() => postForm(client, longFields), 413);
  });

  it("refuses malformed requests with 400, never 500", async () => {
    const client = await api().login();
    const id = await idOf("Nguyen");
    const malformedJson = await expectRefusedUnchanged(() => client.post(URL, "{not json"), 400);
    expect(malformedJson.error).toBe("malformed_json");
    const reason = await expectRefusedUnchanged(() => fail(client, [id], "Abducted by aliens"), 400);
    expect(reason.message).toContain("delivery.failure_reason");
    await expectRefusedUnchanged(() => client.post(URL, { delivery: { failure_reason: "Patient Not Home", client_occurred_at: "yesterday", order_ids: [id] } }), 400);
    await expectRefusedUnchanged(() => client.post(URL, { delivery: { failure_reason: "Patient Not Home", client_occurred_at: OCCURRED, order_ids: [] } }), 400);
    await expectRefusedUnchanged(() => client.post(URL, { delivery: { failure_reason: "Patient Not Home", client_occurred_at: OCCURRED, order_ids: [id, id] } }), 400);
    await expectRefusedUnchanged(() => client.post(URL, { delivery: { failure_reason: "Patient Not Home", client_occurred_at: OCCURRED, order_ids: [99_999_999_999] } }), 400);
    await expectRefusedUnchanged(() => client.post(URL, { nothing: true }), 400);
    const both = await expectRefusedUnchanged(
      () => client.post(URL, { delivery: { failure_reason: "Patient Not Home", client_occurred_at: OCCURRED, order_ids: [id], relationship_id: 1 } }),
      400,
    );
    expect(both.message).toBe("A failed delivery has no recipient, signature, payment or photo.");
    const badIds = await expectRefusedUnchanged(
      () => postForm(client, [["delivery[order_ids][]", "abc"], ["delivery[failure_reason]", "Patient Not Home"], ["delivery[client_occurred_at]", OCCURRED]]),
      400,
    );
    expect(badIds.error).toBe("invalid_request");
    const clash = await expectRefusedUnchanged(() => postForm(client, [["delivery[body]", "a"], ["delivery[body]", "b"]]), 400);
    expect(clash.message).toBe('The form field "delivery[body]" was sent more than once.');
    await expectRefusedUnchanged(() => postForm(client, [["delivery[__proto__][polluted]", "yes"]]), 400);
    const strayFile = await expectRefusedUnchanged(
      () => postForm(client, [["delivery[body]", { filename: "x.svg", type: "image/svg+xml", content: SVG }]]),
      400,
    );
    expect(strayFile.message).toBe("The form field delivery[body] may not carry a file.");
    const noBoundary = await expectRefusedUnchanged(
      () => postRaw(client, "multipart/form-data", "--x\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\n1\r\n--x--", { "x-csrf-token": client.csrfToken }),
      400,
    );
    expect(noBoundary.message).toContain("could not be read");
    const truncated = await expectRefusedUnchanged(
      () => postRaw(client, "multipart/form-data; boundary=zzz", '--zzz\r\nContent-Disposition: form-data; name="delivery[body]"\r\n\r\nhalf a fo', { "x-csrf-token": client.csrfToken }),
      400,
    );
    expect(truncated.error).toBe("invalid_request");
    const text = await expectRefusedUnchanged(
      () => postRaw(client, "text/plain", "hello", { "x-csrf-token": client.csrfToken }),
      415,
    );
    expect(text.error).toBe("unsupported_media_type");
  });

  it("refuses grouped orders that may not go together, writing nothing", async () => {
    const client = await api().login();
    const [timothy] = await pickedUp(["Johnson", "Timothy"]);
    const [walterLike] = await pickedUp(["Evans"]);
    const harold = await idOf("Johnson", "Harold");
    await db().update(orders).set({ statusId: statusByName("picked_up").id }).where(eq(orders.id, harold));
    const copayNull = await expectRefusedUnchanged(
      () => submit(client, completion([harold, timothy!], { dob_verified: true, recipient_first_name: "Harold", recipient_last_name: "Johnson" })),
      400,
    );
    expect(copayNull).toEqual({
      error: "not_groupable",
      message: `Order ${timothy} cannot be grouped with order ${harold}: grouped orders are picked up, from the same pharmacy and address, with copay 0.00, no delivery fee and no ID.`,
    });
    // Evans owes a copay: a group cannot be led by her order.
    const owes = await expectRefusedUnchanged(() => fail(client, [walterLike!, harold]), 400);
    expect(owes.error).toBe("not_groupable");
  });

  it("refuses a completion that claims a date of birth was verified for an order with none on file (400)", async () => {
    const client = await api().login();
    // Evans: Northside checks dates of birth, and her order has none. Park: Market Street does not check, and has none.
    const [evans, park] = await pickedUp(["Evans"], ["Park"]);
    const claimed = await expectRefusedUnchanged(
      () => submit(client, completion([evans!], { dob_verified: true, order_payment: { payment_type: "cash", amount: "6.50", new_copay: null, transaction_id: null } })),
      400,
    );
    expect(claimed).toEqual({
      error: "invalid_request",
      message: `Order ${evans} has no date of birth on file, so it cannot be verified. Choose 'Did not verify date of birth' and return the order to the pharmacy.`,
    });
    const unchecked = await expectRefusedUnchanged(() => submit(client, completion([park!], { dob_verified: true })), 400);
    expect(unchecked.message).toContain(`Order ${park} has no date of birth on file`);
    // What the courier can do instead: 'Did not verify date of birth', a failed attempt.
    const failed = await fail(client, [evans!], "Date of Birth Not Verified");
    expect(failed.statusCode, failed.body).toBe(200);
    expect(await itineraryOrder(client, evans!)).toMatchObject({ status: { name: "delivery_attempted" }, patient_date_of_birth: null });
  });

  it("refuses a completion missing its date of birth check, ID or correct payment (400)", async () => {
    const client = await api().login();
    const [russo, shah, eleanor] = await pickedUp(["Russo"], ["Shah"], ["Abernathy"]);
    const cash = (amount: string, type: "cash" | "check" = "cash", newCopay: string | null = null) => ({
      order_payment: { payment_type: type, amount, new_copay: newCopay, transaction_id: null },
    });
    const noId = await expectRefusedUnchanged(() => submit(client, completion([russo!], cash("15.99"))), 400);
    expect(noId).toEqual({ error: "identification_required", message: "ID: Choose the ID type." });
    const expired = await expectRefusedUnchanged(
      () =>
        submit(client, completion([russo!], {
          ...cash("15.99"),
          identification_type: "passport",
          identification_number: "X1",
          identification_expiration: "2026-11-20",
        })),
      400,
    );
    expect(expired.message).toBe("ID: This ID has expired.");
    const noDob = await expectRefusedUnchanged(() => submit(client, completion([eleanor!], cash("17.50"))), 400);
    expect(noDob.message).toBe("The patient's date of birth must be verified before the delivery is completed.");
    const wrongAmount = await expectRefusedUnchanged(() => submit(client, completion([eleanor!], { dob_verified: true, ...cash("12.50") })), 400);
    expect(wrongAmount.message).toBe(`The amount 12.50 is not the 17.50 owed on order ${eleanor}.`);
    const badCorrection = await expectRefusedUnchanged(() => submit(client, completion([eleanor!], { dob_verified: true, ...cash("5.50", "cash", "0.50") })), 400);
    expect(badCorrection.message).toContain("corrected copay");
    // A copay collected at pickup is no longer the courier's to correct at the door.
    await db().update(orders).set({ copayPaidAt: new Date() }).where(eq(orders.id, eleanor!));
    const paidAtPickup = await expectRefusedUnchanged(() => submit(client, completion([eleanor!], { dob_verified: true, ...cash("25.00", "check", "20.00") })), 400);
    expect(paidAtPickup.message).toBe("The copay on this order was already collected at pickup, so it cannot be corrected.");
    await db().update(orders).set({ copayPaidAt: null }).where(eq(orders.id, eleanor!));
    const check = await expectRefusedUnchanged(() => submit(client, completion([shah!], cash("19.50", "check"))), 400);
    expect(check.message).toBe("Market Street Apothecary does not accept check at the door.");
    // A corrected copay is taken at face value and becomes the order's copay.
    const corrected = await submit(client, completion([eleanor!], { dob_verified: true, ...cash("25.00", "check", "20.00") }));
    expect(corrected.statusCode, corrected.body).toBe(200);
    expect(await itineraryOrder(client, eleanor!)).toMatchObject({ copay: "20.00", payment_type: "check", payment_collected: true });
    // A passport needs no state; Russo's ID passes and the cash is recorded.
    const passport = await submit(client, completion([russo!], {
      ...cash("15.99"),
      identification_type: "passport",
      identification_number: "X1",
      identification_expiration: "12/31/2030",
    }));
    expect(passport.statusCode, passport.body).toBe(200);
    expect(await itineraryOrder(client, russo!)).toMatchObject({ identification_type: "passport", identification_state: null, identification_expiration: "2030-12-31" });
  });

  it("replays a resubmitted form with the same Idempotency-Key instead of refusing it as already delivered", async () => {
    const client = await api().login();
    const [id] = await pickedUp(["Coleman"]);
    const entries = deliveryFormEntries(completion([id!], { dob_verified: true, relationship_id: PATIENT, order_payment: { payment_type: "check", amount: "12.50", new_copay: null, transaction_id: null } }));
    const send = () => postForm(client, entries, "field", { "idempotency-key": "6f1d2c1e-8a7b-4c3d-9e0f-123456789abc" });
    const first = await send();
    expect(first.statusCode, first.body).toBe(200);
    const again = await send();
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual(first.json());
    expect(again.headers["idempotent-replayed"]).toBe("true");
    const rows = await db().select().from(deliveryOrders).where(eq(deliveryOrders.orderId, id!));
    expect(rows).toHaveLength(1);
  });

  it("is described in the OpenAPI document", async () => {
    const response = await api().anonymous("GET", "/api/openapi.json");
    expect(response.statusCode).toBe(200);
    const operation = response.json().paths["/api/courier/deliveries"].post;
    expect(Object.keys(operation.responses)).toEqual(expect.arrayContaining(["200", "400", "403", "404", "409", "413"]));
  });
});
