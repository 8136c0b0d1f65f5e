import { assign, enqueueActions, fromCallback, setup, type AnyActorRef, type EventObject } from "xstate";
import type { Order } from "../domain/contract/entities.ts";
import { orderOfLabel, type CameraProblem } from "../domain/label-scan.ts";

/**
 * Reading bags' printed labels with the phone's rear camera, for the screen
 * that opens it: the check-in list (a label opens its order) and the returns
 * summary (a label ticks its bag off). Check-in and returns invoke this
 * machine while they scan and stop it — camera off — when they leave.
 *
 * The camera is the `camera` callback actor the app provides: it reports
 * CAMERA_READY, CAMERA_FAILED and each LABEL_READ; the picture itself never
 * enters a machine's context. A label of one of the screen's bags reaches
 * the screen's machine (`reportTo`, given with the input) as LABEL_MATCHED; any other label is named on screen
 * and the scanning goes on. 'Stop scanning' ends the machine (CLOSE).
 */

/** What the camera reports. */
export type CameraEvent = { type: "CAMERA_READY" } | { type: "CAMERA_FAILED"; problem: CameraProblem } | { type: "LABEL_READ"; code: string };

/** The bags whose labels count on the screen: their RX numbers and external ids. */
export type LabelledBag = Pick<Order, "id" | "rx_numbers" | "external_id">;

export type LabelScannerEvent =
  | CameraEvent
  /** 'Try the camera again', after it did not open. */
  | { type: "RETRY" }
  /** 'Stop scanning'. */
  | { type: "CLOSE" }
  /** The screen's bags changed while scanning (the day changed under it). */
  | { type: "BAGS_CHANGED"; bags: LabelledBag[] };

/** What the machine that scans hears from the scanner: the bag a label names. */
export interface LabelMatched {
  type: "LABEL_MATCHED";
  orderId: number;
}

export interface LabelScannerInput {
  bags: LabelledBag[];
  /** The machine that scans (check-in, returns), told each LABEL_MATCHED; absent when the scanner runs alone (the visualizer). */
  reportTo?: AnyActorRef;
}

export interface LabelScannerContext {
  bags: LabelledBag[];
  reportTo: AnyActorRef | null;
  /** The last label read that names none of the bags (shown while scanning goes on), or null. */
  unknownLabel: string | null;
  /** Why the camera did not open, or null. */
  cameraProblem: CameraProblem | null;
}

/** What the app (or a test) provides, as stand-ins that fail until it does. */
const labelScannerCalls = {
  /** Opens the rear camera and reads labels until stopped: leaving `camera` closes it. The app and the tests provide it. */
  camera: fromCallback<EventObject>(() => {
    throw new Error("provide camera");
  }),
};
export type LabelScannerCalls = typeof labelScannerCalls;

/** The machine with these calls, built once by whoever runs it (the app with its own; see session.definition.ts). */
export const createLabelScannerMachine = (calls: Partial<LabelScannerCalls> = {}) =>
  setup({
    types: {
      context: {} as LabelScannerContext,
      events: {} as LabelScannerEvent,
      input: {} as LabelScannerInput,
    },
    actors: {
      ...labelScannerCalls,
      ...calls,
    },
    guards: {
      /** The label carries an RX number or the external id of one of the screen's bags. */
      labelOfABag: ({ context, event }) => event.type === "LABEL_READ" && orderOfLabel(context.bags, event.code) !== null,
    },
    actions: {
      reportMatch: enqueueActions(({ context, event, enqueue }) => {
        const bag = event.type === "LABEL_READ" ? orderOfLabel(context.bags, event.code) : null;
        const matched: LabelMatched = { type: "LABEL_MATCHED", orderId: bag?.id ?? -1 };
        if (context.reportTo) enqueue.sendTo(context.reportTo, matched);
      }),
      setBags: assign(({ event }) => (event.type === "BAGS_CHANGED" ? { bags: event.bags } : {})),
      noteUnknownLabel: assign(({ event }) => (event.type === "LABEL_READ" ? { unknownLabel: event.code } : {})),
      forgetUnknownLabel: assign({ unknownLabel: null }),
      noteCameraProblem: assign(({ event }) => (event.type === "CAMERA_FAILED" ? { cameraProblem: event.problem } : {})),
      clearScan: assign({ unknownLabel: null, cameraProblem: null }),
    },
  }).createMachine({
    id: "labelScanner",
    description: "The camera open above the screen, reading bags' labels until the courier stops it or the screen moves on.",
    context: ({ input }) => ({ bags: input.bags, reportTo: input.reportTo ?? null, unknownLabel: null, cameraProblem: null }),
    on: {
      BAGS_CHANGED: { actions: "setBags", description: "The day changed under the screen: the labels that count are the new bags'." },
    },
    initial: "camera",
    states: {
      camera: {
        description: "The rear camera is open, its picture above the screen.",
        invoke: { id: "camera", src: "camera" },
        on: {
          CAMERA_FAILED: { target: "unavailable", actions: "noteCameraProblem", description: "No camera, permission refused, or it would not start." },
          CLOSE: { target: "closed", description: "Stop scanning: the camera closes." },
        },
        initial: "starting",
        states: {
          starting: {
            description: "Asking for the rear camera (and loading the decoder where the browser has none).",
            on: { CAMERA_READY: { target: "reading", description: "The camera shows the picture." } },
          },
          reading: {
            description: "Point the camera at the bag's label.",
            on: {
              LABEL_READ: [
                { guard: "labelOfABag", actions: ["forgetUnknownLabel", "reportMatch"], description: "A label of one of the screen's bags: the screen acts on it." },
                { actions: "noteUnknownLabel", description: "'No order here has the label {code}.' and the scanning goes on." },
              ],
            },
          },
        },
      },
      unavailable: {
        description: "A clear message why the camera did not open; the screen works as without it.",
        on: {
          RETRY: { target: "camera", actions: "clearScan", description: "Try the camera again." },
          CLOSE: { target: "closed", description: "Stop scanning." },
        },
      },
      closed: { type: "final", description: "Scanning stopped: the camera is off." },
    },
  });
