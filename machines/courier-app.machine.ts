import { and, fromCallback, not, sendTo, setup, stateIn, type SnapshotFrom } from "xstate";
import { courierDayMachine } from "./courier-day.machine.ts";
import { offlineQueueMachine } from "./offline-queue.machine.ts";
import { sessionMachine } from "./session.machine.ts";
import { SYSTEM_IDS } from "./system-ids.ts";

/**
 * The application: one actor system for the courier's day. It starts the
 * session and the offline queue with the app, and the courier's day once
 * someone is logged in, each under a system id, so a flow (check-in, verify,
 * add-ons, delivery, returns — started when the courier opens its screen, in
 * this system) reports its outcome to the day and hands a call that failed on
 * the network to the queue by id: sendTo(({ system }) => system.get(…)).
 *
 * Storage, HTTP and the browser are actors the app provides.
 */

export { SYSTEM_IDS };

export interface CourierAppInput {
  /** The courier's calendar day on this device, YYYY-MM-DD (stored offline orders expire at its end). */
  today: string;
}

type SessionSnapshot = SnapshotFrom<typeof sessionMachine>;

export type CourierAppEvent =
  /** The session's every change (its invoke has onSnapshot): the day lives while someone is logged in. */
  | { type: "xstate.snapshot.session"; snapshot: Pick<SessionSnapshot, "value"> }
  /** The browser came back online (spec: resubmission starts by itself). */
  | { type: "BROWSER_ONLINE"; today: string };

/** Logged in, or logging out (the day stays on screen until the server has answered). */
const sessionOpen = (snapshot: Pick<SessionSnapshot, "value">) => snapshot.value === "loggedIn" || snapshot.value === "loggingOut";

export const courierAppMachine = setup({
  types: {
    context: {} as CourierAppInput,
    events: {} as CourierAppEvent,
    input: {} as CourierAppInput,
    children: {} as { session: "session"; offlineQueue: "offlineQueue"; courierDay: "courierDay"; browserOnline: "browserOnline" },
  },
  actors: {
    session: sessionMachine,
    courierDay: courierDayMachine,
    offlineQueue: offlineQueueMachine,
    /** Sends BROWSER_ONLINE each time the browser's "online" event fires. */
    browserOnline: fromCallback(() => {
      throw new Error("provide browserOnline");
    }),
  },
  guards: {
    sessionOpen: ({ event }) => event.type === "xstate.snapshot.session" && sessionOpen(event.snapshot),
    sessionClosed: ({ event }) => event.type === "xstate.snapshot.session" && !sessionOpen(event.snapshot),
  },
  actions: {
    resubmitOffline: sendTo(SYSTEM_IDS.offlineQueue, (_, today: string) => ({ type: "ONLINE" as const, today })),
  },
}).createMachine({
  id: "courierApp",
  description: "The app: the session and the offline queue from the start, the courier's day while logged in, and the flows the courier opens.",
  context: ({ input }) => ({ today: input.today }),
  invoke: [
    {
      id: "session",
      systemId: SYSTEM_IDS.session,
      src: "session",
      // Every session change comes here as xstate.snapshot.session: the day lives while a session is open.
      onSnapshot: [
        // Guarded on where the app is too: a change that keeps the session open must not start the day again.
        {
          guard: and(["sessionOpen", not(stateIn("#courierApp.signedIn"))]),
          target: ".signedIn",
          description: "The session opened (logged in).",
        },
        {
          guard: and(["sessionClosed", not(stateIn("#courierApp.signedOut"))]),
          target: ".signedOut",
          description: "The session closed: logged out, or it expired.",
        },
      ],
    },
    { id: "offlineQueue", systemId: SYSTEM_IDS.offlineQueue, src: "offlineQueue", input: ({ context }) => ({ today: context.today }) },
    { id: "browserOnline", src: "browserOnline" },
  ],
  on: {
    BROWSER_ONLINE: {
      description: "The browser came back online: the queue resubmits by itself.",
      actions: { type: "resubmitOffline", params: ({ event }) => event.today },
    },
  },
  initial: "signedOut",
  states: {
    signedOut: {
      description: "Nobody logged in (or not known yet): the login screen; stored offline orders wait on the device.",
    },
    signedIn: {
      description: "A courier's day: loaded, kept on the device, told what every flow did.",
      invoke: { id: "courierDay", systemId: SYSTEM_IDS.courierDay, src: "courierDay" },
    },
  },
});
