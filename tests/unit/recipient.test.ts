import { describe, expect, it } from "vitest";
import {
  changeRecipientFields,
  chooseRelationship,
  contactlessOnly,
  courierNotesRequired,
  EMPTY_RECIPIENT_FORM,
  initialRecipientForm,
  isRelationshipOffered,
  namesLockedToPatient,
  noRecipientOffered,
  recipientContinueEnabled,
  recipientCountsAsSelected,
  recipientFullName,
  recipientOptions,
  recipientProblems,
  recipientSkipped,
  regroupRecipient,
  relationshipIdOf,
  relationshipName,
  submittedAtRecipientStep,
  type RecipientForm,
} from "../../domain/recipient.ts";
import { makeOrder, makePharmacy } from "../support/order-fixtures.ts";

const PATIENT = relationshipIdOf("Patient");
const OTHER = relationshipIdOf("Other");
const NO_RECIPIENT = relationshipIdOf("No Recipient");
const CONTACTLESS = relationshipIdOf("Contactless - No Signature Requested");

const form = (changes: Partial<RecipientForm>): RecipientForm => ({ ...EMPTY_RECIPIENT_FORM, ...changes });
const names = (options: { name: string }[]) => options.map((option) => option.name);

describe("recipient options (spec §5)", () => {
  it("offers Patient first and No Recipient last when No Recipient is offered", () => {
    const order = makeOrder({ copay: "12.50" });
    expect(names(recipientOptions(order))).toEqual(["Patient", "Other", "No Recipient"]);
  });

  it("sorts a server list in another order the same way and keeps the others' order", () => {
    const order = makeOrder({ signature_required: true });
    const list = [
      { id: 3, name: "NO RECIPIENT" },
      { id: 7, name: "Neighbour" },
      { id: 2, name: "Other" },
      { id: 1, name: "PATIENT" },
    ];
    expect(recipientOptions(order, list).map((o) => o.id)).toEqual([1, 7, 2, 3]);
  });

  it("offers No Recipient only for require_recipient, a copay that is not 0.00, or a required signature", () => {
    const none = makeOrder({ copay: "0.00", signature_required: false });
    expect(noRecipientOffered(none)).toBe(false);
    expect(names(recipientOptions(none))).toEqual(["Patient", "Other"]);
    expect(noRecipientOffered(makeOrder({ copay: "0.00", pharmacy: makePharmacy({ pod_recipient_config: "require_recipient" }) }))).toBe(true);
    expect(noRecipientOffered(makeOrder({ copay: "0.01" }))).toBe(true);
    expect(noRecipientOffered(makeOrder({ copay: "0.00", signature_required: true }))).toBe(true);
  });

  it("reads 'copay is not 0.00' literally: a null copay is not 0.00, and the fee does not count", () => {
    expect(noRecipientOffered(makeOrder({ copay: null }))).toBe(true);
    expect(noRecipientOffered(makeOrder({ copay: "0.00", delivery_fee: "5.00" }))).toBe(false);
  });

  it("hides the contactless option unless the pharmacy is covid19_contactless, where it is the only one", () => {
    for (const order of [makeOrder({ copay: "9.00" }), makeOrder({ pharmacy: makePharmacy({ pod_recipient_config: "require_recipient" }) })]) {
      expect(names(recipientOptions(order))).not.toContain("Contactless - No Signature Requested");
      expect(contactlessOnly(order)).toBe(false);
    }
    const covid = makeOrder({ copay: "9.00", signature_required: true, pharmacy: makePharmacy({ pod_recipient_config: "covid19_contactless" }) });
    expect(contactlessOnly(covid)).toBe(true);
    expect(recipientOptions(covid)).toEqual([{ id: CONTACTLESS, name: "Contactless - No Signature Requested" }]);
  });

  it("preselects contactless for covid19_contactless and nothing otherwise", () => {
    const covid = makeOrder({ pharmacy: makePharmacy({ pod_recipient_config: "covid19_contactless" }) });
    expect(initialRecipientForm(covid)).toEqual(form({ relationship_id: CONTACTLESS }));
    expect(initialRecipientForm(makeOrder())).toEqual(EMPTY_RECIPIENT_FORM);
  });

  it("knows which relationships are offered for an order", () => {
    const order = makeOrder({ copay: "0.00" });
    expect(isRelationshipOffered(order, PATIENT)).toBe(true);
    expect(isRelationshipOffered(order, NO_RECIPIENT)).toBe(false);
    expect(isRelationshipOffered(order, CONTACTLESS)).toBe(false);
    expect(isRelationshipOffered(order, null)).toBe(false);
    expect(isRelationshipOffered(order, 999)).toBe(false);
  });

  it("names relationships by id", () => {
    expect(relationshipName(PATIENT)).toBe("Patient");
    expect(relationshipName(null)).toBeNull();
    expect(relationshipName(42)).toBeNull();
  });
});

