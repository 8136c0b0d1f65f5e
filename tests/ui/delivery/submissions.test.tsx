import { beforeEach, describe, expect, it } from "vitest";
import type { DeliveryCompletion, FailureSubmission, RecipientSubmission } from "../../../domain/contract/deliveries.ts";
import {
  completionEntry,
  failureEntry,
  recipientEntry,
  SIGNATURE_FIELD,
  submitDelivery,
  submitFailure,
  submitRecipient,
  toFormData,
} from "../../../src/api/deliveries.ts";
import { setCsrfToken } from "../../../src/api/client.ts";
import { PHOTO_FIELD } from "../../../domain/delivery-photo.ts";
import type { StoredOfflineOrder } from "../../../domain/offline-queue.ts";
import type { SubmissionResult } from "../../../machines/delivery-submit.machine.ts";
import { mockFetchPerTest } from "../../support/ui-fixtures.ts";

/**
 * The delivery flow's three submissions (spec §7) and spec §4's offline rule:
 * each goes out with the Idempotency-Key made when the courier acted; a call
 * that fails on the network is kept as a stored offline order and the flow
 * carries on as if done.
 */

const fetchMock = mockFetchPerTest();
/** What each request carried, read as it was sent (ky does not hand the same body back). */
let sent: { request: Request; body: Request }[] = [];
const respondWith = (answer: () => Promise<Response>) =>
  fetchMock.mockImplementation(async (request) => {
    sent.push({ request, body: request.clone() });
    return answer();
  });
const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });
const KEY = "6f1c2a8e-3b4d-4e5f-8a9b-0c1d2e3f4a5b";
const TODAY = "2026-11-21";

const failure: FailureSubmission = { failure_reason: "Incorrect Address", client_occurred_at: "2026-11-21T15:30:00.000Z", order_ids: [70] };
const recipient: RecipientSubmission = {
  order_ids: [80, 81],
  relationship: "No Recipient",
  relationship_id: 3,
  recipient_called_at: null,
  client_occurred_at: "2026-11-21T15:31:00.000Z",
  body: "Left with the concierge",
};
const completion: DeliveryCompletion = {
  order_ids: [70],
  signature_svg: '<svg xmlns="http://www.w3.org/2000/svg"><path d="M0 0L1 1"/></svg>',
  body: null,
  signed_by: "Eleanor Abernathy",
  dob_verified: true,
  recipient_called_at: null,
  client_occurred_at: "2026-11-21T15:32:00.000Z",
  relationship_id: 1,
  recipient_first_name: "Eleanor",
  recipient_last_name: "Abernathy",
  other_relationship_description: null,
  survey: { have_you_left_prescription_at_pharmacy: null, use_delivery_service_again: true, refill_reminder_opt_in: null },
  order_payment: { payment_type: "cash", amount: "17.50", new_copay: null, transaction_id: null },
  identification_state: null,
  identification_type: null,
  identification_number: null,
  identification_expiration: null,
  signature_refusal_reason: null,
};

const context = { idempotencyKey: KEY, storedOn: TODAY };
/** What a submission answers; a queued one carries the entry the delivery flow hands to the offline queue. */
const entryOf = (result: SubmissionResult) => result.entry;

beforeEach(() => {
  sent = [];
  setCsrfToken("csrf-1");
});

describe("stored offline orders (spec §3)", () => {
  it("a failed delivery is 'unsubmitted' with its JSON payload, attempted locally, no payment", () => {
    expect(failureEntry(failure, context)).toMatchObject({
      kind: "unsubmitted",
      id: 70,
      orderIds: [70],
      status: "delivery_attempted",
      delivery: null,
      dataToSubmit: { delivery: failure },
      idempotencyKey: KEY,
      payment: false,
      storedOn: TODAY,
    });
  });

  it("a recipient submission is 'recipient' with the form fields of every grouped order", () => {
    expect(recipientEntry(recipient, context)).toMatchObject({
      kind: "recipient",
      id: 80,
      orderIds: [80, 81],
      status: "delivered",
      dataToSubmit: null,
      payment: false,
      delivery: {
        "delivery[order_ids][]": ["80", "81"],
        "delivery[relationship]": "No Recipient",
        "delivery[relationship_id]": "3",
        "delivery[client_occurred_at]": recipient.client_occurred_at,
        "delivery[body]": "Left with the concierge",
      },
    });
  });

  it("a completion is 'signature' with the signature SVG as text and the payment flag when money changed hands", () => {
    const entry = completionEntry(completion, context);
    expect(entry).toMatchObject({ kind: "signature", status: "delivered", payment: true });
    expect(entry.delivery![SIGNATURE_FIELD]).toBe(completion.signature_svg);
    expect(entry.delivery!["delivery[order_payment][amount]"]).toBe("17.50");
    expect(entry.delivery!["delivery[survey][use_delivery_service_again]"]).toBe("true");
    expect(entry.delivery).not.toHaveProperty("delivery[survey][refill_reminder_opt_in]");
    expect(completionEntry({ ...completion, order_payment: null }, context).payment).toBe(false);
  });
});

