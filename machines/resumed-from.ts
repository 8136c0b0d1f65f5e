import type { AnyActorLogic, Snapshot } from "xstate";

/**
 * The logic, starting where a snapshot saved before a reload left off: what
 * createActor(logic, { snapshot }) does, for an actor that is spawned (spawning
 * has no snapshot option), so the flow's first snapshot is the restored one.
 * Kept out of the application machine's file: only flows, loaded on demand, need it.
 */
export function resumedFrom<TLogic extends AnyActorLogic>(logic: TLogic, saved: Snapshot<unknown> | undefined): TLogic {
  if (!saved) return logic;
  const resumed = Object.create(logic) as TLogic;
  resumed.getInitialSnapshot = (scope) => (logic.restoreSnapshot ? logic.restoreSnapshot(saved, scope) : saved) as never;
  return resumed;
}
