import { describe, expect, it } from "vitest";
import {
  dobCanBeVerified,
  dobToCheck,
  allDeliveriesAttempted,
  allowedPaymentMethods,
  deliveryList,
  amountOwedCents,
  collectsPaymentAtDoor,
  correctedCopayCents,
  countsAsSigned,
  dobVerificationNeeded,
  EMPTY_SIGNATURE_FORM,
  groupableOrders,
  groupableWith,
  groupOrdersOffered,
  identificationComplete,
  identificationNeeded,
  identificationProblems,
  idStateRequired,
  normalizedIdentification,
  paymentMethodAllowed,
  paymentStepNeeded,
  paymentTotalCents,
  sameAddress,
  signatureComplete,
  signatureProblem,
  type IdentificationForm,
  type SignatureForm,
} from "../../domain/delivery-rules.ts";
import { SIGNATURE_REFUSAL_REASONS } from "../../domain/vocabulary.ts";
import { makeOrder, makePharmacy } from "../support/order-fixtures.ts";

const TODAY = "2026-11-21";
const methods = (...allowed: ("cash" | "check" | "card")[]) =>
  (["cash", "check", "card"] as const).map((type) => ({ type, allowed: allowed.includes(type) }));

describe("delivery list (spec §2)", () => {
  const other = makePharmacy({ id: 2 });
  const orders = [
    makeOrder({ id: 1, status: "picked_up" }),
    makeOrder({ id: 2, status: "delivered" }),
    makeOrder({ id: 3, status: "delivery_attempted" }),
    makeOrder({ id: 4, status: "delivery_attempted", item_returned: true }),
    makeOrder({ id: 5, status: "submitted_to_courier" }),
    makeOrder({ id: 6, status: "picked_up", pharmacy: other }),
    makeOrder({ id: 7, status: "cancelled" }),
  ];
  const ids = (list: { id: number }[]) => list.map((order) => order.id);

  it("lists orders to deliver, completed ones and items to return, for one pharmacy", () => {
    const list = deliveryList(orders, 1);
    expect(ids(list.toDeliver)).toEqual([1]);
    expect(ids(list.completed)).toEqual([2]);
    expect(ids(list.toReturn)).toEqual([3]);
  });

  it("enables 'All deliveries have been attempted' only when nothing is left to deliver", () => {
    expect(allDeliveriesAttempted(orders, 1)).toBe(false);
    expect(allDeliveriesAttempted(orders.filter((order) => order.id !== 1), 1)).toBe(true);
    expect(allDeliveriesAttempted([], 1)).toBe(false);
    expect(allDeliveriesAttempted([orders[4]!], 1)).toBe(false);
  });
});

describe("flow order helpers (spec §4)", () => {
  it("asks for the date of birth only where the pharmacy has dob_verification_enabled", () => {
    expect(dobVerificationNeeded(makeOrder({ pharmacy: makePharmacy({ dob_verification_enabled: true }) }))).toBe(true);
    expect(dobVerificationNeeded(makeOrder())).toBe(false);
  });

  it("asks for ID only when the order has collect_identification", () => {
    expect(identificationNeeded(makeOrder({ collect_identification: true }))).toBe(true);
    expect(identificationNeeded(makeOrder())).toBe(false);
  });
});

