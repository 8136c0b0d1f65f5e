import { assign, emit, fromPromise, sendTo, setup } from "xstate";
import { failureText, toApiFailure } from "../domain/api-failure.ts";
import type { Order, PharmacyVisit } from "../domain/contract/entities.ts";
import { createLabelScannerMachine, type LabelMatched } from "./label-scanner.definition.ts";
import { canContinueCheckIn, checkInList, onlyCancelledOrders, reviewLists } from "../domain/pharmacy-progress.ts";
import type { DayChanged, FollowEvent } from "./following.ts";
import { SYSTEM_IDS } from "./system-ids.ts";

/**
 * The check-in gate at one pharmacy (spec §2 check-in screen and
 * confirm_orders, §4 check-in list): the courier checks in every order
 * (verify or cancel, in the verify-order machine), Continue opens the review
 * step, which records the arrival at the pharmacy's visit. 'Scan' reads a
 * bag's label with the camera (the label-scanner machine, invoked while
 * scanning): a label of a listed order opens its verify screen (the emitted
 * `orderScanned`); the scanner names any other label and goes on.
 *
 * The machine follows the courier's day: it asks the day (FOLLOW) to tell
 * it the orders each time they change — an order verified, cancelled or
 * added on, or a refresh — as DAY_CHANGED while it runs.
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
}

export type CheckInEvent =
  | { type: "SEARCH"; query: string }
  | DayChanged
  | { type: "CONTINUE" }
  | { type: "BACK" }
  | { type: "RETRY_ARRIVAL" }
  | { type: "START_DELIVERIES" }
  | { type: "GO_HOME" }
  | { type: "SCAN" }
  | LabelMatched;

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

/** What the app (or a test) provides, as stand-ins that fail until it does. */
const checkInCalls = {
  /** PUT couriers/{id}/pharmacy_visits/{visitId}/arrived_at_pharmacy */
  markArrived: fromPromise<PharmacyVisit, { courierId: number; visitId: number }>(async () => {
    throw new Error("provide markArrived");
  }),
};
export type CheckInCalls = typeof checkInCalls & { labelScanner: ReturnType<typeof createLabelScannerMachine> };

/** The machine with these calls, built once by whoever runs it (the app with its own; see session.definition.ts). */
export const createCheckInMachine = ({ labelScanner, ...calls }: Partial<CheckInCalls> = {}) =>
  setup({
    types: {
      context: {} as CheckInContext,
      events: {} as CheckInEvent,
      input: {} as CheckInInput,
      output: {} as CheckInOutput,
      emitted: {} as OrderScanned,
    },
    actors: {
      /** The camera reading bag labels while the courier scans: the app provides its camera. */
      labelScanner: labelScanner ?? createLabelScannerMachine(),
      ...checkInCalls,
      ...calls,
    },
    guards: {
      /** Spec §4: Continue is enabled only when every listed order is picked_up or cancelled. */
      canContinue: ({ context }) => canContinueCheckIn(context.orders, context.pharmacyId),
      hasVisit: ({ context }) => context.visitId !== null,
      /** 'Start order deliveries': there are verified orders to deliver. */
      hasVerifiedOrders: ({ context }) => reviewLists(context.orders, context.pharmacyId).verified.length > 0,
      /** 'Continue' (goes home) if only cancelled orders exist. */
      onlyCancelled: ({ context }) => onlyCancelledOrders(context.orders, context.pharmacyId),
    },
    actions: {
      setSearch: assign(({ event }) => (event.type === "SEARCH" ? { search: event.query } : {})),
      setOrders: assign(({ event }) => (event.type === "DAY_CHANGED" ? { orders: event.orders } : {})),
      /** The day tells this check-in of every change to its orders, from now until the check-in ends. */
      followDay: sendTo(({ system }) => system.get(SYSTEM_IDS.courierDay), ({ self }): FollowEvent => ({ type: "FOLLOW", follower: self })),
      unfollowDay: sendTo(({ system }) => system.get(SYSTEM_IDS.courierDay), ({ self }): FollowEvent => ({ type: "UNFOLLOW", follower: self })),
      /** The scanner reads the labels of the orders listed now. */
      tellScannerOrders: sendTo("labelScanner", ({ context }) => ({ type: "BAGS_CHANGED" as const, bags: checkInList(context.orders, context.pharmacyId) })),
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
      openScannedOrder: emit(({ event }) => ({ type: "orderScanned" as const, orderId: event.type === "LABEL_MATCHED" ? event.orderId : -1 })),
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
    }),
    entry: "followDay",
    exit: "unfollowDay",
    on: {
      DAY_CHANGED: { actions: "setOrders", description: "The day's orders changed: an order was verified, cancelled or added on, or the day refreshed." },
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
        invoke: {
          id: "labelScanner",
          src: "labelScanner",
          input: ({ context, self }) => ({ bags: checkInList(context.orders, context.pharmacyId), reportTo: self }),
          onDone: { target: "checkingIn", description: "Stop scanning: the camera closes." },
        },
        on: {
          SEARCH: { actions: "setSearch", description: "Search... by recipient description, as without the camera." },
          DAY_CHANGED: {
            actions: ["setOrders", "tellScannerOrders"],
            description: "The day's orders changed while scanning: the list, and the labels the camera looks for, follow.",
          },
          LABEL_MATCHED: { target: "checkingIn", actions: "openScannedOrder", description: "A listed order's label: its verify screen opens." },
          CONTINUE: {
            guard: "canContinue",
            target: "confirmingOrders",
            description: "Continue while the camera is open: it closes.",
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
