import { describe, expect, it } from "vitest";
import { DeliveryRequest, deliveryFormEntries, type DeliveryCompletion, type RecipientSubmission } from "../../domain/contract/deliveries.ts";
import { FormFieldError, flattenFormFields, nestFormFields, toFormData } from "../../domain/contract/form-fields.ts";

const completion: DeliveryCompletion = {
  order_ids: [12, 13],
  signature_svg: '<svg xmlns="http://www.w3.org/2000/svg"><path d="M0 0L1 1"/></svg>',
  body: null,
  signed_by: "Ann Lee",
  dob_verified: true,
  recipient_called_at: null,
  client_occurred_at: "2026-11-21T15:04:05.000Z",
  relationship_id: 1,
  recipient_first_name: "Ann",
  recipient_last_name: "Lee",
  other_relationship_description: null,
  survey: { have_you_left_prescription_at_pharmacy: false, use_delivery_service_again: true, refill_reminder_opt_in: null },
  order_payment: { payment_type: "cash", amount: "17.50", new_copay: null, transaction_id: null },
  identification_state: "PA",
  identification_type: "driver",
  identification_number: "D123",
  identification_expiration: "2027-12-31",
  signature_refusal_reason: null,
  latitude: 39.95,
  longitude: -75.16,
};

describe("delivery form fields (spec §7)", () => {
  it("names the completion's fields as the spec does", () => {
    const entries = deliveryFormEntries(completion, "token-1");
    const names = entries.map(([name]) => name);
    expect(names[0]).toBe("_csrf_token");
    expect(names.filter((name) => name === "delivery[order_ids][]")).toHaveLength(2);
    expect(names).toEqual(
      expect.arrayContaining([
        "delivery[signature][attachment][file]",
        "delivery[signed_by]",
        "delivery[dob_verified]",
        "delivery[client_occurred_at]",
        "delivery[survey][have_you_left_prescription_at_pharmacy]",
        "delivery[survey][use_delivery_service_again]",
        "delivery[order_payment][payment_type]",
        "delivery[order_payment][amount]",
        "delivery[identification_state]",
        "delivery[identification_type]",
        "delivery[identification_number]",
        "delivery[identification_expiration]",
        "delivery[relationship_id]",
        "delivery[latitude]",
        "delivery[longitude]",
      ]),
    );
    // Unanswered and absent values are not sent at all.
    expect(names).not.toContain("delivery[survey][refill_reminder_opt_in]");
    expect(names).not.toContain("delivery[body]");
    expect(names).not.toContain("delivery[signature_svg]");
    const file = entries.find(([name]) => name === "delivery[signature][attachment][file]")![1];
    expect(file).toEqual({ filename: "signature.svg", type: "image/svg+xml", content: completion.signature_svg });
  });

  it("names the recipient submission's fields", () => {
    const submission: RecipientSubmission = {
      order_ids: [5],
      relationship: "No Recipient",
      relationship_id: 3,
      recipient_called_at: "2026-11-21T15:00:00.000Z",
      client_occurred_at: "2026-11-21T15:04:05.000Z",
      body: "Left with the concierge",
    };
    expect(deliveryFormEntries(submission)).toEqual([
      ["delivery[order_ids][]", "5"],
      ["delivery[relationship]", "No Recipient"],
      ["delivery[relationship_id]", "3"],
      ["delivery[recipient_called_at]", "2026-11-21T15:00:00.000Z"],
      ["delivery[client_occurred_at]", "2026-11-21T15:04:05.000Z"],
      ["delivery[body]", "Left with the concierge"],
    ]);
  });

  it("round-trips through nesting and validates as the server reads it", () => {
    const nested = nestFormFields(deliveryFormEntries(completion, "t"));
    const parsed = DeliveryRequest.parse(nested);
    expect(parsed._csrf_token).toBe("t");
    expect(parsed.delivery).toMatchObject({
      order_ids: [12, 13],
      dob_verified: true,
      relationship_id: 1,
      latitude: 39.95,
      longitude: -75.16,
      survey: { have_you_left_prescription_at_pharmacy: false, use_delivery_service_again: true },
      order_payment: { payment_type: "cash", amount: "17.50" },
    });
    expect(parsed.delivery.signature?.attachment.file.content).toBe(completion.signature_svg);
  });

  it("refuses names that reach prototypes, clash or repeat", () => {
    expect(() => nestFormFields([["delivery[__proto__][x]", "1"]])).toThrow(FormFieldError);
    expect(() => nestFormFields([["constructor", "1"]])).toThrow(FormFieldError);
    expect(() => nestFormFields([["delivery[a]", "1"], ["delivery[a]", "2"]])).toThrow("more than once");
    expect(() => nestFormFields([["delivery[a]", "1"], ["delivery[a][b]", "2"]])).toThrow("clashes");
    expect(() => nestFormFields([["delivery[a][b]", "1"], ["delivery[a][]", "2"]])).toThrow("clashes");
    expect(() => nestFormFields([["delivery[][a]", "1"]])).toThrow("not valid");
    expect(() => nestFormFields([["delivery[a", "1"]])).toThrow("not valid");
    expect(() => nestFormFields([["déliv", "1"]])).toThrow("not valid");
  });

  it("leaves empty fields out", () => {
    expect(nestFormFields([["delivery[identification_state]", ""], ["delivery[x]", "1"]])).toEqual({ delivery: { x: "1" } });
  });

  it("refuses values a form cannot hold", () => {
    expect(() => flattenFormFields({ a: [{ b: 1 }] })).toThrow(FormFieldError);
  });

  it("builds FormData with the signature as an SVG file", async () => {
    const form = toFormData(deliveryFormEntries(completion));
    const file = form.get("delivery[signature][attachment][file]") as File;
    expect(file.name).toBe("signature.svg");
    expect(file.type).toBe("image/svg+xml");
    expect(await file.text()).toBe(completion.signature_svg);
    expect(form.getAll("delivery[order_ids][]")).toEqual(["12", "13"]);
  });
});
