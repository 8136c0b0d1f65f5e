import { addonsMachine } from "../../../machines/addons.machine.ts";
import { makeOrder } from "../../../tests/support/order-fixtures.ts";
import { defineDemo } from "../demo-kit.ts";
import { RIVERSIDE } from "./fixtures.ts";

const OFFERED = [
  makeOrder({ id: 4120, status: "new", pharmacy: RIVERSIDE, patient_first_name: "Walter", copay: "4.00" }),
  makeOrder({ id: 4121, status: "new", pharmacy: RIVERSIDE, patient_first_name: "Irene", copay: null }),
];

export default defineDemo({
  machine: addonsMachine,
  summary: "At Riverside Community Pharmacy, with one add-on already taken today (two more allowed); the pharmacy has two orders not on the list.",
  input: { pharmacyId: RIVERSIDE.id, serviceWindowInstanceId: 9000, alreadyAdded: 1 },
  standIns: {
    fetchAddons: { resolves: OFFERED, says: "GET the pharmacy's orders not on the courier's list" },
    submitAddons: { resolves: { orders: OFFERED.map((order) => ({ id: order.id, status: "picked_up" })) }, says: "the add-ons are taken" },
  },
  events: [
    { type: "CHOOSE", orderId: 4120 },
    { type: "UNCHOOSE", orderId: 4120 },
    { type: "SET_NO_COPAY", orderId: 4120, checked: true },
    { type: "CHANGE_COPAY", orderId: 4120, value: "4.00" },
    { type: "HELP" },
    { type: "BACK" },
    { type: "REVIEW" },
    { type: "CONFIRM" },
    { type: "DISMISS_ERROR" },
    { type: "RETRY" },
  ],
});
