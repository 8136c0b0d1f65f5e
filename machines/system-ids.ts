/**
 * Who is who in the application's actor system (machines/courier-app.machine.ts):
 * the ids a flow sends its outcome and its stored calls to, with
 * sendTo(({ system }) => system.get(SYSTEM_IDS.…)). A file of its own so a flow
 * need not import the application (nor the application a flow: flows load on demand).
 */
export const SYSTEM_IDS = {
  session: "session",
  courierDay: "courierDay",
  offlineQueue: "offlineQueue",
} as const;
