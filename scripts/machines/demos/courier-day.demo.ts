import { courierDayMachine } from "../../../machines/courier-day.machine.ts";
import { defineDemo } from "../demo-kit.ts";
import { ITINERARY, ORDERS } from "./fixtures.ts";

export default defineDemo({
  machine: courierDayMachine,
  summary: "No input: the day loads from the server (Dana Whitfield, one visit to Riverside Community Pharmacy, four orders); then an order changes on the device.",
  input: undefined,
  standIns: {
    loadDay: { resolves: { itinerary: ITINERARY, source: "server" }, says: "GET /api/courier/itinerary: today's day" },
    saveDay: { resolves: undefined, says: "the day is saved on the device" },
  },
  events: [{ type: "REFRESH" }, { type: "ORDERS_CHANGED", orders: [{ ...ORDERS.toPickUp, status: { id: 3, name: "picked_up" } }] }],
});
