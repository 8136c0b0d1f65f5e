import { type StoredOfflineOrder } from "../../../domain/offline-queue.ts";
import { offlineQueueMachine } from "../../../machines/offline-queue.machine.ts";
import { defineDemo } from "../demo-kit.ts";
import { TODAY } from "./fixtures.ts";

/** A signed delivery of order 4104 that the network lost, as the phone stores it. */
const STORED: StoredOfflineOrder = {
  kind: "signature",
  id: 4104,
  orderIds: [4104],
  status: "delivered",
  delivery: { "delivery[order_ids][]": ["4104"], "delivery[signed_by]": "Timothy Abernathy" },
  dataToSubmit: null,
  idempotencyKey: "0b7e4c2a-5d1f-4e8b-9a63-2f1c7d9e4b10",
  payment: true,
  storedOn: TODAY,
  createdAt: `${TODAY}T13:42:00.000Z`,
};

export default defineDemo({
  machine: offlineQueueMachine,
  summary: "Today is 2026-11-24; the phone holds one signed delivery (order 4104, cash collected) stored today, which the server now accepts.",
  input: { today: TODAY },
  standIns: {
    loadQueue: { resolves: [STORED], says: "the stored offline orders read from the device" },
    saveQueue: { resolves: undefined, says: "the change saved on the device" },
    resubmit: { resolves: { delivery: { id: 88121, status: "delivered", order_ids: [4104] } }, says: "the stored call resubmitted: accepted" },
  },
  events: [
    { type: "LOAD", today: TODAY },
    { type: "ENQUEUE", entry: { ...STORED, id: 4105, orderIds: [4105], idempotencyKey: "6c1d2e3f-4a5b-4c6d-8e7f-9a0b1c2d3e4f" } },
    { type: "TRY_AGAIN", today: TODAY },
    { type: "ONLINE", today: TODAY },
    { type: "DISMISS" },
    { type: "CLEAR" },
  ],
});
