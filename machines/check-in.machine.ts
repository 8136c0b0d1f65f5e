import { createCheckInMachine } from "./check-in.definition.ts";

export * from "./check-in.definition.ts";

/**
 * The check-in flow with stand-ins for what the app provides: its tests', the
 * visualizer's and the /machines page's. The app builds its own once with its
 * adapters (createCheckInMachine, from ./check-in.definition.ts) and never loads
 * this module, so it does not build this one too.
 */
export const checkInMachine = createCheckInMachine();
