import { returnsMachine } from "../../../machines/returns.machine.ts";
import { defineDemo } from "../demo-kit.ts";
import { COURIER, ORDERS, RIVERSIDE } from "./fixtures.ts";

const SIGNATURE = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 354 200"><path d="M 30,120 C 90,30 160,170 240,70" stroke="black" fill="none"/></svg>';

export default defineDemo({
  machine: returnsMachine,
  summary:
    "Returns at Riverside Community Pharmacy: order 4103's bag (nobody was home) and 12.50 cash for order 4104; " +
    "nothing waits offline. The pharmacist Rosa Diaz signs.",
  input: { courierId: COURIER.id, pharmacyId: RIVERSIDE.id, orders: [ORDERS.attempted, ORDERS.paidCash], incompleteOffline: false },
  standIns: {
    submitReturn: {
      resolves: { return: { id: 560, order_ids: [4103, 4104], cash_collected: "12.50", check_collected: "0.00" } },
      says: "POST /courier/pharmacies/3/returns: the return recorded",
    },
  },
  children: {
    labelScanner: { camera: { callback: "the camera: reports nothing by itself; the scanner's own page sends its events" } },
  },
  events: [
    { type: "VIEW_DETAILS", kind: "orders" },
    { type: "VIEW_DETAILS", kind: "cash" },
    { type: "SIGN" },
    { type: "BACK" },
    { type: "STAFF_CHANGED", changes: { first_name: "Rosa", last_name: "Diaz" } },
    { type: "SIGNATURE_CHANGED", svg: SIGNATURE },
    { type: "LOCATED", latitude: 39.9436, longitude: -75.1679 },
    { type: "SUBMIT" },
    { type: "SCAN" },
    // The scanner read 4103's label RX-884215.
    { type: "LABEL_MATCHED", orderId: 4103 },
    // The day and the offline queue tell the return what changes (none runs in the visualizer): nothing waits on the device.
    { type: "DAY_CHANGED", orders: [ORDERS.attempted, ORDERS.paidCash] },
    { type: "QUEUE_CHANGED", incompleteOffline: false },
  ],
});
