import type { ActorRefFrom } from "xstate";
import type { courierDayMachine } from "./courier-day.machine.ts";
import type { offlineQueueMachine } from "./offline-queue.machine.ts";

/**
 * Who is who in the application's actor system (machines/courier-app.machine.ts):
 * the ids a flow sends its outcome, its stored calls and its FOLLOW to, with
 * sendTo(({ system }) => system.get(SYSTEM_IDS.…)). A file of its own so a
 * flow need not import the application (nor the application a flow: flows
 * load on demand).
 */
export const SYSTEM_IDS = {
  session: "session",
  courierDay: "courierDay",
  offlineQueue: "offlineQueue",
} as const;

/**
 * Who is who in the dispatch console's actor system (machines/console.machine.ts):
 * the session, which a screen's machine tells when one of its calls answered
 * 401 (machines/console-session-ended.ts), by this id.
 */
export const CONSOLE_SYSTEM_IDS = {
  session: "consoleSession",
} as const;

/** The actors under those ids, for the app and the tests (types only: nothing of the day or the queue is bundled with a flow). */
export type CourierDayRef = ActorRefFrom<typeof courierDayMachine>;
export type OfflineQueueRef = ActorRefFrom<typeof offlineQueueMachine>;
