import { consoleBoardMachine } from "../../../machines/console-board.machine.ts";
import { defineDemo } from "../demo-kit.ts";
import { COURIER, ORDERS } from "./fixtures.ts";

const stamp = { service_date: "2026-11-26", created_at: "2026-11-26T12:00:00Z", updated_at: "2026-11-26T12:00:00Z", planned_position: null, card_payment_status: null };
const DAY = {
  orders: Object.values(ORDERS).map((order) => ({
    ...order,
    ...stamp,
    pharmacy: { ...order.pharmacy, closing_time: null },
    courier_id: COURIER.id,
    courier: { id: COURIER.id, first_name: COURIER.first_name, last_name: COURIER.last_name },
  })),
  couriers: [COURIER],
};
const toPickUp = DAY.orders.find((order) => order.id === ORDERS.toPickUp.id)!;

export default defineDemo({
  machine: consoleBoardMachine,
  summary:
    "Input: the service date 2026-11-26. The day loads (Dana Whitfield's orders); the stream opens, a change to one order arrives, the board fetches that order; an order is checked, Dana chosen, 'Assign' (the server agrees), then 'Unassign'.",
  input: { serviceDate: "2026-11-26", csrfToken: "csrf-demo" },
  standIns: {
    loadBoard: { resolves: DAY, says: "GET /api/ops/v1/orders?service_date=2026-11-26 and GET /api/ops/v1/couriers" },
    loadOrders: { resolves: { orderIds: [toPickUp.id], orders: [{ ...toPickUp, updated_at: "2026-11-26T12:05:00Z" }] }, says: "GET /api/ops/v1/orders/{id} for each order the event named" },
    eventStream: { callback: "GET /api/ops/v1/events (EventSource): send STREAM_OPEN, STREAM_EVENT, STREAM_ERROR from the list" },
    assignOrders: { resolves: [toPickUp], says: "POST /api/ops/v1/assignments {courier_id, service_date, order_ids}: the orders as the server now has them" },
    unassignOrder: { resolves: { ...toPickUp, courier_id: null, courier: null, status: { id: 1, name: "new" } }, says: "DELETE /api/ops/v1/assignments/{order_id}: the order as the server now has it" },
  },
  events: [
    { type: "STREAM_OPEN" },
    { type: "STREAM_EVENT", orders: [{ id: toPickUp.id, updated_at: "2026-11-26T12:05:00Z" }] },
    { type: "TOGGLE_ORDER", orderId: ORDERS.toPickUp.id },
    { type: "CHOOSE_COURIER", courierId: COURIER.id },
    { type: "ASSIGN" },
    { type: "UNASSIGN", orderId: ORDERS.toPickUp.id },
  ],
});
