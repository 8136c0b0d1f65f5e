import { assign, emit, fromCallback, fromPromise, sendTo, setup, type EventObject, type SnapshotFrom } from "xstate";
import { failureText, toApiFailure } from "../domain/api-failure.ts";
import type { Order, PharmacyVisit } from "../domain/contract/entities.ts";
import { scannedOrder, type CameraProblem } from "../domain/label-scan.ts";
import { labelScannerPlaceholder, type LabelScannerEvent } from "./label-scanner.ts";
import { canContinueCheckIn, onlyCancelledOrders, reviewLists } from "../domain/pharmacy-progress.ts";
import { SYSTEM_IDS, type CourierDayRef } from "./system-ids.ts";

/**
 * The check-in gate at one pharmacy (spec §2 check-in screen and
 * confirm_orders, §4 check-in list): the courier checks in every order
 * (verify or cancel, in the verify-order machine), Continue opens the review
 * step, which records the arrival at the pharmacy's visit. 'Scan' (issue 19)
 * reads a bag's label with the camera: the `labelScanner` actor the app
 * provides opens the camera and reports CAMERA_READY, CAMERA_FAILED and each
 * LABEL_READ; a label of a listed order opens its verify screen (the emitted
 * `orderScanned`), any other label is named and the scanning goes on.
 *
 * The machine follows the courier's day itself (`followDay`): an order
 * verified, cancelled or added on, or a refresh, reaches its list as
 * ORDERS_CHANGED while it runs.
 */

export interface CheckInInput {
  /** The courier checking in (the arrival is recorded under their id). */
  courierId: number;
  pharmacyId: number;
  /** Today's visit at this pharmacy; null when the courier has none. */
  visitId: number | null;
  /** The courier's orders of the day (only this pharmacy's are listed). */
  orders: Order[];
}

export interface CheckInContext {
  courierId: number;
  pharmacyId: number;
  visitId: number | null;
  orders: Order[];
  /** The search box ('Search...'): filters the list by recipient description. */
  search: string;
  /** The visit as the server answered arrived_at_pharmacy. */
  visit: PharmacyVisit | null;
  error: string | null;
  /** Where the review step led. */
  next: CheckInOutput["next"] | null;
  /** The last label read that matches no listed order (shown while scanning goes on), or null. */
  unknownLabel: string | null;
  /** Why the camera did not open, or null. */
  cameraProblem: CameraProblem | null;
}

export type CheckInEvent =
  | { type: "SEARCH"; query: string }
  | { type: "ORDERS_CHANGED"; orders: Order[] }
  | { type: "CONTINUE" }
  | { type: "BACK" }
  | { type: "RETRY_ARRIVAL" }
  | { type: "START_DELIVERIES" }
  | { type: "GO_HOME" }
  | { type: "SCAN" }
  | { type: "CLOSE_SCANNER" }
  | LabelScannerEvent;

/** Emitted when a label names a listed order: the view opens /verify_orders/{orderId}. */
export interface OrderScanned {
  type: "orderScanned";
  orderId: number;
}

export interface CheckInOutput {
  /** deliveries: on to /{pharmacyId}/deliver_orders; home: only cancelled orders, back home. */
  next: "deliveries" | "home";
  visit: PharmacyVisit | null;
}

