import type { FastifyInstance } from "fastify";
import { API_MEDIA_TYPE } from "../../domain/contract/common.ts";
import { deliveryFormEntries, type DeliveryCompletion, type RecipientSubmission } from "../../domain/contract/deliveries.ts";
import { toFormData, type FormValue } from "../../domain/contract/form-fields.ts";
import { returnFormEntries, type ReturnSubmission } from "../../domain/contract/returns.ts";
import { OCCURRED } from "./instants.ts";

/**
 * What a courier's phone sends, through the courier API, for tests that look
 * at the results from elsewhere (the operations API, webhooks): check-in,
 * pickup, deliveries, failures and returns.
 */

export interface CourierSession {
  cookie: string;
  csrf: string;
  courierId: number;
}

// Relative to now: the API refuses an instant more than 30 days old, so a fixed date would fail next month.
export { OCCURRED };
export const SIGNATURE_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 354 200" width="354" height="200">' +
  '<path d="M 20,150 C 60,40 90,40 110,120 S 150,190 180,80 S 240,20 320,140" stroke-width="3" stroke="black" fill="none"></path>' +
  '<circle r="3" cx="330" cy="60" fill="black"></circle></svg>';

export function completion(orderIds: number[], overrides: Partial<DeliveryCompletion> = {}): DeliveryCompletion {
  return {
    order_ids: orderIds,
    signature_svg: SIGNATURE_SVG,
    body: null,
    signed_by: null,
    dob_verified: null,
    recipient_called_at: null,
    client_occurred_at: OCCURRED,
    relationship_id: 1,
    recipient_first_name: null,
    recipient_last_name: null,
    other_relationship_description: null,
    survey: { have_you_left_prescription_at_pharmacy: null, use_delivery_service_again: null, refill_reminder_opt_in: null },
    order_payment: null,
    identification_state: null,
    identification_type: null,
    identification_number: null,
    identification_expiration: null,
    signature_refusal_reason: null,
    ...overrides,
  };
}

/**
 * A return signed by pharmacy staff (Priya Raman) with the pad's signature,
 * nothing collected and no position; a test gives the lines and what else it is about.
 */
export function returnForm(courierId: number, pharmacyId: number, overrides: Partial<ReturnSubmission> = {}): ReturnSubmission {
  return {
    recipient_first_name: "Priya",
    recipient_last_name: "Raman",
    signature_svg: SIGNATURE_SVG,
    courier_id: courierId,
    pharmacy_id: pharmacyId,
    cash_collected: "0.00",
    check_collected: "0.00",
    latitude: null,
    longitude: null,
    returns: [],
    ...overrides,
  };
}

export function courierActions(app: FastifyInstance, session: CourierSession) {
  const json = (method: "GET" | "POST" | "PUT", url: string, body?: unknown) =>
    app.inject({
      method,
      url,
      headers: {
        accept: API_MEDIA_TYPE,
        cookie: session.cookie,
        "x-csrf-token": session.csrf,
        ...(body !== undefined ? { "content-type": "application/json" } : {}),
      },
      ...(body !== undefined ? { payload: JSON.stringify(body) } : {}),
    });
  async function form(url: string, entries: [string, FormValue][]) {
    const request = new Request("http://localhost/", { method: "POST", body: toFormData([["_csrf_token", session.csrf], ...entries]) });
    return app.inject({
      method: "POST",
      url,
      headers: { accept: API_MEDIA_TYPE, cookie: session.cookie, "content-type": request.headers.get("content-type")! },
      payload: Buffer.from(await request.arrayBuffer()),
    });
  }
  const expectOk = async (what: string, response: Promise<{ statusCode: number; body: string }>) => {
    const answer = await response;
    if (answer.statusCode !== 200) throw new Error(`${what}: ${answer.statusCode} ${answer.body}`);
    return answer;
  };
  return {
    json,
    /** A multipart form as the app sends it (CSRF in the form), answered as it comes: for refusals too. */
    form,
    confirmVisit: (visitId: number) =>
      expectOk("confirm visit", json("POST", `/api/couriers/${session.courierId}/pharmacy_visits/confirm`, { pharmacy_visits: [{ id: visitId, confirmed: true }] })),
    assertCopay: (orderId: number, copay: string) => expectOk("assert copay", json("PUT", `/api/orders/${orderId}`, { order: { copay } })),
    pickUp: (orderId: number) => expectOk("pickup", json("POST", `/api/orders/${orderId}/pickups`, { client_occurred_at: OCCURRED })),
    deliver: (submission: DeliveryCompletion | RecipientSubmission) => expectOk("deliver", form("/api/courier/deliveries", deliveryFormEntries(submission))),
    fail: (orderIds: number[], reason: string, notes: string | null, position: { latitude: number; longitude: number } | null = null) =>
      expectOk(
        "fail",
        json("POST", "/api/courier/deliveries", {
          delivery: { failure_reason: reason, body: notes, client_occurred_at: OCCURRED, order_ids: orderIds, ...(position ?? {}) },
        }),
      ),
    returnTo: (pharmacyId: number, submission: ReturnSubmission) =>
      expectOk("return", form(`/api/courier/pharmacies/${pharmacyId}/returns`, returnFormEntries(submission))),
    async cardNonce(number = "4111111111111111") {
      const answer = await expectOk("tokenize", json("POST", "/api/payments/sandbox/tokenize", { number, cvv: "123", expiration_date: "12/40" }));
      return (JSON.parse(answer.body) as { nonce: string }).nonce;
    },
    async authorize(orderId: number, nonce: string, total: string) {
      const answer = await expectOk(
        "authorize",
        json("PUT", `/api/courier/orders/${orderId}/authorize`, { delivery: { order_payment: { payment_type: "credit_card", token: nonce, total } } }),
      );
      return (JSON.parse(answer.body) as { transaction_id: string }).transaction_id;
    },
  };
}
