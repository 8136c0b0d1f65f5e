import { fromPromise, sendTo, setup, stopChild, type ActionArgs } from "xstate";
import { createCourierDayMachine } from "./courier-day.definition.ts";
import type { FlowName, FlowStart } from "./flows.ts";
import { createOfflineQueueMachine } from "./offline-queue.definition.ts";
import { createSessionMachine, type SessionNews } from "./session.definition.ts";
import { SYSTEM_IDS } from "./system-ids.ts";

/**
 * The application: one actor system for the courier's day. It starts the
 * session and the offline queue with the app, and the courier's day once
 * someone is logged in (the session tells it: SESSION_OPENED, SESSION_CLOSED),
 * each under a system id; the queue reads the device's storage only once it
 * is told a session opened (not on the login screen). It spawns a flow (check-in,
 * verify, add-ons, delivery, returns) as its child when the courier opens the
 * flow's screen, so the flow reports its outcome to the day and hands a call
 * that failed on the network to the queue by id: sendTo(({ system }) => system.get(…)).
 *
 * A flow is started by name with its input (FLOW.START: data only, ./flows.ts
 * names the flows and their inputs). Its logic loads with its screen, so the
 * app provides startFlow from its registry of flows (src/app/flows.ts); a flow
 * resumed after a reload starts from its input (the delivery's draft). A flow
 * is not stopped when its screen goes — a submission under way still ends in
 * the day and, on a network failure, in the queue — only once it is done.
 *
 * Storage, HTTP and the browser are actors the app provides.
 */

export { SYSTEM_IDS };

export type { FlowName, FlowStart };

export interface CourierAppInput {
  /** The courier's calendar day on this device, YYYY-MM-DD (stored offline orders expire at its end). */
  today: string;
}

export type CourierAppEvent =
  /** The session opened (logged in, or found logged in after a reload) or closed (logged out, expired): the day lives while it is open. */
  | SessionNews
  /** The browser came back online (spec: resubmission starts by itself); resolves with the device's day. */
  | { type: "xstate.done.actor.browserOnline"; output: string }
  /** The courier opened a flow's screen: the flow of that name runs as child `id`, from its input. */
  | ({ type: "FLOW.START" } & FlowStart)
  /** A flow reached its final state. */
  | { type: `xstate.done.actor.${string}`; output?: unknown };

/** The application's children: the session, the day and the queue (the app's, with its adapters) and the browser's "online" event. */
export interface CourierAppActors {
  session: ReturnType<typeof createSessionMachine>;
  courierDay: ReturnType<typeof createCourierDayMachine>;
  offlineQueue: ReturnType<typeof createOfflineQueueMachine>;
  /** Resolves with the device's day (YYYY-MM-DD) the next time the browser's "online" event fires. */
  browserOnline: ReturnType<typeof fromPromise<string>>;
}

/**
 * Starts the named flow as child `id` with its input; once per id (React's strict mode opens a screen twice).
 * The app provides it: a flow's logic loads with its screen, from the app's registry (src/app/flows.ts).
 */
export type StartFlow = (args: ActionArgs<CourierAppInput, CourierAppEvent, CourierAppEvent>, start: FlowStart) => void;

const startFlowStandIn: StartFlow = () => {
  throw new Error("provide startFlow");
};

/**
 * The application machine with these children and startFlow, built once by
 * whoever runs it: the app builds it with its own when it starts (see
 * session.definition.ts); what is not given is a stand-in (the machines alone).
 */
export const createCourierAppMachine = ({ actors = {}, startFlow = startFlowStandIn }: { actors?: Partial<CourierAppActors>; startFlow?: StartFlow } = {}) =>
  setup({
    types: {
      context: {} as CourierAppInput,
      events: {} as CourierAppEvent,
      input: {} as CourierAppInput,
    },
    actors: {
      session: actors.session ?? createSessionMachine(),
      courierDay: actors.courierDay ?? createCourierDayMachine(),
      offlineQueue: actors.offlineQueue ?? createOfflineQueueMachine(),
      browserOnline:
        actors.browserOnline ??
        fromPromise<string>(async () => {
          throw new Error("provide browserOnline");
        }),
    },
    actions: {
      startFlow,
      /** A finished flow leaves the system (its screen keeps the final snapshot it shows). */
      removeFlow: stopChild(({ event }) => event.type.slice("xstate.done.actor.".length)),
      resubmitOffline: sendTo(SYSTEM_IDS.offlineQueue, (_, today: string) => ({ type: "ONLINE" as const, today })),
      /** The queue reads the device's storage from now on (it ignores this once it has). */
      openOfflineStorage: sendTo(SYSTEM_IDS.offlineQueue, { type: "SESSION_OPENED" as const }),
    },
  }).createMachine({
    id: "courierApp",
    description: "The app's actor system.",
    context: ({ input }) => ({ today: input.today }),
    invoke: [
      {
        id: "session",
        systemId: SYSTEM_IDS.session,
        src: "session",
        // The session tells the app when it opens and closes (SESSION_OPENED, SESSION_CLOSED); the app never reads its state.
        input: ({ self }) => ({ reportTo: self }),
      },
      { id: "offlineQueue", systemId: SYSTEM_IDS.offlineQueue, src: "offlineQueue", input: ({ context }) => ({ today: context.today }) },
    ],
    on: {
      "FLOW.START": {
        description: "The courier opened a flow's screen: the flow runs, from its input.",
        actions: { type: "startFlow", params: ({ event }) => event },
      },
      // Only a flow is ever done here: the session, the day and the queue run for good, and browserOnline's done is its state's own.
      "xstate.done.actor.*": { description: "A flow is done.", actions: "removeFlow" },
    },
    type: "parallel",
    states: {
      network: {
        initial: "watching",
        states: {
          watching: {
            invoke: {
              id: "browserOnline",
              src: "browserOnline",
              onDone: {
                target: "watching",
                reenter: true,
                description: "Back online: the queue resubmits; watch again.",
                actions: { type: "resubmitOffline", params: ({ event }) => event.output },
              },
            },
          },
        },
      },
      session: {
        initial: "signedOut",
        states: {
          signedOut: {
            description: "Nobody logged in (yet).",
            on: { SESSION_OPENED: { target: "signedIn", description: "Logged in, or found logged in after a reload." } },
          },
          signedIn: {
            description:
              "The courier's day runs (while logging out too: the day stays on screen until the server has answered); the offline queue reads the device.",
            entry: "openOfflineStorage",
            invoke: { id: "courierDay", systemId: SYSTEM_IDS.courierDay, src: "courierDay" },
            on: { SESSION_CLOSED: { target: "signedOut", description: "Logged out, or the session expired." } },
          },
        },
      },
    },
  });
