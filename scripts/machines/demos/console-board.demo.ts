import { consoleBoardMachine } from "../../../machines/console-board.machine.ts";
import { defineDemo } from "../demo-kit.ts";
import { COURIER, ORDERS } from "./fixtures.ts";

const DAY = {
  orders: Object.values(ORDERS).map((order) => ({ ...order, service_date: "2026-11-26", courier_id: COURIER.id, created_at: "2026-11-26T12:00:00Z", updated_at: "2026-11-26T12:00:00Z" })),
  couriers: [COURIER],
};

export default defineDemo({
  machine: consoleBoardMachine,
  summary: "Input: the service date 2026-11-26. The day loads (Dana Whitfield's orders); the stream opens, a change arrives, the board reloads.",
  input: { serviceDate: "2026-11-26" },
  standIns: {
    loadBoard: { resolves: DAY, says: "GET /api/ops/v1/orders?service_date=2026-11-26 and GET /api/ops/v1/couriers" },
    eventStream: { callback: "GET /api/ops/v1/events (EventSource): send STREAM_OPEN, STREAM_EVENT, STREAM_ERROR from the list" },
  },
  events: [
    { type: "STREAM_OPEN" },
    { type: "STREAM_EVENT" },
    { type: "STREAM_ERROR" },
    { type: "SET_SERVICE_DATE", serviceDate: "2026-11-27" },
    { type: "RETRY" },
  ],
});
