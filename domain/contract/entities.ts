import { z } from "zod";
import { FAILURE_REASON_NAMES, ORDER_STATUS_NAMES, PAYMENT_TYPES, POD_RECIPIENT_CONFIGS } from "../vocabulary.ts";
import { Money, NullableMoney } from "./common.ts";

export const Courier = z.object({
  id: z.number().int(),
  first_name: z.string(),
  last_name: z.string(),
});
export type Courier = z.infer<typeof Courier>;

export const Address = z.object({
  street_address: z.string(),
  street_address_2: z.string().nullable(),
  city: z.string(),
  state_abbreviation: z.string(),
  zipcode: z.string(),
  latitude: z.number().nullable(),
  longitude: z.number().nullable(),
});
export type Address = z.infer<typeof Address>;

export const Status = z.object({ id: z.number().int(), name: z.enum(ORDER_STATUS_NAMES) });
export type Status = z.infer<typeof Status>;

export const PaymentMethod = z.object({ type: z.enum(PAYMENT_TYPES), allowed: z.boolean() });

export const Pharmacy = z.object({
  id: z.number().int(),
  name: z.string(),
  address: Address,
  phone_number: z.string().nullable(),
  payment_methods: z.array(PaymentMethod),
  allow_pod_copay_collection: z.boolean(),
  routing_enabled: z.boolean(),
  dob_verification_enabled: z.boolean(),
  pod_recipient_config: z.enum(POD_RECIPIENT_CONFIGS).nullable(),
  can_skip_copay_collection: z.boolean(),
  can_skip_signature: z.boolean(),
  /** Issue 19: a photo of the drop-off wherever nobody signs. */
  pod_photo_required: z.boolean(),
});
export type Pharmacy = z.infer<typeof Pharmacy>;

export const DeliveryNote = z.object({
  courier_note: z.boolean(),
  delivery_instruction: z.string(),
  superuser_note: z.boolean(),
});
export type DeliveryNote = z.infer<typeof DeliveryNote>;

export const SignatureRefusalReason = z.object({ key: z.string(), display_name: z.string() });

export const Order = z.object({
  id: z.number().int(),
  status: Status,
  pharmacy: Pharmacy,
  patient_first_name: z.string(),
  patient_last_name: z.string(),
  patient_date_of_birth: z.string().nullable(),
  recipient_description: z.string(),
  address: Address,
  phone_number: z.string().nullable(),
  rx_numbers: z.array(z.string()),
  /** The pharmacy system's own id for the order (ops API), printed on the bag's label with the RX numbers; null when it has none. */
  external_id: z.string().nullable(),
  pickup_note: z.string().nullable(),
  copay: NullableMoney,
  delivery_fee: NullableMoney,
  other_items_amount_due: Money,
  copay_paid_at: z.string().nullable(),
  payment_collected: z.boolean(),
  payment_authorized: z.boolean(),
  payment_type: z.string().nullable(),
  item_returned: z.boolean(),
  pid_order: z.boolean(),
  delivery_notes: z.array(DeliveryNote),
  collect_identification: z.boolean(),
  controlled_substance: z.boolean(),
  signature_required: z.boolean(),
  signature_refusal_reasons: z.array(SignatureRefusalReason),
  recipient_relationship_id: z.number().int().nullable(),
  recipient_first_name: z.string().nullable(),
  recipient_last_name: z.string().nullable(),
  other_recipient_description: z.string().nullable(),
  recipient_called_at: z.string().nullable(),
  service_window_instance_id: z.number().int().nullable(),
  addedOn: z.boolean(),
  chargeData: z.record(z.string(), z.unknown()).nullable(),
  identification_state: z.string().nullable(),
  identification_type: z.string().nullable(),
  identification_number: z.string().nullable(),
  identification_expiration: z.string().nullable(),
  /** Issue 28: the window promised to the patient, "HH:MM" in the service's zone; null without one. */
  delivery_window_start: z.string().nullable().optional(),
  delivery_window_end: z.string().nullable().optional(),
  /**
   * Issue 28, the itinerary only: the place of the order's delivery in the
   * courier's applied plan (1 = the route's first stop; pickups count too),
   * and of its pickup; null without a plan.
   */
  planned_position: z.number().int().nullable().optional(),
  planned_pickup_position: z.number().int().nullable().optional(),
});
export type Order = z.infer<typeof Order>;

export const PharmacyVisit = z.object({
  id: z.number().int(),
  pharmacy: Pharmacy,
  /** null while the courier has confirmed neither way (spec §2: pending). */
  confirmed: z.boolean().nullable(),
  arrived_at: z.string().nullable(),
});
export type PharmacyVisit = z.infer<typeof PharmacyVisit>;

export const Relationship = z.object({ id: z.number().int(), name: z.string() });
export const FailureReason = z.object({ id: z.number().int(), name: z.enum(FAILURE_REASON_NAMES) });