export const checkInMachine = setup({
  types: {
    context: {} as CheckInContext,
    events: {} as CheckInEvent,
    input: {} as CheckInInput,
    output: {} as CheckInOutput,
    emitted: {} as OrderScanned,
  },
  actors: {
    /** Opens the rear camera, reads labels until stopped; stops the camera when the machine leaves scanning. */
    labelScanner: labelScannerPlaceholder,
    /** PUT couriers/{id}/pharmacy_visits/{visitId}/arrived_at_pharmacy */
    markArrived: fromPromise<PharmacyVisit, { courierId: number; visitId: number }>(async () => {
      throw new Error("provide markArrived");
    }),
    /**
     * The day's orders, each time the application's courierDay has new ones
     * (from those the machine started with): ORDERS_CHANGED. With no day in
     * the system (the machine alone) it follows nothing.
     */
    followDay: fromCallback<EventObject, { orders: Order[] }>(({ input, system, sendBack }) => {
      const day = system.get(SYSTEM_IDS.courierDay) as CourierDayRef | undefined;
      if (!day) return;
      let known = input.orders;
      const follow = ({ context }: SnapshotFrom<CourierDayRef>) => {
        const orders = context.day?.orders;
        if (!orders || orders === known) return;
        known = orders;
        sendBack({ type: "ORDERS_CHANGED", orders });
      };
      // The day may have moved on between the machine's input and this subscription.
      follow(day.getSnapshot());
      const subscription = day.subscribe(follow);
      return () => subscription.unsubscribe();
    }),
  },
  guards: {
    /** Spec §4: Continue is enabled only when every listed order is picked_up or cancelled. */
    canContinue: ({ context }) => canContinueCheckIn(context.orders, context.pharmacyId),
    hasVisit: ({ context }) => context.visitId !== null,
    /** 'Start order deliveries': there are verified orders to deliver. */
    hasVerifiedOrders: ({ context }) => reviewLists(context.orders, context.pharmacyId).verified.length > 0,
    /** 'Continue' (goes home) if only cancelled orders exist. */
    onlyCancelled: ({ context }) => onlyCancelledOrders(context.orders, context.pharmacyId),
    /** The label is an RX number or external id of an order on this pharmacy's check-in list. */
    labelIsListed: ({ context, event }) => event.type === "LABEL_READ" && scannedOrder(context, event.code) !== null,
  },
  actions: {
    setSearch: assign(({ event }) => (event.type === "SEARCH" ? { search: event.query } : {})),
    setOrders: assign(({ event }) => (event.type === "ORDERS_CHANGED" ? { orders: event.orders } : {})),
    storeVisit: assign((_, visit: PharmacyVisit) => ({ visit, error: null })),
    /** The day learns of the arrival (every screen agrees): the machine runs in the application's system. */
    reportVisit: sendTo(
      ({ system }) => system.get(SYSTEM_IDS.courierDay),
      (_, visit: PharmacyVisit) => ({ type: "VISITS_CHANGED", visits: [visit] }),
    ),
    showFailure: assign((_, error: unknown) => ({ error: failureText(toApiFailure(error)) })),
    clearError: assign({ error: null }),
    goToDeliveries: assign({ next: "deliveries" as const }),
    goHome: assign({ next: "home" as const }),
    openScannedOrder: emit(({ context, event }) => ({
      type: "orderScanned" as const,
      orderId: event.type === "LABEL_READ" ? (scannedOrder(context, event.code)?.id ?? -1) : -1,
    })),
    noteUnknownLabel: assign(({ event }) => (event.type === "LABEL_READ" ? { unknownLabel: event.code } : {})),
    noteCameraProblem: assign(({ event }) => (event.type === "CAMERA_FAILED" ? { cameraProblem: event.problem } : {})),
    clearScan: assign({ unknownLabel: null, cameraProblem: null }),
  },
}).createMachine({
  id: "checkIn",
  description: "Check-in at a pharmacy: every order verified or cancelled, then the review step.",
  context: ({ input }) => ({
    courierId: input.courierId,
    pharmacyId: input.pharmacyId,
    visitId: input.visitId,
    orders: input.orders,
    search: "",
    visit: null,
    error: null,
    next: null,
    unknownLabel: null,
    cameraProblem: null,
  }),
  invoke: { id: "followDay", src: "followDay", input: ({ context }) => ({ orders: context.orders }) },
  on: {
    ORDERS_CHANGED: { actions: "setOrders", description: "The day's orders changed: an order was verified, cancelled or added on, or the day refreshed." },
  },
  initial: "checkingIn",
  states: {
    checkingIn: {
      description: "Tap check-in to pick up or cancel order(s): one row per order, sorted by patient last name.",
      on: {
        SEARCH: { actions: "setSearch", description: "Search... by recipient description." },
        CONTINUE: {
          guard: "canContinue",
          target: "confirmingOrders",
          description: "Continue (all-orders-verified): enabled only when every listed order is picked_up or cancelled.",
        },
        SCAN: { target: "scanning", description: "Scan: read a bag's label with the rear camera." },
      },
    },
    scanning: {
      description: "The camera reads bag labels above the list; the search box and the list stay.",
      entry: "clearScan",
      exit: "clearScan",
      on: {
        SEARCH: { actions: "setSearch", description: "Search... by recipient description, as without the camera." },
        CLOSE_SCANNER: { target: "checkingIn", description: "Stop scanning: the camera closes." },
        CONTINUE: {
          guard: "canContinue",
          target: "confirmingOrders",
          description: "Continue while the camera is open: it closes.",
        },
      },
      initial: "camera",
      states: {
        camera: {
          invoke: { id: "labelScanner", src: "labelScanner" },
          on: {
            CAMERA_FAILED: { target: "unavailable", actions: "noteCameraProblem", description: "No camera, permission refused, or it would not start." },
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
                  {
                    guard: "labelIsListed",
                    target: "#checkIn.checkingIn",
                    actions: "openScannedOrder",
                    description: "A listed order's label: its verify screen opens.",
                  },
                  { actions: "noteUnknownLabel", description: "'No order here has the label {code}.' and the scanning goes on." },
                ],
              },
            },
          },
        },
        unavailable: {
          description: "A clear message why; the typed search box as before.",
          on: { SCAN: { target: "camera", actions: "clearScan", description: "Try the camera again." } },
        },
      },
    },
    confirmingOrders: {
      description: "confirm_orders: the verified orders and the cancelled orders.",
      on: { BACK: { target: "checkingIn", description: "Back to the check-in list." } },
      initial: "routing",
      states: {
        routing: {
          always: [
            { guard: "hasVisit", target: "recordingArrival", description: "Call arrived_at_pharmacy for this pharmacy's visit." },
            { target: "arrived", description: "No visit at this pharmacy to record." },
          ],
        },
        recordingArrival: {
          description: "PUT arrived_at_pharmacy for this pharmacy's visit.",
          entry: "clearError",
          invoke: {
            id: "markArrived",
            src: "markArrived",
            input: ({ context }) => ({ courierId: context.courierId, visitId: context.visitId! }),
            onDone: {
              target: "arrived",
              actions: [
                { type: "storeVisit", params: ({ event }) => event.output },
                { type: "reportVisit", params: ({ event }) => event.output },
              ],
            },
            onError: {
              target: "arrivalFailed",
              actions: { type: "showFailure", params: ({ event }: { event: { error: unknown } }) => event.error },
            },
          },
        },
        arrived: {
          description: "'Start order deliveries', or 'Continue' (goes home) if only cancelled orders exist.",
          on: {
            START_DELIVERIES: { guard: "hasVerifiedOrders", target: "#checkIn.deliveries", actions: "goToDeliveries", description: "Start order deliveries" },
            GO_HOME: { guard: "onlyCancelled", target: "#checkIn.home", actions: "goHome", description: "Continue: only cancelled orders, back home." },
          },
        },
        arrivalFailed: {
          description: "The arrival was not recorded: the alert says why; try again or carry on.",
          on: {
            RETRY_ARRIVAL: { target: "recordingArrival", description: "Try recording the arrival again." },
            START_DELIVERIES: { guard: "hasVerifiedOrders", target: "#checkIn.deliveries", actions: "goToDeliveries", description: "Start order deliveries" },
            GO_HOME: { guard: "onlyCancelled", target: "#checkIn.home", actions: "goHome", description: "Continue: only cancelled orders, back home." },
          },
        },
      },
    },
    deliveries: { type: "final", description: "On to the delivery list of this pharmacy." },
    home: { type: "final", description: "Only cancelled orders: back home." },
  },
  output: ({ context }) => ({ next: context.next ?? "deliveries", visit: context.visit }),
});
