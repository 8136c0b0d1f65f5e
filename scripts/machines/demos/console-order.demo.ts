import { consoleOrderMachine } from "../../../machines/console-order.machine.ts";
import { defineDemo } from "../demo-kit.ts";
import { COURIER, ORDERS } from "./fixtures.ts";

const ORDER = { ...Object.values(ORDERS)[0]!, service_date: "2026-11-26", courier_id: null, created_at: "2026-11-26T12:00:00Z", updated_at: "2026-11-26T12:00:00Z", status: { id: 1, name: "new" as const }, status_history: [] };
const PAGE = { order: ORDER, custody: [], proof: null, deliveries: [], couriers: [COURIER] };

export default defineDemo({
  machine: consoleOrderMachine,
  summary: "Input: order 7 and a dispatcher. The order loads (new, no courier); it can be edited, cancelled or assigned to Dana Whitfield.",
  input: { orderId: 7, role: "dispatcher", csrfToken: "csrf-7d21be" },
  standIns: {
    loadOrder: { resolves: PAGE, says: "GET the order, its custody, proof, webhooks, and the couriers" },
    updateOrder: { resolves: undefined, says: "PATCH /api/ops/v1/orders/7" },
    cancelOrder: { resolves: undefined, says: "POST /api/ops/v1/orders/7/cancellation" },
    assignOrder: { resolves: undefined, says: "POST /api/ops/v1/assignments" },
    unassignOrder: { resolves: undefined, says: "DELETE /api/ops/v1/assignments/7" },
    orderEvents: { callback: "GET /api/ops/v1/events (EventSource): send ORDER_CHANGED from the list" },
  },
  events: [
    { type: "EDIT" },
    { type: "SAVE", changes: { phone_number: "215-555-0100" } },
    { type: "DISCARD" },
    { type: "CANCEL_ORDER" },
    { type: "KEEP_ORDER" },
    { type: "CONFIRM_CANCEL" },
    { type: "ASSIGN", courierId: COURIER.id },
    { type: "UNASSIGN" },
    { type: "ORDER_CHANGED" },
    { type: "REFRESH" },
    { type: "RETRY" },
  ],
});
