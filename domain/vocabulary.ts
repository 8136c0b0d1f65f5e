/**
 * The product's fixed vocabulary (spec §3). Ids are stable: the database seeds
 * them with these values and the API speaks them.
 */
export const ORDER_STATUSES = [
  { id: 1, name: "new" },
  { id: 2, name: "submitted_to_courier" },
  { id: 3, name: "picked_up" },
  { id: 4, name: "verified" },
  { id: 5, name: "delivered" },
  { id: 6, name: "delivery_attempted" },
  { id: 7, name: "cancelled" },
  { id: 8, name: "returned_to_pharmacy" },
  { id: 9, name: "reconciled" },
] as const;

export type OrderStatusName = (typeof ORDER_STATUSES)[number]["name"];
export const ORDER_STATUS_NAMES = ORDER_STATUSES.map((s) => s.name) as unknown as readonly [
  OrderStatusName,
  ...OrderStatusName[],
];

export function statusById(id: number) {
  return ORDER_STATUSES.find((status) => status.id === id) ?? null;
}
export function statusByName(name: OrderStatusName) {
  return ORDER_STATUSES.find((status) => status.name === name)!;
}

export const RELATIONSHIPS = [
  { id: 1, name: "Patient" },
  { id: 2, name: "Other" },
  { id: 3, name: "No Recipient" },
  { id: 4, name: "Contactless - No Signature Requested" },
] as const;
export type RelationshipName = (typeof RELATIONSHIPS)[number]["name"];

export const FAILURE_REASONS = [
  { id: 1, name: "Patient Not Home" },
  { id: 2, name: "Patient Could Not Provide Copayment" },
  { id: 3, name: "Incorrect Address" },
  { id: 4, name: "ID Not Provided" },
  { id: 5, name: "Date of Birth Not Verified" },
] as const;
export type FailureReasonName = (typeof FAILURE_REASONS)[number]["name"];
export const FAILURE_REASON_NAMES = FAILURE_REASONS.map((r) => r.name) as unknown as readonly [
  FailureReasonName,
  ...FailureReasonName[],
];

export const SIGNATURE_REFUSAL_REASONS = [
  { key: "physically_unable", display_name: "Recipient is physically unable to sign" },
  { key: "refused", display_name: "Recipient refused to sign" },
  { key: "contactless", display_name: "Contactless delivery requested" },
  { key: "other", display_name: "Other" },
] as const;
export type SignatureRefusalKey = (typeof SIGNATURE_REFUSAL_REASONS)[number]["key"];

export const ID_TYPES = [
  { key: "driver", label: "Driver license" },
  { key: "military", label: "Military id" },
  { key: "passport", label: "Passport" },
  { key: "state", label: "State id" },
] as const;
export type IdTypeKey = (typeof ID_TYPES)[number]["key"];

/** Spec §3: payment types cash, check, card (sent as credit_card). */
export const PAYMENT_TYPES = ["cash", "check", "card"] as const;
export type PaymentType = (typeof PAYMENT_TYPES)[number];

export const POD_RECIPIENT_CONFIGS = ["covid19_contactless", "require_recipient"] as const;
export type PodRecipientConfig = (typeof POD_RECIPIENT_CONFIGS)[number];

export const US_STATE_ABBREVIATIONS = [
  "AL", "AK", "AZ", "AR", "CA", "CO", "CT", "DE", "DC", "FL", "GA", "HI", "ID", "IL", "IN", "IA",
  "KS", "KY", "LA", "ME", "MD", "MA", "MI", "MN", "MS", "MO", "MT", "NE", "NV", "NH", "NJ", "NM",
  "NY", "NC", "ND", "OH", "OK", "OR", "PA", "RI", "SC", "SD", "TN", "TX", "UT", "VT", "VA", "WA",
  "WV", "WI", "WY",
] as const;
