import { deliveryFlowMachine } from "../../../machines/delivery-flow.machine.ts";
import { makeOrder, makePharmacy } from "../../../tests/support/order-fixtures.ts";
import { defineDemo } from "../demo-kit.ts";
import { deliverySubmitStandIns } from "./delivery-submit.demo.ts";
import { paymentStandIns } from "./payment.demo.ts";

/** Relationship ids as the server lists them (domain/vocabulary.ts): 1 is the patient. */
const PATIENT = 1;
const ORDER_ID = 4107;
const SIGNATURE = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 354 200"><path d="M 20,150 C 80,40 140,160 220,60" stroke="black" fill="none"/></svg>';

export default defineDemo({
  machine: deliveryFlowMachine,
  summary:
    "Order 4107 for Eleanor Abernathy, picked up, nothing owed (copay 0.00, no delivery fee), no date of birth on file, " +
    "no ID to collect, signature required; the pharmacy does not verify dates of birth and needs no photo; no other " +
    "order can be grouped with it. So the flow goes address → recipient → signature: no date-of-birth, ID or payment step.",
  input: {
    order: makeOrder({
      id: ORDER_ID,
      status: "picked_up",
      copay: "0.00",
      delivery_fee: null,
      patient_date_of_birth: null,
      signature_required: true,
      pharmacy: makePharmacy({ dob_verification_enabled: false, pod_photo_required: false }),
    }),
    otherOrders: [],
    supportPhone: "2155550100",
    today: "2026-11-24",
  },
  standIns: {},
  children: { payment: paymentStandIns, deliverySubmit: deliverySubmitStandIns },
  // Each call recorded; the photo screen's Continue.
  childOutputs: { deliverySubmit: { sent: true, queued: false }, photoProof: { accepted: true } },
  events: [
    { type: "PRESENT_AT_ADDRESS" },
    { type: "ADDRESS_INCORRECT" },
    { type: "DOB_VERIFIED" },
    { type: "SELECT_RELATIONSHIP", relationship_id: PATIENT },
    { type: "SET_GROUPED", grouped: true },
    { type: "TICK_FAILED" },
    { type: "SIGNATURE_CHANGED", svg: SIGNATURE },
    { type: "GO_TO_STEP", step: "address" },
    { type: "GO_TO_STEP", step: "payment" },
    { type: "CONTINUE" },
    { type: "CONFIRM" },
    { type: "CANCEL" },
  ],
});
