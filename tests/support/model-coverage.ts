import {
  getInitialMicrosteps,
  getMicrosteps,
  getStateNodes,
  initialTransition,
  transition,
  type AnyActorLogic,
  type AnyMachineSnapshot,
  type AnyStateMachine,
  type AnyStateNode,
  type AnyTransitionDefinition,
  type EventObject,
  type SnapshotFrom,
} from "xstate";
import { serializeSnapshot, TestModel, type TestParam, type TestPath } from "xstate/graph";

/**
 * Coverage of a machine by a set of paths: which state nodes were entered and
 * which transitions (event, guard branch, eventless) were taken. Model-based
 * tests call expectFullCoverage so that a new state or transition without a
 * path fails the suite and names what is missing.
 */

function walk(node: AnyStateNode, visit: (node: AnyStateNode) => void): void {
  visit(node);
  for (const child of Object.values(node.states ?? {})) walk(child as AnyStateNode, visit);
}

function transitionList(source: AnyStateNode, eventType: string): readonly AnyTransitionDefinition[] {
  return eventType === "" ? (source.always ?? []) : (source.transitions.get(eventType) ?? []);
}

export function transitionKey(transition: AnyTransitionDefinition): string {
  const source = transition.source as AnyStateNode;
  const index = transitionList(source, transition.eventType).indexOf(transition);
  const targets = (transition.target ?? []).map((node: AnyStateNode) => node.id).join(",") || "(no target)";
  return `${source.id} --${transition.eventType || "always"}#${index}--> ${targets}`;
}

export function allStateIds(machine: AnyStateMachine): string[] {
  const ids: string[] = [];
  walk(machine.root, (node) => ids.push(node.id));
  return ids;
}

export function allTransitionKeys(machine: AnyStateMachine): string[] {
  const keys: string[] = [];
  walk(machine.root, (node) => {
    for (const list of node.transitions.values()) for (const t of list) keys.push(transitionKey(t));
    for (const t of node.always ?? []) keys.push(transitionKey(t));
  });
  return keys;
}

type PathLike = Pick<ModelPath, "steps">;

export interface Coverage {
  states: Set<string>;
  transitions: Set<string>;
}

/** The state nodes a snapshot is in, ancestors included, in document order (xstate's public getStateNodes, not the snapshot's private _nodes). */
const activeNodes = (snapshot: AnyMachineSnapshot): Set<AnyStateNode> =>
  new Set(getStateNodes(snapshot.machine.root, snapshot.value).sort((a, b) => a.order - b.order));

/** The eventless transitions taken between two microsteps. */
function eventlessTaken(before: AnyMachineSnapshot, after: AnyMachineSnapshot): AnyTransitionDefinition[] {
  const active = activeNodes(before);
  const next = activeNodes(after);
  for (const node of active) {
    // Of the transitions whose targets were all entered, the one aiming deepest (starting → steps.recipient.photo, not → steps.recipient).
    const entered = (node.always ?? []).filter((t) => {
      const targets = (t.target ?? []) as AnyStateNode[];
      return targets.length > 0 && targets.every((target) => next.has(target));
    });
    const depth = (t: AnyTransitionDefinition) => Math.max(...((t.target ?? []) as AnyStateNode[]).map((target) => target.path.length));
    if (entered.length > 0) return [entered.reduce((deepest, t) => (depth(t) > depth(deepest) ? t : deepest))];
    for (const t of node.always ?? []) {
      if ((t.target ?? []).length === 0 && before.context !== after.context) return [t];
    }
  }
  return [];
}

function record(coverage: Coverage, machine: AnyStateMachine, microsteps: [AnyMachineSnapshot, unknown[]][], from?: AnyMachineSnapshot, event?: EventObject) {
  let previous = from;
  microsteps.forEach(([snapshot], index) => {
    for (const node of activeNodes(snapshot)) coverage.states.add(node.id);
    if (previous) {
      const taken = index === 0 && event ? machine.getTransitionData(previous, event) : eventlessTaken(previous, snapshot);
      for (const t of taken) coverage.transitions.add(transitionKey(t));
    }
    previous = snapshot;
  });
}

export function coverageOf(machine: AnyStateMachine, paths: PathLike[], input?: unknown): Coverage {
  const coverage: Coverage = { states: new Set(), transitions: new Set() };
  record(coverage, machine, getInitialMicrosteps(machine, input));
  for (const path of paths) {
    for (let i = 1; i < path.steps.length; i++) {
      const before = path.steps[i - 1]!.state;
      const event = path.steps[i]!.event;
      record(coverage, machine, getMicrosteps(machine, before, event), before, event);
    }
  }
  return coverage;
}

/** Throws, naming every state and transition no path covers. */
export function expectFullCoverage(machine: AnyStateMachine, paths: PathLike[], options: { input?: unknown; ignore?: string[] } = {}): Coverage {
  const coverage = coverageOf(machine, paths, options.input);
  const ignore = new Set(options.ignore ?? []);
  const missingStates = allStateIds(machine).filter((id) => !coverage.states.has(id) && !ignore.has(id));
  const missingTransitions = allTransitionKeys(machine).filter((key) => !coverage.transitions.has(key) && !ignore.has(key));
  if (missingStates.length || missingTransitions.length) {
    throw new Error(
      [
        `${machine.id}: the paths do not cover the whole machine.`,
        ...missingStates.map((id) => `  state never entered: ${id}`),
        ...missingTransitions.map((key) => `  transition never taken: ${key}`),
      ].join("\n"),
    );
  }
  return coverage;
}

