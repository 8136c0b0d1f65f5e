import { deliverySubmitMachine } from "../../../machines/delivery-submit.machine.ts";
import { defineDemo, type StandIn } from "../demo-kit.ts";

const ORDER_ID = 4107;

/** The POST /courier/deliveries call, answered as the server answers a recorded call. */
export const deliverySubmitStandIns: Record<string, StandIn> = {
  send: {
    resolves: { queued: false, delivery: { id: 88120, status: "delivery_attempted", order_ids: [ORDER_ID] } },
    says: "POST /courier/deliveries: the call recorded",
  },
};

export default defineDemo({
  machine: deliverySubmitMachine,
  summary:
    "Order 4107's failed delivery, 'Incorrect Address', recorded by the courier at 3:30 pm on 2026-11-24 and " +
    "sent to POST /courier/deliveries; the server records the attempt.",
  input: {
    kind: "failure",
    body: { failure_reason: "Incorrect Address", client_occurred_at: "2026-11-24T15:30:00.000Z", order_ids: [ORDER_ID] },
  },
  standIns: deliverySubmitStandIns,
  events: [{ type: "RETRY" }, { type: "CANCEL" }],
});
