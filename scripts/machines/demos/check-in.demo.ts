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
    "the camera reads 4101's label RX-884213 (the scanner reports LABEL_MATCHED); then both are picked up, as the day tells it (DAY_CHANGED).",
  input: { courierId: 7, pharmacyId: RIVERSIDE.id, visitId: VISIT.id, orders: [ORDERS.toPickUp, ORDERS.verified] },
  standIns: {
    markArrived: { resolves: { ...VISIT, arrived_at: "2026-11-24T14:05:00.000Z" }, says: "the visit marked arrived" },
  },
  children: {
    labelScanner: { camera: { callback: "the camera: reports nothing by itself; the scanner's own page sends its events" } },
  },
  events: [
    { type: "SEARCH", query: "Abernathy" },
    // Both picked up on their verify screens: only then may the check-in continue.
    { type: "DAY_CHANGED", orders: [ORDERS.toPickUp, ORDERS.verified].map((order) => ({ ...order, status: PICKED_UP })) },
    { type: "CONTINUE" },
    { type: "BACK" },
    { type: "RETRY_ARRIVAL" },
    { type: "START_DELIVERIES" },
    { type: "GO_HOME" },
    { type: "SCAN" },
    { type: "LABEL_MATCHED", orderId: 4101 },
  ],
});