describe("what is owed at the door", () => {
  it("adds copay, delivery fee and other items, as the return totals do", () => {
    const order = makeOrder({ copay: "12.50", delivery_fee: "5.00", other_items_amount_due: "1.25" });
    expect(amountOwedCents(order)).toBe(1875);
    expect(paymentTotalCents(order)).toBe(1875);
  });

  it("treats null amounts as none", () => {
    expect(amountOwedCents(makeOrder({ copay: null, delivery_fee: null }))).toBe(0);
    expect(amountOwedCents(makeOrder({ copay: null, delivery_fee: "3.99" }))).toBe(399);
  });

  it("uses a corrected copay in place of the copay", () => {
    const order = makeOrder({ copay: "12.50", delivery_fee: "5.00" });
    expect(paymentTotalCents(order, 2000)).toBe(2500);
  });

  it("does not ask again for a copay paid at pickup, but still for the fee and other items", () => {
    const order = makeOrder({ copay: "12.50", delivery_fee: "5.00", other_items_amount_due: "1.00", copay_paid_at: "2026-11-21T10:00:00Z" });
    expect(amountOwedCents(order)).toBe(600);
    expect(paymentTotalCents(order, 9999)).toBe(600);
  });

  it("owes nothing where the pharmacy does not collect at delivery or allows no method", () => {
    const amounts = { copay: "12.50", delivery_fee: "5.00" } as const;
    expect(amountOwedCents(makeOrder({ ...amounts, pharmacy: makePharmacy({ allow_pod_copay_collection: false }) }))).toBe(0);
    expect(amountOwedCents(makeOrder({ ...amounts, pharmacy: makePharmacy({ payment_methods: methods() }) }))).toBe(0);
    expect(collectsPaymentAtDoor(makeOrder({ pharmacy: makePharmacy({ payment_methods: methods("check") }) }))).toBe(true);
  });

  it("owes nothing once paid or authorized", () => {
    expect(amountOwedCents(makeOrder({ copay: "12.50", payment_collected: true }))).toBe(0);
    expect(amountOwedCents(makeOrder({ copay: "12.50", payment_authorized: true }))).toBe(0);
  });

  it("needs the payment step only when something is owed and the recipient is not skipped", () => {
    const owed = makeOrder({ copay: "12.50" });
    expect(paymentStepNeeded(owed, false)).toBe(true);
    expect(paymentStepNeeded(owed, true)).toBe(false);
    expect(paymentStepNeeded(makeOrder({ copay: "0.00", delivery_fee: "0.00" }), false)).toBe(false);
  });
});

describe("payment step rules (spec §5)", () => {
  it("lists only the methods the pharmacy allows, in the spec's order", () => {
    const pharmacy = makePharmacy({ payment_methods: [{ type: "card", allowed: true }, { type: "cash", allowed: true }, { type: "check", allowed: false }] });
    expect(allowedPaymentMethods(pharmacy)).toEqual(["cash", "card"]);
    expect(paymentMethodAllowed(pharmacy, "card")).toBe(true);
    expect(paymentMethodAllowed(pharmacy, "check")).toBe(false);
    expect(paymentMethodAllowed(pharmacy, "bitcoin")).toBe(false);
    expect(paymentMethodAllowed(pharmacy, null)).toBe(false);
  });

  it.each([
    ["12.50", 1250],
    ["$1,012.50", 101250],
    ["1.00", 100],
    ["0.99", null],
    ["0.00", null],
    ["00.0", null],
    ["5.5", null],
    ["", null],
    [null, null],
  ])("corrected copay %j → %j cents", (value, expected) => {
    expect(correctedCopayCents(value)).toBe(expected);
  });
});

