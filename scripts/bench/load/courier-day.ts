import { randomUUID } from "node:crypto";
import { API_MEDIA_TYPE } from "../../../domain/api-version.ts";
import { deliveryFormEntries, type DeliveryCompletion, type RecipientSubmission } from "../../../domain/contract/deliveries.ts";
import type { Order } from "../../../domain/contract/entities.ts";
import type { ItineraryResponse } from "../../../domain/contract/itinerary.ts";
import type { FormValue } from "../../../domain/contract/form-fields.ts";
import { amountOwedCents, dobCanBeVerified, dobVerificationNeeded, identificationNeeded, paymentMethodAllowed, paymentTotalCents } from "../../../domain/delivery-rules.ts";
import { centsToDecimal } from "../../../domain/money.ts";
import { CONTACTLESS, PATIENT, isRelationshipOffered, relationshipIdOf } from "../../../domain/recipient.ts";
import { ordersToRoute } from "../../../domain/routing.ts";
import type { Courier } from "../lib/api.ts";

/**
 * One courier's day as the app calls the API (issue 9's mix): load the day,
 * verify orders at the counter (the copay asserted, then the pickup),
 * deliver them (a completion with a ~10 KB signature as the multipart form
 * the app sends, a contactless drop-off, or a failed attempt when nobody can
 * pay), and ask for the driving order of what is left. The courier keeps
 * its own view of its orders from the responses, so every request is one
 * the server should accept: any refusal counts as an error.
 */

export type Endpoint = "itinerary" | "copay" | "pickup" | "delivery" | "delivery_failed" | "routing";

export const ENDPOINT_LABELS: Record<Endpoint, string> = {
  itinerary: "GET /api/courier/itinerary",
  copay: "PUT /api/orders/:id (copay)",
  pickup: "POST /api/orders/:id/pickups",
  delivery: "POST /api/courier/deliveries (multipart, signature)",
  delivery_failed: "POST /api/courier/deliveries (JSON, failed attempt)",
  routing: "GET /api/routed_orders",
};

export const READS: readonly Endpoint[] = ["itinerary", "routing"];

export interface RequestSpec {
  endpoint: Endpoint;
  method: "GET" | "PUT" | "POST";
  path: string;
  headers: Record<string, string>;
  body?: Buffer | string;
  orderId?: number;
}

export type Action = "itinerary" | "copay" | "pickup" | "deliver" | "routing";

/** What a courier does, round after round: one day load per nine calls, the rest verifying, delivering and routing. */
export const ROUND: readonly Action[] = [
  "itinerary", "copay", "pickup", "deliver", "routing", "copay", "pickup", "deliver", "routing",
];

const CONTACTLESS_ID = relationshipIdOf(CONTACTLESS);
const PATIENT_ID = relationshipIdOf(PATIENT);
const NO_SURVEY = { have_you_left_prescription_at_pharmacy: null, use_delivery_service_again: null, refill_reminder_opt_in: null };

/** A signature as signature_pad's toSVG writes it: ~bytes long, strokes of cubic curves. */
export function signatureSvg(bytes = 10 * 1024, seed = 7): string {
  let state = seed;
  const random = () => ((state = (state * 1103515245 + 12345) % 2147483648) / 2147483648);
  const head = '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" viewBox="0 0 354 200" width="354" height="200">';
  const parts: string[] = [head];
  let length = head.length + 6;
  let x = 20;
  let y = 110;
  while (length < bytes) {
    const f = (v: number) => v.toFixed(3);
    const nx = Math.min(340, Math.max(10, x + 4 + random() * 9));
    const ny = Math.min(190, Math.max(10, y + (random() - 0.5) * 40));
    const path = `<path d="M ${f(x)},${f(y)} C ${f(x + 2)},${f(y - 8 * random())} ${f(nx - 2)},${f(ny + 8 * random())} ${f(nx)},${f(ny)}" stroke-width="${f(1.5 + random())}" stroke="black" fill="none" stroke-linecap="round"></path>`;
    parts.push(path);
    length += path.length;
    x = nx > 330 ? 20 : nx;
    y = ny;
  }
  parts.push("</svg>");
  return parts.join("");
}