describe("who counts as selected (spec §5)", () => {
  it.each([
    ["nothing chosen", form({ first_name: "Ann", last_name: "Lee" }), false],
    ["an unknown relationship id", form({ relationship_id: 99, first_name: "Ann", last_name: "Lee" }), false],
    ["Patient with both names", form({ relationship_id: PATIENT, first_name: "Ann", last_name: "Lee" }), true],
    ["Patient without a last name", form({ relationship_id: PATIENT, first_name: "Ann", last_name: " " }), false],
    ["Patient without a first name", form({ relationship_id: PATIENT, last_name: "Lee" }), false],
    ["Other with names and description", form({ relationship_id: OTHER, first_name: "Bo", last_name: "Lee", other_description: "Son" }), true],
    ["Other without description", form({ relationship_id: OTHER, first_name: "Bo", last_name: "Lee" }), false],
    ["Other with a blank description", form({ relationship_id: OTHER, first_name: "Bo", last_name: "Lee", other_description: "  " }), false],
    ["Other without names", form({ relationship_id: OTHER, other_description: "Son" }), false],
    ["No Recipient without names", form({ relationship_id: NO_RECIPIENT }), true],
    ["contactless without names", form({ relationship_id: CONTACTLESS }), true],
  ])("%s → %s", (_name, value, expected) => {
    expect(recipientCountsAsSelected(value)).toBe(expected);
  });
});

describe("Continue, courier notes and limits (spec §5)", () => {
  it("needs notes for No Recipient, contactless and failed only", () => {
    expect(courierNotesRequired(form({ relationship_id: NO_RECIPIENT }))).toBe(true);
    expect(courierNotesRequired(form({ relationship_id: CONTACTLESS }))).toBe(true);
    expect(courierNotesRequired(form({ failed: true }))).toBe(true);
    expect(courierNotesRequired(form({ relationship_id: PATIENT }))).toBe(false);
    expect(courierNotesRequired(form({ relationship_id: OTHER }))).toBe(false);
  });

  it("enables Continue for a selected recipient with its required notes", () => {
    expect(recipientContinueEnabled(form({ relationship_id: PATIENT, first_name: "Ann", last_name: "Lee" }))).toBe(true);
    expect(recipientContinueEnabled(form({ relationship_id: NO_RECIPIENT, courier_notes: "ab" }))).toBe(false);
    expect(recipientContinueEnabled(form({ relationship_id: NO_RECIPIENT, courier_notes: " ab " }))).toBe(false);
    expect(recipientContinueEnabled(form({ relationship_id: NO_RECIPIENT, courier_notes: "abc" }))).toBe(true);
    expect(recipientContinueEnabled(form({ relationship_id: CONTACTLESS, courier_notes: "Left at door" }))).toBe(true);
  });

  it("enables Continue without a recipient when failed is ticked, with notes", () => {
    expect(recipientContinueEnabled(form({ failed: true }))).toBe(false);
    expect(recipientContinueEnabled(form({ failed: true, courier_notes: "Nobody home" }))).toBe(true);
    expect(recipientContinueEnabled(form({}))).toBe(false);
  });

  it("limits names and the Other description to 32 characters", () => {
    const ok = form({ relationship_id: OTHER, first_name: "a".repeat(32), last_name: "b".repeat(32), other_description: "c".repeat(32) });
    expect(recipientContinueEnabled(ok)).toBe(true);
    expect(Object.keys(recipientProblems({ ...ok, first_name: "a".repeat(33) }))).toEqual(["first_name"]);
    expect(Object.keys(recipientProblems({ ...ok, last_name: "b".repeat(33) }))).toEqual(["last_name"]);
    expect(Object.keys(recipientProblems({ ...ok, other_description: "c".repeat(33) }))).toEqual(["other_description"]);
  });

  it("says what is missing in words", () => {
    expect(recipientProblems(form({ relationship_id: OTHER, first_name: "Bo", last_name: "Lee" })).relationship_id).toBe(
      "Enter the recipient's first name, last name and relationship.",
    );
    expect(recipientProblems(form({})).relationship_id).toBe("Choose who is accepting the delivery and enter their name.");
    expect(recipientProblems(form({ relationship_id: NO_RECIPIENT })).courier_notes).toBe("Courier notes: at least 3 characters.");
  });
});

