import { useLayoutEffect, useState } from "react";
import type { ActorRefFrom, AnyActorRef, InputFrom } from "xstate";
import type { FlowMachines, FlowName, FlowStart } from "../../machines/flows.ts";
import { CourierAppContext } from "./app-actor.ts";

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
 * Undefined on the screen's first render: the flow is started in a layout
 * effect (rendering sends nothing), which also subscribes to the application,
 * so the flow's start is rendered before the browser paints. (Through
 * useSyncExternalStore, whose subscription starts in a passive effect, which
 * after a transition's render runs in a later task, the screen first painted
 * a frame with the header and nothing under it, and rendered again in another
 * task: issue 29.) The actor stays with the screen after the flow is done (its
 * final snapshot is what the screen shows).
 */
export function useFlowActor<F extends FlowName>(flow: F, { input }: { input: InputFrom<FlowMachines[F]> }): ActorRefFrom<FlowMachines[F]> | undefined {
  const app = CourierAppContext.useActorRef();
  // What the flow starts from is read once, when the screen opens.
  const [start] = useState(() => ({ flow, id: `flow:${flow}-${++flowsOpened}`, input }) as FlowStart);
  const [started] = useState(() => startedFlow(app, start.id));
  const [actor, setActor] = useState(started.current);
  useLayoutEffect(() => {
    const subscription = app.subscribe(() => setActor(started.current()));
    // A second run of this effect (React's strict mode) finds the flow running (startFlow starts one per id).
    app.send({ type: "FLOW.START", ...start });
    return () => subscription.unsubscribe();
  }, [app, start, started]);
  // Flows are started by name, so the application's system holds them untyped: this one is the flow F names.
  return actor as ActorRefFrom<FlowMachines[F]> | undefined;
}

/** The flow registered under this id in the application's system, and the last one seen once it has left (a finished flow). */
function startedFlow(app: AnyActorRef, id: string) {
  let last: AnyActorRef | undefined;
  return { current: () => (last = app.system.get(id) ?? last) };
}
