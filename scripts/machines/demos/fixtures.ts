import type { ItineraryResponse } from "../../../domain/contract/index.ts";
import { FAILURE_REASONS, ORDER_STATUSES, RELATIONSHIPS } from "../../../domain/vocabulary.ts";
import { makeOrder, makePharmacy, makeVisit } from "../../../tests/support/order-fixtures.ts";

/** One courier's day in Philadelphia, shared by the demos (contract-shaped, built with the tests' fixtures). */

export const TODAY = "2026-11-24";
export const SUPPORT_PHONE = "2155550100";
export const COURIER = { id: 12, first_name: "Dana", last_name: "Whitfield" };
export const RIVERSIDE = makePharmacy({ id: 3 });

export const ORDERS = {
  /** Waiting at the pharmacy, an 8.75 copay to assert. */
  toPickUp: makeOrder({ id: 4101, status: "submitted_to_courier", pharmacy: RIVERSIDE, copay: "8.75", rx_numbers: ["RX-884213"] }),
  /** Verified earlier today, not yet picked up. */
  verified: makeOrder({ id: 4102, status: "verified", pharmacy: RIVERSIDE, patient_first_name: "Harold", rx_numbers: ["RX-884214"] }),
  /** Nobody was home: the bag goes back to the pharmacy. */
  attempted: makeOrder({ id: 4103, status: "delivery_attempted", pharmacy: RIVERSIDE, patient_first_name: "Margaret", rx_numbers: ["RX-884215"] }),
  /** Delivered, 12.50 paid in cash: the cash goes back to the pharmacy. */
  paidCash: makeOrder({
    id: 4104,
    status: "delivered",
    pharmacy: RIVERSIDE,
    patient_first_name: "Timothy",
    copay: "12.50",
    payment_collected: true,
    payment_type: "cash",
    rx_numbers: ["RX-884216"],
  }),
};

export const VISIT = makeVisit({ id: 31, pharmacy: RIVERSIDE, confirmed: true, arrived_at: null });

export const ITINERARY: ItineraryResponse = {
  courier: COURIER,
  service_date: TODAY,
  support_phone: SUPPORT_PHONE,
  feature_flags: { self_service_addons_enabled: true },
  pharmacy_visits: [VISIT],
  orders: Object.values(ORDERS),
  statuses: ORDER_STATUSES.map(({ id, name }) => ({ id, name })),
  relationships: RELATIONSHIPS.map(({ id, name }) => ({ id, name })),
  failure_reasons: FAILURE_REASONS.map(({ id, name }) => ({ id, name })),
};