describe("Patient names (spec §5)", () => {
  const order = makeOrder({ patient_first_name: "Eleanor", patient_last_name: "Abernathy" });

  it("fills and locks the patient's names when not grouped", () => {
    const chosen = chooseRelationship(form({ first_name: "x", last_name: "y" }), PATIENT, order, false);
    expect(chosen).toMatchObject({ relationship_id: PATIENT, first_name: "Eleanor", last_name: "Abernathy" });
    expect(namesLockedToPatient(chosen, false)).toBe(true);
    expect(changeRecipientFields(chosen, { first_name: "Mallory", courier_notes: "ok" }, false)).toMatchObject({
      first_name: "Eleanor",
      last_name: "Abernathy",
      courier_notes: "ok",
    });
  });

  it("neither fills nor locks when grouped", () => {
    const chosen = chooseRelationship(form({}), PATIENT, order, true);
    expect(chosen).toMatchObject({ first_name: "", last_name: "" });
    expect(namesLockedToPatient(chosen, true)).toBe(false);
    expect(changeRecipientFields(chosen, { first_name: "Ann" }, true).first_name).toBe("Ann");
  });

  it("clears the patient's names when another relationship is chosen, and keeps typed names otherwise", () => {
    const patient = chooseRelationship(form({}), PATIENT, order, false);
    expect(chooseRelationship(patient, OTHER, order, false)).toMatchObject({ first_name: "", last_name: "" });
    const other = chooseRelationship(form({ first_name: "Bo", last_name: "Lee", other_description: "Son" }), OTHER, order, false);
    expect(other).toMatchObject({ first_name: "Bo", last_name: "Lee", other_description: "Son" });
    expect(chooseRelationship(other, NO_RECIPIENT, order, false)).toMatchObject({ first_name: "Bo", other_description: "" });
  });

  it("refills or releases the names when grouping changes", () => {
    const patient = chooseRelationship(form({}), PATIENT, order, false);
    const grouped = regroupRecipient(patient, order, true);
    expect(grouped).toMatchObject({ first_name: "", last_name: "" });
    expect(regroupRecipient(grouped, order, false)).toMatchObject({ first_name: "Eleanor", last_name: "Abernathy" });
    const other = form({ relationship_id: OTHER, first_name: "Bo" });
    expect(regroupRecipient(other, order, true)).toBe(other);
  });
});

describe("where the delivery is submitted (spec §4)", () => {
  it.each([
    ["No Recipient", form({ relationship_id: NO_RECIPIENT }), true],
    ["contactless with notes", form({ relationship_id: CONTACTLESS, courier_notes: "On porch" }), true],
    ["contactless without notes", form({ relationship_id: CONTACTLESS, courier_notes: "ab" }), false],
    ["failed", form({ failed: true, relationship_id: PATIENT }), true],
    ["Patient", form({ relationship_id: PATIENT, first_name: "A", last_name: "B" }), false],
    ["Other", form({ relationship_id: OTHER, first_name: "A", last_name: "B", other_description: "Son" }), false],
  ])("%s → submitted at the recipient step: %s", (_name, value, expected) => {
    expect(submittedAtRecipientStep(value)).toBe(expected);
  });

  it("skips the recipient for No Recipient and contactless only", () => {
    expect(recipientSkipped(form({ relationship_id: NO_RECIPIENT }))).toBe(true);
    expect(recipientSkipped(form({ relationship_id: CONTACTLESS }))).toBe(true);
    expect(recipientSkipped(form({ relationship_id: PATIENT }))).toBe(false);
    expect(recipientSkipped(form({}))).toBe(false);
  });

  it("signs under the recipient's full name", () => {
    expect(recipientFullName({ first_name: " Ann ", last_name: "Lee" })).toBe("Ann Lee");
    expect(recipientFullName({ first_name: "", last_name: " " })).toBeNull();
  });
});
