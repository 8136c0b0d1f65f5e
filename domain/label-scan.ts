import type { Order } from "./contract/entities.ts";
import { checkInList } from "./pharmacy-progress.ts";

/**
 * Reading a bag's printed label with the camera (issue 19): at check-in the
 * label opens its order's verify screen, on the returns summary it ticks the
 * bag off. A label carries one of the order's RX numbers or its external id.
 * The check-in and returns machines, their screens and the tests share these.
 */

/** The symbologies pharmacy label printers use, as ZXing names them (the WebAssembly decoder). */
export const LABEL_FORMATS = ["Code128", "Code39", "QRCode", "DataMatrix"] as const;
/** The same four as the platform's BarcodeDetector names them. */
export const PLATFORM_LABEL_FORMATS = ["code_128", "code_39", "qr_code", "data_matrix"] as const;

/** Why the camera did not open: each has its words below, and the typed search stays. */
export const CAMERA_PROBLEMS = ["unsupported", "denied", "no-camera", "failed"] as const;
export type CameraProblem = (typeof CAMERA_PROBLEMS)[number];

/** The longest label a courier is shown back; a longer read is cut with an ellipsis. */
const SHOWN_LABEL_MAX = 40;

/** How a label and an order's numbers compare: case, surrounding spaces and inner spaces do not matter. */
export function normalLabel(code: string): string {
  return code.replace(/\s+/g, "").toUpperCase();
}

/** The order among `candidates` whose RX number or external id the label carries, or null. */
export function orderOfLabel<T extends Pick<Order, "id" | "rx_numbers" | "external_id">>(candidates: readonly T[], code: string): T | null {
  const wanted = normalLabel(code);
  if (wanted === "") return null;
  // typeof, not !== null: a day the phone stored before orders carried external_id has none at all.
  return (
    candidates.find(
      (order) => order.rx_numbers.some((rx) => normalLabel(rx) === wanted) || (typeof order.external_id === "string" && normalLabel(order.external_id) === wanted),
    ) ?? null
  );
}

/** A label as the courier is shown it: one line, at most 40 characters. */
export function shownLabel(code: string): string {
  const line = code.replace(/\s+/g, " ").trim();
  return line.length > SHOWN_LABEL_MAX ? `${line.slice(0, SHOWN_LABEL_MAX - 1)}…` : line;
}

export const SCAN_TEXT = {
  scan: "Scan",
  stopScanning: "Stop scanning",
  tryAgain: "Try the camera again",
  starting: "Opening the camera…",
  aimAtLabel: "Point the camera at the bag's label.",
  checkInHint: "The order opens as soon as its label is read.",
  searchInstead: "Search by name in the box above instead.",
  returnsHint: "Each bag is ticked off as its label is read.",
  returnsOffer: "Scan each bag's label to tick it off as it goes back.",
  noOrderWithLabel: (code: string) => `No order here has the label ${shownLabel(code)}.`,
  cameraProblem: {
    unsupported: "This browser cannot use the camera.",
    denied: "The camera is not allowed for this app: allow it in the browser's site settings, then try again.",
    "no-camera": "No camera was found on this phone.",
    failed: "The camera could not be started: another app may be using it.",
  } satisfies Record<CameraProblem, string>,
} as const;

/** The check-in list's order a label names (the listed orders only: not another pharmacy's). */
export function scannedOrder(context: { orders: readonly Order[]; pharmacyId: number }, code: string): Order | null {
  return orderOfLabel(checkInList(context.orders, context.pharmacyId), code);
}
