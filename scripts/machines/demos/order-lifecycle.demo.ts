import { orderLifecycleMachine } from "../../../machines/order-lifecycle.machine.ts";
import { defineDemo } from "../demo-kit.ts";

export default defineDemo({
  machine: orderLifecycleMachine,
  summary: "An order paid in cash at the door (payment_type cash, payment collected): what the courier returns to the pharmacy is its cash.",
  input: { paymentType: "cash", paymentCollected: true },
  standIns: {},
  events: [
    { type: "SUBMIT_TO_COURIER" },
    { type: "UNASSIGN" },
    { type: "VERIFY" },
    { type: "PICK_UP" },
    { type: "CANCEL" },
    { type: "DELIVER" },
    { type: "ATTEMPT_DELIVERY" },
    { type: "RETURN_TO_PHARMACY" },
    { type: "RECONCILE" },
  ],
});
