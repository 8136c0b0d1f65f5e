import type { InputFrom } from "xstate";
import type { addonsMachine } from "./addons.machine.ts";
import type { checkInMachine } from "./check-in.machine.ts";
import type { deliveryFlowMachine } from "./delivery-flow.machine.ts";
import type { returnsMachine } from "./returns.machine.ts";
import type { verifyOrderMachine } from "./verify-order.machine.ts";

/**
 * The flows the application starts (machines/courier-app.machine.ts), by
 * name: each one's machine and the input it starts from. Types only — a
 * flow's logic loads with its screen (the app's registry, src/app/flows.ts),
 * so none of it is in the first screen's JavaScript.
 */
export interface FlowMachines {
  checkIn: typeof checkInMachine;
  verifyOrder: typeof verifyOrderMachine;
  addons: typeof addonsMachine;
  deliveryFlow: typeof deliveryFlowMachine;
  returns: typeof returnsMachine;
}

export type FlowName = keyof FlowMachines;

/** What starts one flow: its name, the id it runs under in the application, and its input. */
export type FlowStart = { [F in FlowName]: { flow: F; id: string; input: InputFrom<FlowMachines[F]> } }[FlowName];

/**
 * The app's registry: each flow's logic (its machine with the app's adapters), loaded on demand
 * with its screen's code, and built when the flow first starts (a screen's chunk may carry the
 * flows of the screens after it: check-in's carries verify's and add-ons').
 */
export type FlowLoaders = { [F in FlowName]: () => Promise<FlowBuilders[F]> };

/** Each flow's machine with the app's adapters, built when called. */
export type FlowBuilders = { [F in FlowName]: () => FlowMachines[F] };