describe("Group Orders (spec §5)", () => {
  const base = makeOrder({ id: 1, status: "picked_up", copay: "0.00", delivery_fee: null });
  const candidate = (changes: Parameters<typeof makeOrder>[0]) => makeOrder({ id: 2, status: "picked_up", copay: "0.00", delivery_fee: "0.00", ...changes });

  it("is offered only without payment due, controlled substance or ID", () => {
    expect(groupOrdersOffered(base)).toBe(true);
    expect(groupOrdersOffered({ ...base, copay: "5.00" })).toBe(false);
    expect(groupOrdersOffered({ ...base, controlled_substance: true })).toBe(false);
    expect(groupOrdersOffered({ ...base, collect_identification: true })).toBe(false);
    // A copay the pharmacy does not collect at the door is not due.
    expect(groupOrdersOffered({ ...base, copay: "5.00", pharmacy: makePharmacy({ allow_pod_copay_collection: false }) })).toBe(true);
  });

  it("takes picked-up orders of the same pharmacy and address with copay 0.00, no fee and no ID", () => {
    expect(groupableWith(base, candidate({}))).toBe(true);
    expect(groupableWith(base, candidate({ delivery_fee: null }))).toBe(true);
    expect(groupableWith(base, candidate({ status: "submitted_to_courier" }))).toBe(false);
    expect(groupableWith(base, candidate({ status: "delivered" }))).toBe(false);
    expect(groupableWith(base, candidate({ pharmacy: makePharmacy({ id: 2 }) }))).toBe(false);
    expect(groupableWith(base, candidate({ copay: "1.00" }))).toBe(false);
    expect(groupableWith(base, candidate({ copay: null }))).toBe(false);
    expect(groupableWith(base, candidate({ delivery_fee: "2.00" }))).toBe(false);
    expect(groupableWith(base, candidate({ collect_identification: true }))).toBe(false);
    expect(groupableWith(base, candidate({ address: { ...base.address, street_address_2: "Apt 2" } }))).toBe(false);
    expect(groupableWith(base, { ...base })).toBe(false);
  });

  it("compares addresses ignoring case, spacing and ZIP+4", () => {
    const a = base.address;
    expect(sameAddress(a, { ...a, street_address: " 1012  PINE st ", zipcode: "19107-1234" })).toBe(true);
    expect(sameAddress(a, { ...a, zipcode: "19108" })).toBe(false);
    expect(sameAddress(a, { ...a, city: "Camden" })).toBe(false);
    expect(sameAddress(a, { ...a, state_abbreviation: "NJ" })).toBe(false);
  });

  it("lists the eligible orders, and none when grouping is not offered", () => {
    const others = [candidate({ id: 2 }), candidate({ id: 3, copay: "4.00" }), candidate({ id: 4 })];
    expect(groupableOrders(base, others).map((o) => o.id)).toEqual([2, 4]);
    expect(groupableOrders({ ...base, controlled_substance: true }, others)).toEqual([]);
  });
});

describe("ID step (spec §5)", () => {
  const id = (changes: Partial<IdentificationForm>): IdentificationForm => ({
    type: "driver",
    state: "PA",
    number: "D1234567",
    expiration: "12/31/2027",
    ...changes,
  });

  it("needs the state except for passport and military", () => {
    expect(idStateRequired("driver")).toBe(true);
    expect(idStateRequired("state")).toBe(true);
    expect(idStateRequired("passport")).toBe(false);
    expect(idStateRequired("military")).toBe(false);
  });

  it("accepts a complete ID", () => {
    expect(identificationProblems(id({}), TODAY)).toEqual({});
    expect(identificationComplete(id({ type: "passport", state: "" }), TODAY)).toBe(true);
    expect(identificationComplete(id({ type: "military", state: "" }), TODAY)).toBe(true);
    expect(identificationComplete(id({ state: "pa" }), TODAY)).toBe(true);
  });

  it.each([
    ["no type", { type: null }, "type"],
    ["an unknown type", { type: "library_card" }, "type"],
    ["no state for a driver license", { state: "" }, "state"],
    ["no state for a state id", { type: "state", state: "" }, "state"],
    ["an unknown state", { state: "XX" }, "state"],
    ["no number", { number: "  " }, "number"],
    ["a number too long", { number: "1".repeat(33) }, "number"],
    ["a number with symbols", { number: "<b>1</b>" }, "number"],
    ["no expiry", { expiration: "" }, "expiration"],
    ["an expiry not in MM/DD/YYYY", { expiration: "2027-12-31" }, "expiration"],
    ["an impossible date", { expiration: "02/30/2027" }, "expiration"],
    ["an expired ID", { expiration: "11/20/2026" }, "expiration"],
  ] as const)("refuses %s", (_name, changes, field) => {
    expect(Object.keys(identificationProblems(id(changes as Partial<IdentificationForm>), TODAY))).toEqual([field]);
  });

  it("accepts an ID that expires today", () => {
    expect(identificationComplete(id({ expiration: "11/21/2026" }), TODAY)).toBe(true);
  });

  it("normalises the ID for storage", () => {
    expect(normalizedIdentification(id({ state: " pa ", number: " D1 " }))).toEqual({
      identification_type: "driver",
      identification_state: "PA",
      identification_number: "D1",
      identification_expiration: "2027-12-31",
    });
    expect(normalizedIdentification(id({ type: "passport", state: "PA" }))?.identification_state).toBeNull();
    expect(normalizedIdentification(id({ type: null }))).toBeNull();
    expect(normalizedIdentification(id({ expiration: "13/01/2027" }))).toBeNull();
  });
});

