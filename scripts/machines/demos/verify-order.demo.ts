import { verifyOrderMachine } from "../../../machines/verify-order.machine.ts";
import { defineDemo } from "../demo-kit.ts";
import { ITINERARY, ORDERS } from "./fixtures.ts";

export default defineDemo({
  machine: verifyOrderMachine,
  summary: "Order 4101 at Riverside Community Pharmacy, submitted to the courier, with an 8.75 copay to assert; the day's status list is known.",
  input: { order: ORDERS.toPickUp, statuses: ITINERARY.statuses },
  standIns: {
    assertCopay: { resolves: { order: { id: 4101, copay: "8.75" } }, says: "PUT /orders/4101: the copay is recorded" },
    pickUpOrder: { resolves: { order: { id: 4101, status: "picked_up" } }, says: "POST /orders/4101/pickups: picked up" },
    cancelOrder: { resolves: { order: { id: 4101, status: "cancelled" } }, says: "POST /courier/cancellation: cancelled" },
  },
  events: [
    { type: "SET_NO_COPAY", checked: true },
    { type: "CHANGE_COPAY", value: "8.75" },
    { type: "VERIFY" },
    { type: "CANCEL" },
    { type: "CONFIRM_CANCEL" },
    { type: "KEEP_ORDER" },
    { type: "DISMISS_ERROR" },
  ],
});
