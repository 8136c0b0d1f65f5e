import { labelScannerMachine } from "../../../machines/label-scanner.machine.ts";
import { defineDemo } from "../demo-kit.ts";
import { ORDERS } from "./fixtures.ts";

export default defineDemo({
  machine: labelScannerMachine,
  summary:
    "The camera open at Riverside Community Pharmacy's check-in, looking for the labels of orders 4101 (RX-884213) and 4102 (RX-884214); " +
    "alone here, a match is reported to no screen.",
  input: { bags: [ORDERS.toPickUp, ORDERS.verified] },
  standIns: {
    camera: { callback: "the camera: reports nothing by itself; send CAMERA_READY, LABEL_READ or CAMERA_FAILED" },
  },
  events: [
    { type: "CAMERA_READY" },
    { type: "LABEL_READ", code: "RX-884213" },
    { type: "LABEL_READ", code: "RX-000000" },
    { type: "BAGS_CHANGED", bags: [ORDERS.toPickUp, ORDERS.verified, ORDERS.attempted] },
    { type: "CAMERA_FAILED", problem: "denied" },
    { type: "RETRY" },
    { type: "CLOSE" },
  ],
});