describe("sending (spec §7) and the offline rule (spec §4)", () => {
  it("sends the failure as JSON with the Idempotency-Key and CSRF token", async () => {
    respondWith(async () => json(200, { delivery: { id: 5, status: "delivery_attempted", order_ids: [70] } }));
    await expect(submitFailure(failure, context)).resolves.toEqual({ queued: false, delivery: { id: 5, status: "delivery_attempted", order_ids: [70] } });
    const { request, body } = sent[0]!;
    expect(request.method).toBe("POST");
    expect(new URL(request.url).pathname).toBe("/api/courier/deliveries");
    expect(request.headers.get("Idempotency-Key")).toBe(KEY);
    expect(request.headers.get("X-CSRF-Token")).toBe("csrf-1");
    expect(await body.json()).toEqual({ delivery: failure });
  });

  it("sends the completion as a multipart form with signature.svg", async () => {
    respondWith(async () => json(200, { delivery: { id: 6, status: "delivered", order_ids: [70] } }));
    await submitDelivery(completion, context);
    expect(sent[0]!.request.headers.get("Idempotency-Key")).toBe(KEY);
    const form = await sent[0]!.body.formData();
    expect(sent[0]!.request.headers.get("content-type")).toMatch(/^multipart\/form-data; boundary=/);
    // The file as the page builds the form (jsdom's File does not survive the trip into Node's Request under test).
    const built = toFormData(completionEntry(completion, context).delivery!).get(SIGNATURE_FIELD) as File;
    expect(built.name).toBe("signature.svg");
    expect(built.type).toBe("image/svg+xml");
    expect(await built.text()).toBe(completion.signature_svg);
    expect(form.getAll("delivery[order_ids][]")).toEqual(["70"]);
    expect(form.get("delivery[signed_by]")).toBe("Eleanor Abernathy");
  });

  it.each([
    ["no network", () => Promise.reject(new TypeError("Failed to fetch"))],
    ["503", () => Promise.resolve(json(503, { error: "unavailable", message: "down" }))],
  ])("keeps the call on the device and carries on when it fails for want of a network (%s)", async (_name, answer) => {
    fetchMock.mockImplementation(answer);
    const result = await submitDelivery(completion, context);
    expect(result).toEqual({ queued: true, entry: { ...completionEntry(completion, context), createdAt: expect.any(String) } });
    expect(entryOf(result)).toMatchObject({ idempotencyKey: KEY, kind: "signature" });
  });

  it("rejects with the ApiFailure when the server refuses or fails, keeping nothing", async () => {
    fetchMock.mockResolvedValue(json(409, { error: "conflict", message: "Order 70 is delivered." }));
    await expect(submitFailure(failure, context)).rejects.toMatchObject({ kind: "refused", status: 409, message: "Order 70 is delivered." });
    fetchMock.mockResolvedValue(json(500, { error: "internal", message: "boom" }));
    await expect(submitFailure(failure, context)).rejects.toMatchObject({ kind: "server", status: 500 });
  });

  it("keeps a photo of the drop-off with the queued delivery (as its data: URL, plain JSON) and resends its bytes under the same key (issue 19)", async () => {
    const jpeg = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3, 4, 0xff, 0xd9]);
    const dataUrl = `data:image/jpeg;base64,${Buffer.from(jpeg).toString("base64")}`;
    const withPhoto: RecipientSubmission = {
      ...recipient,
      photo: { data_url: dataUrl, media_type: "image/jpeg", bytes: jpeg.length, width: 1, height: 1, latitude: null, longitude: null },
    };
    fetchMock.mockImplementation(() => Promise.reject(new TypeError("Failed to fetch")));
    const result = await submitRecipient(withPhoto, context);
    expect(result.queued).toBe(true);
    const stored = entryOf(result) as StoredOfflineOrder;
    expect(stored.idempotencyKey).toBe(KEY);
    expect(stored.delivery![PHOTO_FIELD]).toBe(dataUrl);
    // What IndexedDB keeps must survive structured cloning and JSON alike.
    expect(JSON.parse(JSON.stringify(stored))).toEqual(stored);
    // The resubmission: the same key, the photo as image/jpeg bytes, once.
    const file = toFormData(stored.delivery!).get(PHOTO_FIELD) as File;
    expect(file.type).toBe("image/jpeg");
    expect(file.name).toBe("photo.jpg");
    expect(new Uint8Array(await file.arrayBuffer())).toEqual(jpeg);
    expect(toFormData(stored.delivery!).getAll(PHOTO_FIELD)).toHaveLength(1);
  });

  it("a recipient submission answered 200 without data is stored for resubmission (spec §7)", async () => {
    fetchMock.mockResolvedValue(json(200, {}));
    await expect(submitRecipient(recipient, context)).resolves.toEqual({
      queued: true,
      entry: expect.objectContaining({ kind: "recipient", idempotencyKey: KEY }),
    });
  });
});
