import { checkInMachine } from "../../../machines/check-in.machine.ts";
import { defineDemo } from "../demo-kit.ts";
import { statusByName } from "../../../domain/vocabulary.ts";
import { ORDERS, RIVERSIDE, VISIT } from "./fixtures.ts";

const { id, name } = statusByName("picked_up");
const PICKED_UP = { id, name };

export default defineDemo({
  machine: checkInMachine,
  summary:
    "Check-in at Riverside Community Pharmacy with today's visit (31): order 4101 still to verify, 4102 verified; " +
    "the camera reads 4101's label RX-884213; then both are picked up.",
  input: { courierId: 7, pharmacyId: RIVERSIDE.id, visitId: VISIT.id, orders: [ORDERS.toPickUp, ORDERS.verified] },
  standIns: {
    markArrived: { resolves: { ...VISIT, arrived_at: "2026-11-24T14:05:00.000Z" }, says: "the visit marked arrived" },
    labelScanner: { callback: "the camera: reports nothing by itself; send CAMERA_READY, LABEL_READ or CAMERA_FAILED" },
    followDay: { callback: "the courier's day: none runs in the visualizer; send ORDERS_CHANGED as the day's change would" },
  },
  events: [
    { type: "SEARCH", query: "Abernathy" },
    // Both picked up on their verify screens: only then may the check-in continue.
    { type: "ORDERS_CHANGED", orders: [ORDERS.toPickUp, ORDERS.verified].map((order) => ({ ...order, status: PICKED_UP })) },
    { type: "CONTINUE" },
    { type: "BACK" },
    { type: "RETRY_ARRIVAL" },
    { type: "START_DELIVERIES" },
    { type: "GO_HOME" },
    { type: "SCAN" },
    { type: "CAMERA_READY" },
    { type: "LABEL_READ", code: "RX-884213" },
    { type: "LABEL_READ", code: "RX-000000" },
    { type: "CAMERA_FAILED", problem: "denied" },
    { type: "CLOSE_SCANNER" },
  ],
});
