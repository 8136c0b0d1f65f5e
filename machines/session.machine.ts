import { createSessionMachine } from "./session.definition.ts";

export * from "./session.definition.ts";

/**
 * The session with stand-ins for what the app provides: its tests', the
 * visualizer's and the /machines page's. The app builds its own once with its
 * adapters (createSessionMachine, from ./session.definition.ts) and never loads this module,
 * so it does not build this one too.
 */
export const sessionMachine = createSessionMachine();
