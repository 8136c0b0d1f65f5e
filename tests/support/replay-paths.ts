import { expect } from "vitest";
import { createActor, fromPromise, type AnyMachineSnapshot, type AnyStateMachine, type EventObject } from "xstate";
import { allStateIds, allTransitionKeys, coverageOf, type ModelPath } from "./model-coverage.ts";

export type { ModelPath };

/**
 * Replays a model path on a live actor. Every invoked actor is provided as a
 * promise the test settles: a path step `xstate.done.actor.<id>` (the invoke's id,
 * or the actor's name) resolves the running call with the step's output, `xstate.error.actor.<id>` rejects it
 * with the step's error. Any other step is sent as the courier's event.
 */

/** A path to replay: its events in order (xstate.init first); a generated one also has xstate/graph's test(). */
export interface ReplayPath {
  steps: ReadonlyArray<{ event: EventObject }>;
  test?: ModelPath["test"];
}

/** A path written out by hand: the events, in order, after the machine starts. */
export function pathOfEvents(events: readonly object[]): ReplayPath {
  return { steps: [{ event: { type: "xstate.init" } }, ...events.map((event) => ({ event: event as EventObject }))] };
}

export interface Call {
  actor: string;
  input: unknown;
}

interface Pending {
  resolve(value: unknown): void;
  reject(error: unknown): void;
}

const SETTLE = /^xstate\.(done|error)\.actor\.(.+)$/;

const nextTick = () => new Promise((resolve) => setTimeout(resolve, 0));

export async function replayPath<TMachine extends AnyStateMachine>(
  machine: TMachine,
  actorNames: readonly string[],
  input: unknown,
  path: ReplayPath,
): Promise<{ snapshot: AnyMachineSnapshot; calls: Call[] }> {
  const pending = new Map<string, Pending>();
  const calls: Call[] = [];
  const actors = Object.fromEntries(
    actorNames.map((name) => [
      name,
      fromPromise<unknown, unknown>(
        ({ input: callInput, self }) =>
          new Promise((resolve, reject) => {
            calls.push({ actor: name, input: callInput });
            // Settled by the invoke's id (one logic may be invoked under several ids) or by its name.
            pending.set(self.id, { resolve, reject });
            pending.set(name, { resolve, reject });
          }),
      ),
    ]),
  );
  const actor = createActor(machine.provide({ actors }), { input });
  const start = async () => {
    actor.start();
    await nextTick();
  };
  const apply = async (event: EventObject) => {
    const settle = SETTLE.exec(event.type);
    if (settle) {
      const [, outcome, name] = settle as unknown as [string, "done" | "error", string];
      const call = pending.get(name);
      expect(call, `no ${name} call is running when the path settles it`).toBeDefined();
      for (const [key, other] of pending) if (other === call) pending.delete(key);
      if (outcome === "done") call!.resolve((event as { output?: unknown }).output);
      else call!.reject((event as { error?: unknown }).error);
    } else {
      actor.send(event);
    }
    await nextTick();
  };
  if (path.test) {
    // A model path (xstate/graph's TestPath): path.test does each step's event on the
    // live actor, then checks the actor is in that step's state, after every step.
    await path.test({
      events: eachEventOf(path, ({ event }) => (event.type === "xstate.init" ? start() : apply(event))),
      states: {
        "*": (state) => {
          const live = actor.getSnapshot();
          expect(live.value).toEqual(state.value);
          expect(live.context).toEqual(state.context);
          expect(live.status).toBe(state.status);
        },
      },
    });
  } else {
    await start();
    for (const { event } of path.steps.slice(1)) await apply(event);
  }
  const snapshot = actor.getSnapshot();
  actor.stop();
  return { snapshot, calls };
}

/**
 * path.test's `events` for a path: every event type on it (the first,
 * xstate.init, included) done by one function, as the model's events are all
 * sent the same way (a courier's event, or a call settled).
 */
export function eachEventOf(path: ReplayPath, exec: (step: { event: EventObject }) => Promise<void> | void) {
  return Object.fromEntries(path.steps.map(({ event }) => [event.type, exec]));
}

/**
 * The traversal's events in a state: only those the machine takes there (an
 * ignored event is no transition), and none once the machine has finished.
 */
export function possibleEvents(events: readonly object[]) {
  return (snapshot: AnyMachineSnapshot) =>
    snapshot.status === "active" ? (events.filter((event) => snapshot.can(event)) as EventObject[]) : [];
}

/** Payloads in test titles: entities by id and status, not in full. */
function brief(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(brief).join(",")}]`;
  if (value && typeof value === "object") {
    const { id, status, confirmed } = value as { id?: unknown; status?: { name?: string }; confirmed?: unknown };
    if (id !== undefined) return `#${String(id)}${status?.name ? `:${status.name}` : ""}${confirmed !== undefined ? `:${String(confirmed)}` : ""}`;
  }
  return JSON.stringify(value);
}

/** A readable name for a path in a test title. */
export function pathName(path: ModelPath): string {
  return (
    path.steps
      .slice(1)
      .map(({ event }) => {
        const extra = Object.entries(event)
          .filter(([key]) => key !== "type" && key !== "output" && key !== "error")
          .map(([key, value]) => `${key}=${brief(value)}`)
          .join(",");
        const kind = (event as { error?: { kind?: string } }).error?.kind;
        return `${event.type.replace(/^xstate\./, "")}${extra ? `(${extra})` : ""}${kind ? `[${kind}]` : ""}`;
      })
      .join(" → ") || "(start)"
  );
}

/**
 * expectFullCoverage across several inputs: a machine whose first state
 * depends on its input (an order already picked up, no pending visits) needs
 * each input's start to be counted too.
 */
export function expectFullCoverageAcross(machine: AnyStateMachine, scenarios: { input: unknown; paths: ModelPath[] }[]): void {
  const states = new Set<string>();
  const transitions = new Set<string>();
  for (const { input, paths } of scenarios) {
    const coverage = coverageOf(machine, paths, input);
    coverage.states.forEach((id) => states.add(id));
    coverage.transitions.forEach((key) => transitions.add(key));
  }
  const missing = [
    ...allStateIds(machine)
      .filter((id) => !states.has(id))
      .map((id) => `state never entered: ${id}`),
    ...allTransitionKeys(machine)
      .filter((key) => !transitions.has(key))
      .map((key) => `transition never taken: ${key}`),
  ];
  expect(missing, `${machine.id}: the paths do not cover the whole machine`).toEqual([]);
}
