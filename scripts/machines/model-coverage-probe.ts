import type { AnyStateMachine } from "xstate";
import { transitionCoverPaths as buildPaths } from "../../tests/support/model-coverage.ts";

/**
 * tests/support/model-coverage.ts as the machine tests see it while the docs
 * generator loads them (see probe-hooks.ts): the same functions, and every
 * path set transitionCoverPaths returns is recorded with its machine and input.
 */
export * from "../../tests/support/model-coverage.ts";

export interface RecordedTraversal {
  machine: AnyStateMachine;
  input: unknown;
  paths: ReturnType<typeof buildPaths>;
}

const KEY = Symbol.for("rx-courier.machine-docs.traversals");

export function recordedTraversals(): RecordedTraversal[] {
  const store = globalThis as unknown as Record<symbol, RecordedTraversal[] | undefined>;
  return (store[KEY] ??= []);
}

export const transitionCoverPaths: typeof buildPaths = (machine, options) => {
  const paths = buildPaths(machine, options);
  recordedTraversals().push({ machine, input: (options as { input?: unknown }).input, paths });
  return paths;
};
