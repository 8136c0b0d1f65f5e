import { paymentMachine } from "../../../machines/payment.machine.ts";
import { makeOrder, makePharmacy } from "../../../tests/support/order-fixtures.ts";
import { defineDemo, type StandIn } from "../demo-kit.ts";

/** The card processor's two calls, answered as the sandbox answers a good card. */
export const paymentStandIns: Record<string, StandIn> = {
  setUpCardClient: { resolves: undefined, says: "the card form's client is set up" },
  authorizeCard: { resolves: { transaction_id: "bt_7f3k2m9q" }, says: "the card is authorized: a transaction id" },
};

export default defineDemo({
  machine: paymentMachine,
  summary:
    "Order 4107 owes a 12.50 copay and a 5.00 delivery fee; the pharmacy takes cash and card but not checks, " +
    "and may not skip copay collection.",
  input: {
    order: makeOrder({
      id: 4107,
      status: "picked_up",
      copay: "12.50",
      delivery_fee: "5.00",
      pharmacy: makePharmacy({
        payment_methods: [
          { type: "cash", allowed: true },
          { type: "check", allowed: false },
          { type: "card", allowed: true },
        ],
        can_skip_copay_collection: false,
      }),
    }),
    supportPhone: "2155550100",
  },
  standIns: paymentStandIns,
  events: [
    { type: "CHOOSE_METHOD", method: "cash" },
    { type: "CHOOSE_METHOD", method: "check" },
    { type: "CHOOSE_METHOD", method: "card" },
    { type: "CORRECT_COPAY", new_copay: "10.00" },
    { type: "CARD_FIELDS_CHANGED", number: true, cvv: true, expiration: true },
    { type: "CONTINUE" },
    { type: "AUTHORIZE" },
    { type: "UNABLE_TO_PAY" },
    { type: "CONFIRM" },
    { type: "CANCEL" },
  ],
});
