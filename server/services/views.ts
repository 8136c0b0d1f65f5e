import { centsToDecimal } from "../../domain/money.ts";
import { SIGNATURE_REFUSAL_REASONS, statusById } from "../../domain/vocabulary.ts";
import type { Order, Pharmacy } from "../../domain/contract/entities.ts";
import type { orders, pharmacies } from "../db/schema.ts";

type PharmacyRow = typeof pharmacies.$inferSelect;
type OrderRow = typeof orders.$inferSelect;

const iso = (value: Date | null) => (value ? value.toISOString() : null);

export function pharmacyView(row: PharmacyRow): Pharmacy {
  return {
    id: row.id,
    name: row.name,
    phone_number: row.phoneNumber,
    address: {
      street_address: row.streetAddress,
      street_address_2: row.streetAddress2,
      city: row.city,
      state_abbreviation: row.stateAbbreviation,
      zipcode: row.zipcode,
      latitude: row.latitude,
      longitude: row.longitude,
    },
    payment_methods: row.paymentMethods,
    allow_pod_copay_collection: row.allowPodCopayCollection,
    routing_enabled: row.routingEnabled,
    dob_verification_enabled: row.dobVerificationEnabled,
    pod_recipient_config: row.podRecipientConfig ?? null,
    can_skip_copay_collection: row.canSkipCopayCollection,
    can_skip_signature: row.canSkipSignature,
    pod_photo_required: row.podPhotoRequired,
  };
}

/** The API's order: snake_case as spec §3, money as "0.00" strings. */
export function orderView(row: OrderRow, pharmacy: Pharmacy): Order {
  const status = statusById(row.statusId);
  if (!status) throw new Error(`Order ${row.id} has unknown status ${row.statusId}`);
  return {
    id: row.id,
    status: { id: status.id, name: status.name },
    pharmacy,
    patient_first_name: row.patientFirstName,
    patient_last_name: row.patientLastName,
    patient_date_of_birth: row.patientDateOfBirth,
    recipient_description: row.recipientDescription,
    address: {
      street_address: row.streetAddress,
      street_address_2: row.streetAddress2,
      city: row.city,
      state_abbreviation: row.stateAbbreviation,
      zipcode: row.zipcode,
      latitude: row.latitude,
      longitude: row.longitude,
    },
    phone_number: row.phoneNumber,
    rx_numbers: row.rxNumbers,
    external_id: row.externalId,
    pickup_note: row.pickupNote,
    copay: centsToDecimal(row.copayCents),
    delivery_fee: centsToDecimal(row.deliveryFeeCents),
    other_items_amount_due: centsToDecimal(row.otherItemsAmountDueCents) ?? "0.00",
    copay_paid_at: iso(row.copayPaidAt),
    payment_collected: row.paymentCollected,
    payment_authorized: row.paymentAuthorized,
    payment_type: row.paymentType,
    item_returned: row.itemReturned,
    pid_order: row.pidOrder,
    delivery_notes: row.deliveryNotes,
    collect_identification: row.collectIdentification,
    controlled_substance: row.controlledSubstance,
    signature_required: row.signatureRequired,
    signature_refusal_reasons: SIGNATURE_REFUSAL_REASONS.map((r) => ({ ...r })),
    recipient_relationship_id: row.recipientRelationshipId,
    recipient_first_name: row.recipientFirstName,
    recipient_last_name: row.recipientLastName,
    other_recipient_description: row.otherRecipientDescription,
    recipient_called_at: iso(row.recipientCalledAt),
    service_window_instance_id: row.serviceWindowInstanceId,
    addedOn: row.addedOn,
    chargeData: row.chargeData ?? null,
    identification_state: row.identificationState,
    identification_type: row.identificationType,
    identification_number: row.identificationNumber,
    identification_expiration: row.identificationExpiration,
    delivery_window_start: row.deliveryWindowStart,
    delivery_window_end: row.deliveryWindowEnd,
  };
}
