import { createOrderLifecycleMachine } from "./order-lifecycle.definition.ts";

export * from "./order-lifecycle.definition.ts";

/**
 * The order lifecycle, built when this module loads: the server's, the tests', the
 * visualizer's and the /machines page's. The app's screens compute statuses through
 * ./order-status.ts, which builds it on first use instead.
 */
export const orderLifecycleMachine = createOrderLifecycleMachine();