/** How a machine is walked: the events to try (all, or those a state takes), its input, and what makes two states different screens. */
export interface CoverOptions<TSnapshot extends AnyMachineSnapshot> {
  events: readonly EventObject[] | ((snapshot: TSnapshot) => readonly EventObject[]);
  input?: unknown;
  serializeState?: (snapshot: TSnapshot) => string;
}

/** A path through a machine: the snapshot it ends in and each step's event and the snapshot it reached. */
export interface ModelPath {
  state: AnyMachineSnapshot;
  steps: ReadonlyArray<{ event: EventObject; state: AnyMachineSnapshot }>;
  /** xstate/graph's path.test, on the paths transitionCoverPaths makes (a hand-written path has none). */
  test?: (params: TestParam<AnyMachineSnapshot, EventObject>) => Promise<unknown>;
}

/** A path transitionCoverPaths generated: it has xstate/graph's test(). */
export type GeneratedPath = ModelPath & Required<Pick<ModelPath, "test">>;

/** Whether some state invokes an actor under a system id (the application machine does). */
function hasSystemIds(machine: AnyStateMachine): boolean {
  let found = false;
  walk(machine.root, (node) => {
    if (node.invoke.some((invoke) => invoke.systemId !== undefined)) found = true;
  });
  return found;
}

/**
 * The machine as the graph walker should step it: the walker keeps one actor
 * system for every path, where an actor's system id would be taken twice; so
 * each step is computed as xstate's transition() does, in a system of its own.
 */
function traversable(machine: AnyStateMachine): AnyActorLogic {
  if (!hasSystemIds(machine)) return machine;
  // Logic of its own (the machine is not copied nor altered): every step as xstate's pure functions compute it.
  return {
    getInitialSnapshot: (_scope: unknown, input: unknown) => initialTransition(machine, input)[0],
    transition: (snapshot: AnyMachineSnapshot, event: EventObject) => transition(machine, snapshot, event)[0],
    getPersistedSnapshot: (snapshot: AnyMachineSnapshot) => machine.getPersistedSnapshot(snapshot),
  } as AnyActorLogic;
}

/**
 * One path per reachable transition: the shortest path to its source state
 * followed by the event, generated the @xstate/test way by xstate/graph's
 * TestModel (its getShortestPaths, its paths' test()). Shortest paths to
 * states alone never take an edge that loops back to a state already seen; so,
 * like createTestModel's own transition serializer, each vertex of the model is
 * a state *with the transition that led there* (state, event, state left), and
 * the shortest path to every such vertex takes every transition once, loops
 * included, plus the path to the first state.
 *
 * createTestModel itself refuses every machine here but the order lifecycle
 * ("Invocations on test machines are not supported"): it is a TestModel with
 * that check, createTestModel's event defaults (a bare `{ type }` for each event
 * a state names) and its serializers; the model is built from the class instead
 * (docs/decisions/0023-model-based-paths-from-xstate-graph-test-model.md).
 */
export function transitionCoverPaths<TMachine extends AnyStateMachine>(machine: TMachine, options: CoverOptions<SnapshotFrom<TMachine>>): GeneratedPath[] {
  // The callbacks are written for this machine's snapshots; the walker hands them exactly those.
  const events = options.events as CoverOptions<AnyMachineSnapshot>["events"];
  const serialize = (options.serializeState as CoverOptions<AnyMachineSnapshot>["serializeState"]) ?? ((snapshot) => serializeSnapshot(snapshot));
  const model = new TestModel<AnyMachineSnapshot, EventObject, unknown>(traversable(machine), {
    events: typeof events === "function" ? (snapshot) => [...events(snapshot)] : [...events],
    input: options.input,
    serializeState: (snapshot, event, previous) =>
      event === undefined || previous === undefined
        ? serialize(snapshot)
        : `${serialize(snapshot)} via ${JSON.stringify(event)} from ${serialize(previous)}`,
  });
  // Every path is kept, even one another extends: each is a transition whose end state its test checks.
  return model.getShortestPaths({ allowDuplicatePaths: true }).map((path) => {
    const reached = withStatesReached(machine, options.input, path);
    // path.test({ states, events }) walks the path it is called on (a copy with more steps
    // walks those), with the snapshots reached, not the ones the graph kept.
    return {
      ...reached,
      test(this: ModelPath, params: TestParam<AnyMachineSnapshot, EventObject>) {
        return model.testPath({ ...reached, ...this, steps: [...this.steps] }, params);
      },
    };
  });
}

/**
 * The path's snapshots as its events reach them. xstate/graph keeps, under a
 * vertex's key, the last snapshot seen there, which need not be the one the
 * shortest path reaches when the key leaves details out (a time the courier
 * called, say); the test compares the live actor with these.
 */
function withStatesReached<TPath extends TestPath<AnyMachineSnapshot, EventObject>>(machine: AnyStateMachine, input: unknown, path: TPath): TPath {
  let snapshot = initialTransition(machine, input)[0] as AnyMachineSnapshot;
  const steps = path.steps.map((step, index) => {
    if (index > 0) snapshot = transition(machine, snapshot, step.event)[0] as AnyMachineSnapshot;
    return { event: step.event, state: snapshot };
  });
  return { ...path, steps, state: snapshot };
}
