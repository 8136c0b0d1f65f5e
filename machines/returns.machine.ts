import { createReturnsMachine } from "./returns.definition.ts";

export * from "./returns.definition.ts";

/**
 * The returns flow with stand-ins for what the app provides: its tests', the
 * visualizer's and the /machines page's. The app builds its own once with its
 * adapters (createReturnsMachine, from ./returns.definition.ts) and never loads
 * this module, so it does not build this one too.
 */
export const returnsMachine = createReturnsMachine();
