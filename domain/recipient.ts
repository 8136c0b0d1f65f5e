import type { Order } from "./contract/entities.ts";
import { RELATIONSHIPS, type RelationshipName } from "./vocabulary.ts";

/**
 * Spec §5 "Recipient step": who accepts the delivery. The machine, the view
 * and the server all answer these questions here, so Continue on the phone
 * and the server's 400 never disagree.
 */

export const NAME_MAX_LENGTH = 32;
export const OTHER_DESCRIPTION_MAX_LENGTH = 32;
export const COURIER_NOTES_MIN_LENGTH = 3;

export const PATIENT: RelationshipName = "Patient";
export const OTHER: RelationshipName = "Other";
export const NO_RECIPIENT: RelationshipName = "No Recipient";
export const CONTACTLESS: RelationshipName = "Contactless - No Signature Requested";

export interface RelationshipOption {
  id: number;
  name: string;
}

/** What the courier has entered at the recipient step. */
export interface RecipientForm {
  relationship_id: number | null;
  first_name: string;
  last_name: string;
  /** Only for 'Other': who the recipient is to the patient. */
  other_description: string;
  courier_notes: string;
  /** 'Failed delivery - must be returned to pharmacy' is ticked (and confirmed). */
  failed: boolean;
}

/** The order fields the recipient rules read. */
export type RecipientOrder = Pick<Order, "copay" | "signature_required" | "patient_first_name" | "patient_last_name"> & {
  pharmacy: Pick<Order["pharmacy"], "pod_recipient_config">;
};

export const EMPTY_RECIPIENT_FORM: RecipientForm = {
  relationship_id: null,
  first_name: "",
  last_name: "",
  other_description: "",
  courier_notes: "",
  failed: false,
};

const same = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

/** The vocabulary name of a relationship id, or null for an unknown id. */
export function relationshipName(id: number | null | undefined): RelationshipName | null {
  return RELATIONSHIPS.find((relationship) => relationship.id === id)?.name ?? null;
}

export function relationshipIdOf(name: RelationshipName): number {
  return RELATIONSHIPS.find((relationship) => relationship.name === name)!.id;
}

const isNamed = (id: number | null, name: RelationshipName) => {
  const actual = relationshipName(id);
  return actual != null && same(actual, name);
};

/**
 * Spec §5, read literally: "'No Recipient' is offered only when pharmacy
 * config is require_recipient, or copay is not 0.00, or a signature is
 * required." The copay test is on the order's copay string as the spec
 * states it: a copay the pharmacy left empty (null) is "not 0.00".
 */
export function noRecipientOffered(order: RecipientOrder): boolean {
  return order.pharmacy.pod_recipient_config === "require_recipient" || order.copay !== "0.00" || order.signature_required;
}

/** Spec §5: with covid19_contactless the contactless option is the only one; otherwise it is hidden. */
export function contactlessOnly(order: RecipientOrder): boolean {
  return order.pharmacy.pod_recipient_config === "covid19_contactless";
}

/**
 * The relationships offered for an order, sorted with PATIENT first and NO
 * RECIPIENT last (the others keep their order). `relationships` is the list
 * the server sent (itinerary), defaulting to the product's vocabulary.
 */
export function recipientOptions(
  order: RecipientOrder,
  relationships: readonly RelationshipOption[] = RELATIONSHIPS,
): RelationshipOption[] {
  const contactless = relationships.filter((r) => same(r.name, CONTACTLESS));
  if (contactlessOnly(order)) return contactless;
  const offered = relationships.filter((r) => {
    if (same(r.name, CONTACTLESS)) return false;
    if (same(r.name, NO_RECIPIENT)) return noRecipientOffered(order);
    return true;
  });
  const rank = (r: RelationshipOption) => (same(r.name, PATIENT) ? 0 : same(r.name, NO_RECIPIENT) ? 2 : 1);
  return offered
    .map((relationship, index) => ({ relationship, index }))
    .sort((a, b) => rank(a.relationship) - rank(b.relationship) || a.index - b.index)
    .map(({ relationship }) => relationship);
}

export function isRelationshipOffered(order: RecipientOrder, relationshipId: number | null): boolean {
  return relationshipId != null && recipientOptions(order).some((option) => option.id === relationshipId);
}

/** The form a delivery starts with: with covid19_contactless the contactless option is preselected. */
export function initialRecipientForm(order: RecipientOrder): RecipientForm {
  if (contactlessOnly(order)) return { ...EMPTY_RECIPIENT_FORM, relationship_id: relationshipIdOf(CONTACTLESS) };
  return { ...EMPTY_RECIPIENT_FORM };
}

/** Spec §5: Patient (not grouped) fills the names from the patient and makes them read-only. */
export function namesLockedToPatient(form: Pick<RecipientForm, "relationship_id">, grouped: boolean): boolean {
  return !grouped && isNamed(form.relationship_id, PATIENT);
}

/**
 * Choosing a relationship. Patient (not grouped) takes the patient's names;
 * leaving Patient clears the names it filled in, so they are never sent for
 * someone else. The description only belongs to 'Other'.
 */
