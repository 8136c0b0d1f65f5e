import { assign } from "xstate";
import type { CourierAppEvent, CourierAppInput, StartFlow } from "../../machines/courier-app.definition.ts";
import type { FlowBuilders, FlowLoaders, FlowMachines, FlowName, FlowStart } from "../../machines/flows.ts";

/**
 * The app's registry of flows (machines/flows.ts names them): each entry loads
 * the flow's logic — its machine with the app's adapters — with the flow's
 * screen, so the first screen's JavaScript carries none of them. The router
 * loads a screen's flows with the screen (loadFlows), and the application
 * machine starts them by name (startFlow, FLOW.START): nothing but a name, an
 * id and the flow's input travels in an event.
 *
 * Imported by the app's root (App.tsx, router.tsx) only: the features it loads
 * import the shell below them (src/shell/), never src/app/.
 */
export const FLOW_LOADERS: FlowLoaders = {
  // The screens' own modules (the router's chunks), so a flow is in its screen's chunk and nowhere else.
  checkIn: () => import("../features/pickup/PickupRoutes.tsx").then((module) => module.appCheckInMachine),
  verifyOrder: () => import("../features/pickup/PickupRoutes.tsx").then((module) => module.appVerifyOrderMachine),
  addons: () => import("../features/pickup/PickupRoutes.tsx").then((module) => module.appAddonsMachine),
  deliveryFlow: () => import("../features/delivery/DeliveryRoutes.tsx").then((module) => module.appDeliveryFlowMachine),
  returns: () => import("../features/returns/ReturnsRoute.tsx").then((module) => module.appReturnsMachine),
};

const loaded: Partial<FlowBuilders> = {};
const built: Partial<FlowMachines> = {};

/** Loads these flows' logic (once); a screen that runs them renders after this. */
export async function loadFlows(...flows: FlowName[]): Promise<void> {
  await Promise.all(flows.map(async (flow) => loadOne(flow)));
}

async function loadOne<F extends FlowName>(flow: F): Promise<void> {
  loaded[flow] ??= await FLOW_LOADERS[flow]();
}

/**
 * Builds the flow a screen opens with, once its logic is loaded, so that opening
 * it (in the commit that mounts the screen) only starts it: the router calls it
 * in a task of its own, between the screen's chunk and its first render (issue 29).
 */
export function buildFlow(flow: FlowName): void {
  loadedFlow(flow);
}

/** The flow's machine, built the first time the flow starts or its screen is about to open (the check-in screen never builds verify's or add-ons'). */
function loadedFlow<F extends FlowName>(flow: F): FlowMachines[F] {
  const build = loaded[flow];
  if (!build) throw new Error(`The ${flow} flow was started before its screen loaded it (loadFlows).`);
  return (built[flow] ??= build());
}

/**
 * The application machine's startFlow: the named flow, from the registry, as
 * a child with its input, registered in the application's system under the
 * opening's id (how its screen finds it: system.get(id)).
 */
export const startFlow: StartFlow = assign<CourierAppInput, CourierAppEvent, FlowStart, CourierAppEvent, never>(({ spawn, self }, start) => {
  // One flow per id: React's strict mode runs the screen's effect twice.
  if (self.system.get(start.id)) return {};
  const options = { systemId: start.id };
  switch (start.flow) {
    case "checkIn":
      spawn(loadedFlow("checkIn"), { ...options, input: start.input });
      break;
    case "verifyOrder":
      spawn(loadedFlow("verifyOrder"), { ...options, input: start.input });
      break;
    case "addons":
      spawn(loadedFlow("addons"), { ...options, input: start.input });
      break;
    case "deliveryFlow":
      spawn(loadedFlow("deliveryFlow"), { ...options, input: start.input });
      break;
    case "returns":
      spawn(loadedFlow("returns"), { ...options, input: start.input });
      break;
  }
  return {};
});
