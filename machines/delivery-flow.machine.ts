import { createDeliveryFlowMachine } from "./delivery-flow.definition.ts";

export * from "./delivery-flow.definition.ts";

/**
 * The delivery flow with stand-ins for what the app provides: its tests', the
 * visualizer's and the /machines page's. The app builds its own once with its
 * adapters (createDeliveryFlowMachine, from ./delivery-flow.definition.ts) and never loads
 * this module, so it does not build this one too.
 */
export const deliveryFlowMachine = createDeliveryFlowMachine();