export function chooseRelationship(form: RecipientForm, relationshipId: number, order: RecipientOrder, grouped: boolean): RecipientForm {
  const next: RecipientForm = { ...form, relationship_id: relationshipId };
  if (namesLockedToPatient(next, grouped)) {
    return { ...next, first_name: order.patient_first_name, last_name: order.patient_last_name, other_description: "" };
  }
  if (namesLockedToPatient(form, grouped)) {
    next.first_name = "";
    next.last_name = "";
  }
  if (!isNamed(relationshipId, OTHER)) next.other_description = "";
  return next;
}

export type RecipientFieldChanges = Partial<Pick<RecipientForm, "first_name" | "last_name" | "other_description" | "courier_notes">>;

/** Typing into the form; locked names keep the patient's. */
export function changeRecipientFields(form: RecipientForm, changes: RecipientFieldChanges, grouped: boolean): RecipientForm {
  const next = { ...form, ...changes };
  if (namesLockedToPatient(form, grouped)) {
    next.first_name = form.first_name;
    next.last_name = form.last_name;
  }
  return next;
}

/** Grouping changes whether Patient's names are locked: refill or release them. */
export function regroupRecipient(form: RecipientForm, order: RecipientOrder, grouped: boolean): RecipientForm {
  if (!isNamed(form.relationship_id, PATIENT)) return form;
  if (grouped) return { ...form, first_name: "", last_name: "" };
  return { ...form, first_name: order.patient_first_name, last_name: order.patient_last_name };
}

export const isNoRecipient = (form: Pick<RecipientForm, "relationship_id">) => isNamed(form.relationship_id, NO_RECIPIENT);
export const isContactless = (form: Pick<RecipientForm, "relationship_id">) => isNamed(form.relationship_id, CONTACTLESS);
export const isOther = (form: Pick<RecipientForm, "relationship_id">) => isNamed(form.relationship_id, OTHER);

const filled = (value: string) => value.trim().length > 0;

/**
 * Spec §5: a recipient counts as selected if: relationship 'Other' with
 * first name, last name and description; or first name, last name and
 * relationship id; or relationship is 'No Recipient' or contactless. 'Other'
 * is only selected with its description (the issue: Other needs all three).
 */
export function recipientCountsAsSelected(
  form: Pick<RecipientForm, "relationship_id" | "first_name" | "last_name" | "other_description">,
): boolean {
  if (relationshipName(form.relationship_id) == null) return false;
  if (isNoRecipient(form) || isContactless(form)) return true;
  const named = filled(form.first_name) && filled(form.last_name);
  if (isOther(form)) return named && filled(form.other_description);
  return named;
}

/** Spec §5: notes are required when the relationship is No Recipient, contactless, or the delivery failed. */
export function courierNotesRequired(form: Pick<RecipientForm, "relationship_id" | "failed">): boolean {
  return form.failed || isNoRecipient(form) || isContactless(form);
}

export function courierNotesLongEnough(notes: string): boolean {
  return notes.trim().length >= COURIER_NOTES_MIN_LENGTH;
}

export type RecipientField = "relationship_id" | "first_name" | "last_name" | "other_description" | "courier_notes";

/** What is wrong with the form, field by field, in words the courier can act on. */
export function recipientProblems(form: RecipientForm): Partial<Record<RecipientField, string>> {
  const problems: Partial<Record<RecipientField, string>> = {};
  if (form.first_name.length > NAME_MAX_LENGTH) problems.first_name = `First name: at most ${NAME_MAX_LENGTH} characters.`;
  if (form.last_name.length > NAME_MAX_LENGTH) problems.last_name = `Last name: at most ${NAME_MAX_LENGTH} characters.`;
  if (form.other_description.length > OTHER_DESCRIPTION_MAX_LENGTH) {
    problems.other_description = `Relationship: at most ${OTHER_DESCRIPTION_MAX_LENGTH} characters.`;
  }
  if (courierNotesRequired(form) && !courierNotesLongEnough(form.courier_notes)) {
    problems.courier_notes = `Courier notes: at least ${COURIER_NOTES_MIN_LENGTH} characters.`;
  }
  if (!form.failed && !recipientCountsAsSelected(form)) {
    problems.relationship_id = isOther(form)
      ? "Enter the recipient's first name, last name and relationship."
      : "Choose who is accepting the delivery and enter their name.";
  }
  return problems;
}

/**
 * Spec §5: Continue is enabled when a recipient counts as selected, or the
 * failed-delivery box is ticked; the notes the spec requires and the length
 * limits must hold too.
 */
export function recipientContinueEnabled(form: RecipientForm): boolean {
  return Object.keys(recipientProblems(form)).length === 0;
}

/** No one signs for it: No Recipient or contactless (the payment and signature steps are skipped). */
export function recipientSkipped(form: Pick<RecipientForm, "relationship_id">): boolean {
  return isNoRecipient(form) || isContactless(form);
}

/**
 * Spec §4: the delivery is submitted at the recipient step when the recipient
 * is 'No Recipient', contactless with courier notes, or marked failed.
 */
export function submittedAtRecipientStep(form: RecipientForm): boolean {
  return form.failed || isNoRecipient(form) || (isContactless(form) && courierNotesLongEnough(form.courier_notes));
}

/** The name the signature is given under: the recipient's, as entered. */
export function recipientFullName(form: Pick<RecipientForm, "first_name" | "last_name">): string | null {
  const name = `${form.first_name.trim()} ${form.last_name.trim()}`.trim();
  return name === "" ? null : name;
}
