import { useEffect, useState } from "react";
import { createActor, type Actor, type AnyActorLogic, type InputFrom, type Snapshot } from "xstate";
import { CourierAppContext } from "./app-actor.ts";

export interface FlowActorOptions<TLogic extends AnyActorLogic> {
  input: InputFrom<TLogic>;
  /** A snapshot saved before a reload, to resume from. */
  snapshot?: Snapshot<unknown>;
  /** Called after any change of the flow or of an actor it runs (the payment step), for saving it. */
  onChange?: () => void;
}

/**
 * A flow the courier opens (delivery, returns, check-in…), started as a child
 * of the application actor: it lives in the application's actor system, so it
 * tells the day its outcome and hands stored calls to the offline queue by
 * system id, itself. It is not stopped when its screen goes: a submission under
 * way still ends in the day and, on a network failure, in the offline queue.
 */
export function useFlowActor<TLogic extends AnyActorLogic>(logic: TLogic, { input, snapshot, onChange }: FlowActorOptions<TLogic>): Actor<TLogic> {
  const app = CourierAppContext.useActorRef();
  const [actor] = useState(() => createActor(logic, { input, snapshot, parent: app } as never) as Actor<TLogic>);
  useEffect(() => {
    actor.start();
  }, [actor]);
  useEffect(() => {
    if (!onChange) return;
    // A child's own changes (the payment step) reach no subscriber of the flow: the system's inspection sees them all.
    const subscription = actor.system.inspect((event) => {
      if (event.type !== "@xstate.snapshot") return;
      if (event.actorRef === actor || (event.actorRef as { _parent?: unknown })._parent === actor) onChange();
    });
    return () => subscription.unsubscribe();
  }, [actor, onChange]);
  return actor;
}
