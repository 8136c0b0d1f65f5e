import { createDeliverySubmitMachine } from "./delivery-submit.definition.ts";

export * from "./delivery-submit.definition.ts";

/**
 * The submit call with stand-ins for what the app provides: its tests', the
 * visualizer's and the /machines page's. The app builds its own once with its
 * adapters (createDeliverySubmitMachine, from ./delivery-submit.definition.ts) and never loads
 * this module, so it does not build this one too.
 */
export const deliverySubmitMachine = createDeliverySubmitMachine();