describe("signature step (spec §5)", () => {
  const canSkip = makeOrder({ pharmacy: makePharmacy({ can_skip_signature: true }), signature_refusal_reasons: [...SIGNATURE_REFUSAL_REASONS] });
  const mustSign = makeOrder({ pharmacy: makePharmacy({ can_skip_signature: false }), signature_refusal_reasons: [...SIGNATURE_REFUSAL_REASONS] });
  const sig = (changes: Partial<SignatureForm>): SignatureForm => ({ ...EMPTY_SIGNATURE_FORM, ...changes });

  it("accepts a signed pad anywhere", () => {
    expect(signatureComplete(sig({ signed: true }), mustSign)).toBe(true);
    expect(signatureComplete(sig({ signed: true }), canSkip)).toBe(true);
  });

  it("refuses an empty pad without a reason", () => {
    expect(signatureProblem(sig({}), canSkip)).toBe("The recipient must sign.");
  });

  it("allows a reason only where the pharmacy can_skip_signature", () => {
    expect(signatureProblem(sig({ refusal_reason: "refused", refusal_notes: "Would not sign" }), mustSign)).toBe(
      "This pharmacy requires a signature.",
    );
    expect(signatureComplete(sig({ refusal_reason: "refused", refusal_notes: "Would not sign" }), canSkip)).toBe(true);
  });

  it("needs a reason from the order's list", () => {
    expect(signatureProblem(sig({ refusal_reason: "bored", refusal_notes: "abc" }), canSkip)).toBe("Choose a reason for not signing.");
    const noReasons = { ...canSkip, signature_refusal_reasons: [] };
    expect(signatureComplete(sig({ refusal_reason: "refused", refusal_notes: "abc" }), noReasons)).toBe(false);
  });

  it("needs notes of at least 3 characters, for 'other' as for the rest", () => {
    expect(signatureProblem(sig({ refusal_reason: "other", refusal_notes: "ab" }), canSkip)).toBe("Notes: at least 3 characters.");
    expect(signatureComplete(sig({ refusal_reason: "other", refusal_notes: " ab " }), canSkip)).toBe(false);
    expect(signatureComplete(sig({ refusal_reason: "other", refusal_notes: "Gate locked" }), canSkip)).toBe(true);
    expect(signatureComplete(sig({ refusal_reason: "contactless", refusal_notes: "" }), canSkip)).toBe(false);
  });

  it("counts 'physically_unable' as signed, without notes", () => {
    const unable = sig({ refusal_reason: "physically_unable" });
    expect(countsAsSigned(unable)).toBe(true);
    expect(signatureComplete(unable, canSkip)).toBe(true);
    expect(countsAsSigned(sig({ refusal_reason: "refused" }))).toBe(false);
    expect(countsAsSigned(sig({ signed: true }))).toBe(true);
  });
});

describe("a date of birth to check (issue 17, docs/decisions/0011-a-date-of-birth-nobody-can-see-is-never-confirmed.md)", () => {
  it("is the one on file, as MM/DD/YYYY; with none (or none readable) nothing can be verified", () => {
    expect(dobToCheck(makeOrder({ patient_date_of_birth: "1948-03-14" }))).toBe("03/14/1948");
    expect(dobCanBeVerified(makeOrder({ patient_date_of_birth: "1948-03-14" }))).toBe(true);
    for (const none of [null, "", "unknown"]) {
      expect(dobToCheck(makeOrder({ patient_date_of_birth: none }))).toBeNull();
      expect(dobCanBeVerified(makeOrder({ patient_date_of_birth: none }))).toBe(false);
    }
  });
});