/** multipart/form-data, written the way a browser's FormData is. */
export function multipart(entries: readonly (readonly [string, FormValue])[]): { body: Buffer; contentType: string } {
  const boundary = `----rxcBench${randomUUID().replace(/-/g, "")}`;
  const chunks: string[] = [];
  for (const [name, value] of entries) {
    if (typeof value === "string") {
      chunks.push(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`);
    } else {
      chunks.push(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"; filename="${value.filename}"\r\nContent-Type: ${value.type}\r\n\r\n${value.content}\r\n`);
    }
  }
  chunks.push(`--${boundary}--\r\n`);
  return { body: Buffer.from(chunks.join("")), contentType: `multipart/form-data; boundary=${boundary}` };
}


/**
 * The delivery completion the app sends for a patient who signs, as the
 * wizard fills it: date of birth verified where the pharmacy checks it, the
 * ID where the order needs one, cash or a check for what is owed. null when
 * the patient is not offered as recipient, only a card could pay, or the
 * pharmacy checks a date of birth the order does not have (only a failed
 * attempt is possible then).
 */
export function completionFor(order: Order, signature: string, occurredAt: string): DeliveryCompletion | null {
  const owed = amountOwedCents(order);
  const method = (["cash", "check"] as const).find((type) => paymentMethodAllowed(order.pharmacy, type));
  if (!isRelationshipOffered(order, PATIENT_ID) || (owed > 0 && !method)) return null;
  if (dobVerificationNeeded(order) && !dobCanBeVerified(order)) return null;
  const id = identificationNeeded(order);
  return {
    order_ids: [order.id],
    signature_svg: signature,
    body: null,
    signed_by: `${order.patient_first_name} ${order.patient_last_name}`.slice(0, 80),
    dob_verified: dobVerificationNeeded(order) ? true : null,
    recipient_called_at: null,
    client_occurred_at: occurredAt,
    relationship_id: PATIENT_ID,
    recipient_first_name: null,
    recipient_last_name: null,
    other_relationship_description: null,
    survey: NO_SURVEY,
    order_payment: owed > 0 ? { payment_type: method!, amount: centsToDecimal(paymentTotalCents(order))!, new_copay: null, transaction_id: null } : null,
    identification_state: id ? "PA" : null,
    identification_type: id ? "driver" : null,
    identification_number: id ? "PA 3141 5926" : null,
    identification_expiration: id ? "2031-06-30" : null,
    signature_refusal_reason: null,
  };
}

export class CourierDay {
  private orders = new Map<number, Order>();
  private pharmacies = new Map<number, Order["pharmacy"]>();
  /** The order whose copay was asserted and whose pickup comes next. */
  private asserted: number | null = null;
  private step = 0;
  /** Calls made instead of the planned one because the day had nothing left for it. */
  substitutions = 0;

  constructor(
    readonly courier: Courier,
    day: ItineraryResponse,
    private readonly signature: string,
    /** Where in the round this courier starts: couriers are not in lockstep. */
    offset = 0,
    /** Another round (one endpoint alone, for its cost). */
    private readonly round: readonly Action[] = ROUND,
  ) {
    this.load(day);
    this.step = offset % round.length;
  }

  private load(day: ItineraryResponse): void {
    this.orders = new Map(day.orders.map((order) => [order.id, order]));
    for (const visit of day.pharmacy_visits) this.pharmacies.set(visit.pharmacy.id, visit.pharmacy);
  }

  private headers(extra: Record<string, string> = {}): Record<string, string> {
    return { accept: API_MEDIA_TYPE, cookie: this.courier.cookie, ...extra };
  }

  private mutation(contentType = "application/json"): Record<string, string> {
    return this.headers({ "content-type": contentType, "x-csrf-token": this.courier.csrfToken });
  }

  private withStatus(...names: string[]): Order[] {
    return [...this.orders.values()].filter((order) => names.includes(order.status.name));
  }

  next(): RequestSpec {
    const action = this.round[this.step % this.round.length]!;
    this.step++;
    const spec = this.plan(action);
    if (spec) return spec;
    this.substitutions++;
    return this.itinerary();
  }

