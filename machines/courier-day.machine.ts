import { assign, fromPromise, setup } from "xstate";
import { failureText, toApiFailure } from "../domain/api-failure.ts";
import type { ItineraryResponse, Order, PharmacyVisit } from "../domain/contract/index.ts";
import { mergeById } from "../domain/merge-by-id.ts";

/**
 * The courier's day as this device knows it: visits, pharmacies and orders.
 * Screens read it; flows report what they changed so every screen agrees
 * without a round trip.
 */
export interface DayLoad {
  itinerary: ItineraryResponse;
  /** "device" when the network failed and the last copy saved on the phone was used. */
  source: "server" | "device";
}

export interface CourierDayContext {
  day: ItineraryResponse | null;
  source: "server" | "device" | null;
  error: string | null;
}

export type CourierDayEvent =
  | { type: "REFRESH" }
  | { type: "ORDERS_CHANGED"; orders: Order[] }
  /**
   * A delivery flow recorded its outcome (delivered, or attempted): its order and
   * those grouped with it as the domain's delivery-outcome rule leaves them.
   */
  | { type: "DELIVERY_RECORDED"; orders: Order[] }
  | { type: "VISITS_CHANGED"; visits: PharmacyVisit[] };

export const courierDayMachine = setup({
  types: { context: {} as CourierDayContext, events: {} as CourierDayEvent },
  actors: {
    loadDay: fromPromise<DayLoad>(async () => {
      throw new Error("provide loadDay");
    }),
    saveDay: fromPromise<void, { day: ItineraryResponse }>(async () => {
      throw new Error("provide saveDay");
    }),
  },
  actions: {
    storeDay: assign((_, load: DayLoad) => ({ day: load.itinerary, source: load.source, error: null })),
    storeError: assign((_, error: unknown) => ({ error: failureText(toApiFailure(error)) })),
    mergeOrders: assign(({ context }, orders: Order[]) => ({
      day: context.day ? { ...context.day, orders: mergeById(context.day.orders, orders) } : null,
    })),
    mergeVisits: assign(({ context }, visits: PharmacyVisit[]) => ({
      day: context.day ? { ...context.day, pharmacy_visits: mergeById(context.day.pharmacy_visits, visits) } : null,
    })),
  },
  guards: {
    hasDay: ({ context }) => context.day !== null,
  },
}).createMachine({
  id: "courierDay",
  description: "The courier's day: pharmacy visits and orders, kept on the device.",
  context: { day: null, source: null, error: null },
  initial: "loading",
  states: {
    loading: {
      description: "Loading the day (the device's copy when offline).",
      invoke: {
        id: "loadDay",
        src: "loadDay",
        onDone: { target: "ready", actions: { type: "storeDay", params: ({ event }) => event.output } },
        onError: [
          { guard: "hasDay", target: "ready", actions: { type: "storeError", params: ({ event }: { event: { error: unknown } }) => event.error } },
          { target: "failed", actions: { type: "storeError", params: ({ event }: { event: { error: unknown } }) => event.error } },
        ],
      },
    },
    ready: {
      description: "The day is on screen.",
      initial: "idle",
      states: {
        idle: {},
        saving: {
          description: "Saving the day on the device, for a reload without network.",
          invoke: { id: "saveDay", src: "saveDay", input: ({ context }) => ({ day: context.day! }), onDone: "idle", onError: "idle" },
        },
      },
      on: {
        REFRESH: { target: "loading", description: "The navigation bar's refresh." },
        ORDERS_CHANGED: {
          target: ".saving",
          actions: { type: "mergeOrders", params: ({ event }) => event.orders },
          description: "A flow changed orders (verified, cancelled, added on, returned).",
        },
        DELIVERY_RECORDED: {
          target: ".saving",
          actions: { type: "mergeOrders", params: ({ event }) => event.orders },
          description: "A delivery was recorded (delivered, or attempted): its orders show it.",
        },
        VISITS_CHANGED: {
          target: ".saving",
          actions: { type: "mergeVisits", params: ({ event }) => event.visits },
          description: "Visits were confirmed or arrived at.",
        },
      },
    },
    failed: {
      description: "Nothing to show yet: the error and a way to try again.",
      on: { REFRESH: { target: "loading" } },
    },
  },
});
