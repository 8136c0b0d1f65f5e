import { createVerifyOrderMachine } from "./verify-order.definition.ts";

export * from "./verify-order.definition.ts";

/**
 * The verify flow with stand-ins for what the app provides: its tests', the
 * visualizer's and the /machines page's. The app builds its own once with its
 * adapters (createVerifyOrderMachine, from ./verify-order.definition.ts) and never loads
 * this module, so it does not build this one too.
 */
export const verifyOrderMachine = createVerifyOrderMachine();