  private plan(action: Action): RequestSpec | null {
    switch (action) {
      case "itinerary":
        return this.itinerary();
      case "copay": {
        const order = this.withStatus("submitted_to_courier", "verified").find((o) => o.id !== this.asserted);
        if (!order) return null;
        this.asserted = order.id;
        const copay = order.copay ?? "0.00";
        return { endpoint: "copay", method: "PUT", path: `/api/orders/${order.id}`, headers: this.mutation(), body: JSON.stringify({ order: { copay } }), orderId: order.id };
      }
      case "pickup": {
        const id = this.asserted;
        if (id === null) return null;
        this.asserted = null;
        return { endpoint: "pickup", method: "POST", path: `/api/orders/${id}/pickups`, headers: this.mutation(), body: JSON.stringify({ client_occurred_at: new Date().toISOString() }), orderId: id };
      }
      case "deliver": {
        const order = this.withStatus("picked_up")[0];
        return order ? this.deliver(order) : null;
      }
      case "routing": {
        for (const pharmacy of this.pharmacies.values()) {
          const atPharmacy = [...this.orders.values()].filter((order) => order.pharmacy.id === pharmacy.id);
          const ids = ordersToRoute(pharmacy, atPharmacy);
          if (!ids) continue;
          const query = [`pharmacy_id=${pharmacy.id}`, ...ids.map((id) => `order_ids[]=${id}`)].join("&");
          return { endpoint: "routing", method: "GET", path: `/api/routed_orders?${query}`, headers: this.headers() };
        }
        return null;
      }
    }
  }

  private itinerary(): RequestSpec {
    return { endpoint: "itinerary", method: "GET", path: "/api/courier/itinerary", headers: this.headers() };
  }

  private deliver(order: Order): RequestSpec {
    const idempotency = { "idempotency-key": randomUUID() };
    const occurred = new Date().toISOString();
    const owed = amountOwedCents(order);
    const completion = completionFor(order, this.signature, occurred);
    if (completion) {
      const form = multipart(deliveryFormEntries(completion, this.courier.csrfToken));
      return { endpoint: "delivery", method: "POST", path: "/api/courier/deliveries", headers: { ...this.mutation(form.contentType), ...idempotency }, body: form.body, orderId: order.id };
    }
    if (isRelationshipOffered(order, CONTACTLESS_ID) && owed === 0) {
      const submission: RecipientSubmission = {
        order_ids: [order.id],
        relationship: CONTACTLESS,
        relationship_id: CONTACTLESS_ID,
        recipient_called_at: null,
        client_occurred_at: occurred,
        body: "Left at the front door, knocked twice.",
      };
      const form = multipart(deliveryFormEntries(submission, this.courier.csrfToken));
      return { endpoint: "delivery", method: "POST", path: "/api/courier/deliveries", headers: { ...this.mutation(form.contentType), ...idempotency }, body: form.body, orderId: order.id };
    }
    // Card-only pharmacies: the patient could not pay at the door this time.
    const failure = { delivery: { failure_reason: "Patient Could Not Provide Copayment", client_occurred_at: occurred, order_ids: [order.id] } };
    return { endpoint: "delivery_failed", method: "POST", path: "/api/courier/deliveries", headers: { ...this.mutation(), ...idempotency }, body: JSON.stringify(failure), orderId: order.id };
  }

  /** The server's answer: the courier's view of its orders follows it. */
  done(spec: RequestSpec, status: number, body: string): void {
    if (status < 200 || status >= 300) {
      // Whatever happened, do not ask for the same order again.
      if (spec.orderId !== undefined) this.orders.delete(spec.orderId);
      return;
    }
    const order = spec.orderId !== undefined ? this.orders.get(spec.orderId) : undefined;
    switch (spec.endpoint) {
      case "itinerary":
        this.load(JSON.parse(body) as ItineraryResponse);
        return;
      case "copay":
      case "pickup":
        if (order) this.orders.set(order.id, JSON.parse(body) as Order);
        return;
      case "delivery":
      case "delivery_failed":
        if (order) this.orders.set(order.id, { ...order, status: { id: 0, name: spec.endpoint === "delivery" ? "delivered" : "delivery_attempted" } });
        return;
      case "routing":
        return;
    }
  }
}
