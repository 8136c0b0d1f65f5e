import type { Order, Pharmacy, PharmacyVisit } from "../../domain/contract/entities.ts";
import type { StoredOfflineOrder } from "../../domain/offline-queue.ts";
import { statusByName, type OrderStatusName } from "../../domain/vocabulary.ts";

/** Contract-shaped test data: a full Order with only what a test cares about changed. */

export function makePharmacy(overrides: Partial<Pharmacy> = {}): Pharmacy {
  return {
    id: 1,
    name: "Riverside Community Pharmacy",
    address: {
      street_address: "1520 South St",
      street_address_2: null,
      city: "Philadelphia",
      state_abbreviation: "PA",
      zipcode: "19146",
      latitude: null,
      longitude: null,
    },
    phone_number: "215-555-0142",
    payment_methods: [
      { type: "cash", allowed: true },
      { type: "check", allowed: true },
      { type: "card", allowed: true },
    ],
    allow_pod_copay_collection: true,
    routing_enabled: false,
    dob_verification_enabled: false,
    pod_recipient_config: null,
    can_skip_copay_collection: false,
    can_skip_signature: false,
    pod_photo_required: false,
    ...overrides,
  };
}

export function makeOrder(overrides: Partial<Omit<Order, "status">> & { status?: OrderStatusName } = {}): Order {
  const { status = "submitted_to_courier", ...rest } = overrides;
  const { id, name } = statusByName(status);
  return {
    id: 1,
    status: { id, name },
    pharmacy: makePharmacy(),
    patient_first_name: "Eleanor",
    patient_last_name: "Abernathy",
    patient_date_of_birth: null,
    recipient_description: "Eleanor Abernathy",
    address: {
      street_address: "1012 Pine St",
      street_address_2: null,
      city: "Philadelphia",
      state_abbreviation: "PA",
      zipcode: "19107",
      latitude: null,
      longitude: null,
    },
    phone_number: "2155550101",
    rx_numbers: ["RX-1"],
    external_id: null,
    pickup_note: null,
    copay: "0.00",
    delivery_fee: null,
    other_items_amount_due: "0.00",
    copay_paid_at: null,
    payment_collected: false,
    payment_authorized: false,
    payment_type: null,
    item_returned: false,
    pid_order: false,
    delivery_notes: [],
    collect_identification: false,
    controlled_substance: false,
    signature_required: false,
    signature_refusal_reasons: [],
    recipient_relationship_id: null,
    recipient_first_name: null,
    recipient_last_name: null,
    other_recipient_description: null,
    recipient_called_at: null,
    service_window_instance_id: 9000,
    addedOn: false,
    chargeData: null,
    identification_state: null,
    identification_type: null,
    identification_number: null,
    identification_expiration: null,
    ...rest,
  };
}

/** An order to deliver: picked up, nothing to pay, for the patient named. */
export function orderToDeliver(id: number, first: string, last: string, overrides: Parameters<typeof makeOrder>[0] = {}): Order {
  return makeOrder({ id, patient_first_name: first, patient_last_name: last, status: "picked_up", copay: "0.00", ...overrides });
}

export function makeVisit(overrides: Partial<PharmacyVisit> = {}): PharmacyVisit {
  return { id: 1, pharmacy: makePharmacy(), confirmed: null, arrived_at: null, ...overrides };
}

/** An order's completion stored on the device when the network failed (delivered, card payment), stored on `day`. */
export function makeStoredDelivery(orderId: number, day: string, createdAt = `${day}T15:00:00.000Z`): StoredOfflineOrder {
  return {
    kind: "signature",
    id: orderId,
    orderIds: [orderId],
    status: "delivered",
    delivery: { "delivery[order_ids][]": [String(orderId)] },
    dataToSubmit: null,
    idempotencyKey: `00000000-0000-4000-8000-${String(orderId).padStart(12, "0")}`,
    payment: true,
    storedOn: day,
    createdAt,
  };
}
