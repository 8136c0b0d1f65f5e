import { createPaymentMachine } from "./payment.definition.ts";

export * from "./payment.definition.ts";

/**
 * The payment step with stand-ins for what the app provides: its tests', the
 * visualizer's and the /machines page's. The app builds its own once with its
 * adapters (createPaymentMachine, from ./payment.definition.ts) and never loads
 * this module, so it does not build this one too.
 */
export const paymentMachine = createPaymentMachine();
