import { createMachine, fromCallback, fromPromise, type AnyActorLogic, type AnyStateMachine, type EventFrom, type EventObject, type InputFrom } from "xstate";

/**
 * What a visualizer copy runs instead of the network: a demo per machine
 * (scripts/machines/demos/<name>.demo.ts). This file is bundled into every
 * docs/machines/<name>.viz.ts with the real machine, so keep it free of
 * Node and of anything but xstate.
 */

/** A stand-in for one of the actors the app provides (the network, the camera). */
export type StandIn =
  /** A call that succeeds with what the API would answer for the demo input. */
  | { resolves: unknown; says: string }
  /** A callback actor (the camera) that reports nothing by itself: send its events from the event list. */
  | { callback: string };

export interface Demo<TMachine extends AnyStateMachine = AnyStateMachine> {
  machine: TMachine;
  /** The demo input in words, for the file's header. */
  summary: string;
  input: InputFrom<TMachine>;
  /** One stand-in for every actor of the machine that is not itself a machine. */
  standIns: Record<string, StandIn>;
  /** Stand-ins for the actors of a child machine it invokes, by the child's actor name. */
  children?: Record<string, Record<string, StandIn>>;
  /** What a child machine answers when it is done (its output), by the child's actor name: a model of the machine follows it past the child. */
  childOutputs?: Record<string, unknown>;
  /** Events a courier (or the camera) sends, payloads included: the ones to click in the visualizer. */
  events: EventFrom<TMachine>[];
}

export function defineDemo<TMachine extends AnyStateMachine>(demo: Demo<TMachine>): Demo<TMachine> {
  return demo;
}

const copy = <T>(value: T): T => (value === undefined ? value : (JSON.parse(JSON.stringify(value)) as T));

function standInLogic(standIn: StandIn): AnyActorLogic {
  if ("callback" in standIn) return fromCallback(() => undefined);
  // A copy per call: the machine may keep what it is answered.
  return fromPromise(async () => copy(standIn.resolves));
}

function withStandIns(machine: AnyStateMachine, standIns: Record<string, StandIn>, children: Record<string, Record<string, StandIn>> = {}) {
  const actors: Record<string, AnyActorLogic> = {};
  for (const [name, standIn] of Object.entries(standIns)) actors[name] = standInLogic(standIn);
  for (const [name, childStandIns] of Object.entries(children)) {
    const child = (machine.implementations.actors as Record<string, AnyStateMachine>)[name]!;
    actors[name] = withStandIns(child, childStandIns);
  }
  return machine.provide({ actors });
}

/**
 * The real machine with its stand-ins, started without input as the
 * visualizer starts it: its own context factory then gets the demo input.
 */
export function demoMachine<TMachine extends AnyStateMachine>(demo: Demo<TMachine>): TMachine {
  const provided = withStandIns(demo.machine, demo.standIns, demo.children);
  const context = provided.config.context as unknown;
  if (typeof context !== "function") return provided as TMachine;
  const factory = context as (args: { input?: unknown }) => unknown;
  const config = { ...provided.config, context: (args: { input?: unknown }) => factory({ ...args, input: args.input ?? copy(demo.input) }) };
  // The implementations the machine was provided with, as createMachine takes them (xstate types the two forms apart).
  return createMachine(config, provided.implementations as Parameters<typeof createMachine>[1]) as unknown as TMachine;
}

/**
 * The demo's events, and for each call a stand-in answers the event that
 * settles it (xstate.done.actor.<id> with the answer): a model of the machine
 * (xstate/graph) needs those to follow the calls the live machine makes.
 */
export function demoEvents(demo: Demo): EventObject[] {
  const settles: EventObject[] = [];
  const visit = (node: AnyStateMachine["root"]) => {
    for (const invoke of node.invoke) {
      const standIn = typeof invoke.src === "string" ? demo.standIns[invoke.src] : undefined;
      if (standIn && "resolves" in standIn) settles.push({ type: `xstate.done.actor.${invoke.id}`, output: copy(standIn.resolves) } as EventObject);
      const childOutput = typeof invoke.src === "string" ? demo.childOutputs?.[invoke.src] : undefined;
      if (childOutput !== undefined) settles.push({ type: `xstate.done.actor.${invoke.id}`, output: copy(childOutput) } as EventObject);
    }
    Object.values(node.states).forEach(visit);
  };
  visit(demo.machine.root);
  return [...copy(demo.events), ...settles];
}
