import { useContext, useState } from "react";
import type { ActorRefFrom, AnyActorRef, InputFrom } from "xstate";
import type { FlowMachines, FlowName, FlowStart } from "../../machines/flows.ts";
import { useOpenedActor } from "../ui/use-opened-actor.ts";
import { CourierAppContext } from "./app-actor.ts";
import { StartingScreenContext } from "./starting-screen.ts";

let flowsOpened = 0;

/**
 * The flow of the screen the courier opened (delivery, returns, check-in…),
 * by name with its input: the application machine starts it (FLOW.START), so
 * it lives in the application's actor system — it tells the day its outcome
 * and hands stored calls to the offline queue by system id, itself — and
 * removes it once done. Each opening of a screen is a flow of its own (its own
 * id), as each screen starts afresh; its logic is loaded with the screen
 * (src/app/flows.ts).
 *
 * Undefined on the screen's first render, and rendered before the first paint
 * (useOpenedActor) — or, for the screen the page starts with, after it, in
 * slices, while the screen shows the page's splash (StartingScreenContext).
 * The actor stays with the screen after the flow is done (its final snapshot
 * is what the screen shows).
 */
export function useFlowActor<F extends FlowName>(flow: F, { input }: { input: InputFrom<FlowMachines[F]> }): ActorRefFrom<FlowMachines[F]> | undefined {
  const app = CourierAppContext.useActorRef();
  const isStartingScreen = useContext(StartingScreenContext);
  // What the flow starts from, and how its screen renders, are read once, when the screen opens.
  const [opening] = useState(() => {
    const start = { flow, id: `flow:${flow}-${++flowsOpened}`, input } as FlowStart;
    let last: AnyActorRef | undefined;
    return {
      // The flow registered under its id in the application's system, and the last one seen once it has left (a finished flow).
      read: () => (last = app.system.get(start.id) ?? last),
      // A second run (React's strict mode) finds the flow running (startFlow starts one per id).
      open: () => void app.send({ type: "FLOW.START", ...start }),
      options: { inSlices: isStartingScreen() },
    };
  });
  // Flows are started by name, so the application's system holds them untyped: this one is the flow F names.
  return useOpenedActor(app, opening.read, opening.open, opening.options) as ActorRefFrom<FlowMachines[F]> | undefined;
}
