import { assign, fromPromise, setup, type AnyActorRef } from "xstate";
import { failureText, toApiFailure } from "../domain/api-failure.ts";
import type { ItineraryResponse, Order, PharmacyVisit } from "../domain/contract/index.ts";
import { mergeById } from "../domain/merge-by-id.ts";
import { followersAfter, tell, type FollowEvent } from "./following.ts";

/**
 * The courier's day as this device knows it: visits, pharmacies and orders.
 * Screens read it; flows report what they changed so every screen agrees
 * without a round trip, and the flows that follow it (FOLLOW: check-in,
 * returns) are told its orders each time they change (DAY_CHANGED).
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
  /** The flows to tell when the orders change, from their FOLLOW until their UNFOLLOW. */
  followers: AnyActorRef[];
}

export type CourierDayEvent =
  | { type: "REFRESH" }
  | { type: "ORDERS_CHANGED"; orders: Order[] }
  /**
   * A delivery flow recorded its outcome (delivered, or attempted): its order and
   * those grouped with it as the domain's delivery-outcome rule leaves them.
   */
  | { type: "DELIVERY_RECORDED"; orders: Order[] }
  | { type: "VISITS_CHANGED"; visits: PharmacyVisit[] }
  | FollowEvent;

/** Loading and keeping the day, as stand-ins that fail until the app (or a test) provides its own. */
const dayCalls = {
  loadDay: fromPromise<DayLoad>(async () => {
    throw new Error("provide loadDay");
  }),
  saveDay: fromPromise<void, { day: ItineraryResponse }>(async () => {
    throw new Error("provide saveDay");
  }),
};
export type CourierDayCalls = typeof dayCalls;

/** The day's machine with these calls, built once by whoever runs it (the app with its own; see session.definition.ts). */
export const createCourierDayMachine = (calls: Partial<CourierDayCalls> = {}) =>
  setup({
    types: { context: {} as CourierDayContext, events: {} as CourierDayEvent },
    actors: { ...dayCalls, ...calls },
    actions: {
      storeDay: assign((_, load: DayLoad) => ({ day: load.itinerary, source: load.source, error: null })),
      storeError: assign((_, error: unknown) => ({ error: failureText(toApiFailure(error)) })),
      mergeOrders: assign(({ context }, orders: Order[]) => ({
        day: context.day ? { ...context.day, orders: mergeById(context.day.orders, orders) } : null,
      })),
      updateFollowers: assign(({ context, event }) => ({ followers: followersAfter(context.followers, event as FollowEvent) })),
      /** After the orders changed, to every follower; after a FOLLOW, to the new one (the day may have moved on since the flow's input was read). */
      tellFollowers: ({ context, event }) => {
        if (context.day) tell(context.followers, event, { type: "DAY_CHANGED", orders: context.day.orders });
      },
      mergeVisits: assign(({ context }, visits: PharmacyVisit[]) => ({
        day: context.day ? { ...context.day, pharmacy_visits: mergeById(context.day.pharmacy_visits, visits) } : null,
      })),
    },
    guards: {
      hasDay: ({ context }) => context.day !== null,
      loadedFromServer: (_, load: DayLoad) => load.source === "server",
    },
  }).createMachine({
    id: "courierDay",
    description: "The courier's day: pharmacy visits and orders, kept on the device.",
    context: { day: null, source: null, error: null, followers: [] },
    on: {
      FOLLOW: { actions: ["updateFollowers", "tellFollowers"], description: "A flow (check-in, returns) follows the orders." },
      UNFOLLOW: { actions: "updateFollowers" },
    },
    initial: "loading",
    states: {
      loading: {
        description: "Loading the day (the device's copy when offline).",
        invoke: {
          id: "loadDay",
          src: "loadDay",
          onDone: [
            {
              guard: { type: "loadedFromServer", params: ({ event }) => event.output },
              target: "ready.saving",
              actions: [{ type: "storeDay", params: ({ event }) => event.output }, "tellFollowers"],
              description: "A fresh day from the server is kept on the device for a reload without network.",
            },
            { target: "ready", actions: [{ type: "storeDay", params: ({ event }) => event.output }, "tellFollowers"] },
          ],
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
            actions: [{ type: "mergeOrders", params: ({ event }) => event.orders }, "tellFollowers"],
            description: "A flow changed orders (verified, cancelled, added on, returned).",
          },
          DELIVERY_RECORDED: {
            target: ".saving",
            actions: [{ type: "mergeOrders", params: ({ event }) => event.orders }, "tellFollowers"],
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
