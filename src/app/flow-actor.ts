import { useEffect, useLayoutEffect, useState, useSyncExternalStore } from "react";
import type { Actor, AnyActorLogic, AnyActorRef, InputFrom, Snapshot } from "xstate";
import type { FlowKind } from "../../machines/courier-app.machine.ts";
import { resumedFrom } from "../../machines/resumed-from.ts";
import { CourierAppContext } from "./app-actor.ts";

interface FlowActorOptions<TLogic extends AnyActorLogic> {
  input: InputFrom<TLogic>;
  /** A snapshot saved before a reload, to resume from. */
  snapshot?: Snapshot<unknown>;
  /**
   * Keeps the flow for a reload: given its persisted snapshot after every
   * change of the flow or of an actor it runs (the payment step), at most once
   * a tick, and null once the flow is over. Must keep its identity (useCallback).
   */
  persist?: (saved: Snapshot<unknown> | null) => void;
}

let flowsOpened = 0;

/**
 * The flow of the screen the courier opened (delivery, returns, check-in…):
 * the application machine spawns it (FLOW.OPEN), so it lives in the
 * application's actor system — it tells the day its outcome and hands stored
 * calls to the offline queue by system id, itself — and removes it once done.
 * Each opening of a screen is a flow of its own, as each screen starts afresh.
 *
 * Undefined on the screen's first render: the flow is spawned in a layout
 * effect (rendering sends nothing), and the screen renders it before the
 * first paint. The actor stays with the screen after the flow is done (its
 * final snapshot is what the screen shows).
 */
export function useFlowActor<TLogic extends AnyActorLogic>(
  flow: FlowKind,
  logic: TLogic,
  { input, snapshot, persist }: FlowActorOptions<TLogic>,
): Actor<TLogic> | undefined {
  const app = CourierAppContext.useActorRef();
  // What the flow starts from is read once, when the screen opens.
  const [opening] = useState(() => ({ id: `flow:${flow}-${++flowsOpened}`, logic: resumedFrom(logic, snapshot), input }));
  const [spawned] = useState(() => childOf(app, opening.id));
  useLayoutEffect(() => {
    const { id, ...start } = opening;
    // A second run of this effect (React's strict mode) finds the flow running.
    if (!spawned.current()) app.send({ type: "FLOW.OPEN", flow, id, ...start });
  }, [app, flow, opening, spawned]);
  const actor = useSyncExternalStore(spawned.subscribe, spawned.current) as Actor<TLogic> | undefined;
  useEffect(() => {
    if (!actor || !persist) return;
    let queued = false;
    const save = () => {
      queued = false;
      persist((actor.getSnapshot() as Snapshot<unknown>).status === "active" ? (actor.getPersistedSnapshot() as Snapshot<unknown>) : null);
    };
    // One subscription: a child's own changes (the payment step) reach no subscriber of the flow, the system's inspection sees them all.
    const subscription = actor.system.inspect((event) => {
      if (event.type !== "@xstate.snapshot" || queued) return;
      if (event.actorRef !== actor && (event.actorRef as { _parent?: unknown })._parent !== actor) return;
      queued = true;
      queueMicrotask(save);
    });
    return () => subscription.unsubscribe();
  }, [actor, persist]);
  return actor;
}

/** The application's child of this id, and the last one seen once it has left (a finished flow). */
function childOf(app: AnyActorRef, id: string) {
  let last: AnyActorRef | undefined;
  return {
    current: () => (last = (app.getSnapshot() as { children: Record<string, AnyActorRef | undefined> }).children[id] ?? last),
    subscribe: (onChange: () => void) => {
      const subscription = app.subscribe(onChange);
      return () => subscription.unsubscribe();
    },
  };
}
