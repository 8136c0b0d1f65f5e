import { and, not, or, type AnyStateMachine, type AnyStateNode, type AnyTransitionDefinition } from "xstate";

/**
 * A machine's definition as plain data: the one reading of a machine that the
 * Markdown docs, the /machines page and the visualizer-export check share, so
 * all three show the same states, transitions and guards.
 */

export type TransitionKind = "event" | "always" | "after" | "done" | "error" | "stateDone";

export interface TransitionModel {
  /** The event type as XState knows it ("" for an eventless `always`). */
  eventType: string;
  kind: TransitionKind;
  /** What a reader sees: "CONTINUE", "always", "after 2000ms", "done: submitFailure". */
  label: string;
  /** The guard as written in the config: a name, a name with params, or and/or/not of names. */
  guard: string | null;
  /** The guard in plain words. */
  guardWords: string | null;
  /** Target state ids; empty when the transition stays (actions only). */
  targets: string[];
  description: string | null;
  actions: string[];
}

export interface StateModel {
  id: string;
  key: string;
  /** Keys from the root: "steps.address.ready" ("" for the root). */
  path: string;
  type: "atomic" | "compound" | "parallel" | "final" | "history";
  description: string | null;
  /** The id of the initial child (compound states). */
  initial: string | null;
  children: StateModel[];
  transitions: TransitionModel[];
  /** Invoked actors: their id and the name of their logic in setup(). */
  invokes: { id: string; src: string }[];
  entry: string[];
  exit: string[];
}

export interface MachineModel {
  id: string;
  description: string | null;
  root: StateModel;
}

// and(), or() and not() return functions whose `check` is shared by every guard they make.
const COMBINATORS = [
  { check: (and([]) as unknown as { check: unknown }).check, name: "and" },
  { check: (or([]) as unknown as { check: unknown }).check, name: "or" },
  { check: (not("x") as unknown as { check: unknown }).check, name: "not" },
] as const;

type GuardValue = string | { type: string; params?: unknown } | ((...args: never[]) => unknown) | undefined;

interface GuardReading {
  text: string;
  words: string;
}

const GLOSSARY: Record<string, string> = { dob: "date of birth", id: "ID", rx: "RX" };

/** "dobVerificationEnabled" → "date of birth verification enabled". */
export function nameToWords(name: string): string {
  return name
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1 $2")
    .replace(/[_-]+/g, " ")
    .split(" ")
    .filter(Boolean)
    .map((word) => GLOSSARY[word.toLowerCase()] ?? (word === word.toUpperCase() && word.length > 1 ? word : word.toLowerCase()))
    .join(" ");
}

function paramsText(params: unknown): string | null {
  // Params computed from the event at run time say nothing a reader can use.
  if (params === undefined || typeof params === "function") return null;
  if (params && typeof params === "object") {
    return Object.values(params as Record<string, unknown>)
      .map((value) => (typeof value === "string" ? value : JSON.stringify(value)))
      .join(", ");
  }
  return JSON.stringify(params);
}

export function readGuard(guard: GuardValue): GuardReading | null {
  if (guard === undefined) return null;
  if (typeof guard === "string") return { text: guard, words: nameToWords(guard) };
  if (typeof guard === "function") {
    const combinator = COMBINATORS.find(({ check }) => check === (guard as unknown as { check?: unknown }).check);
    const inner = ((guard as unknown as { guards?: GuardValue[] }).guards ?? []).map(readGuard).filter((g): g is GuardReading => g !== null);
    if (combinator?.name === "not") return { text: `not ${inner[0]?.text ?? "?"}`, words: `not ${inner[0]?.words ?? "?"}` };
    if (combinator) {
      return {
        text: inner.map((g) => g.text).join(` ${combinator.name} `),
        words: inner.map((g) => g.words).join(` ${combinator.name} `),
      };
    }
    return { text: "inline guard", words: "an inline condition" };
  }
  const params = paramsText(guard.params);
  return {
    text: params ? `${guard.type}(${params})` : guard.type,
    words: params ? `${nameToWords(guard.type)}: ${params}` : nameToWords(guard.type),
  };
}

function actionName(action: unknown): string {
  if (typeof action === "string") return action;
  if (typeof action === "function") {
    const type = (action as { type?: unknown }).type;
    return typeof type === "string" ? type : "inline action";
  }
  if (action && typeof action === "object" && typeof (action as { type?: unknown }).type === "string") return (action as { type: string }).type;
  return "inline action";
}

/** The invoke id in xstate.done.actor.<id> / xstate.error.actor.<id>, mapped to its src name. */
function srcOfInvoke(node: AnyStateNode, invokeId: string): string {
  const invoke = (node.invoke as { id: string; src: unknown }[]).find((candidate) => candidate.id === invokeId);
  return typeof invoke?.src === "string" ? invoke.src : invokeId;
}

function delayLabel(delay: unknown): string {
  return typeof delay === "number" ? `after ${delay}ms` : `after ${String(delay)}`;
}

function readTransition(node: AnyStateNode, transition: AnyTransitionDefinition): TransitionModel {
  const eventType = transition.eventType;
  let kind: TransitionKind = "event";
  let label = eventType;
  let match: RegExpExecArray | null;
  if (eventType === "") {
    kind = "always";
    label = "always";
  } else if ((match = /^xstate\.(done|error)\.actor\.(.+)$/.exec(eventType))) {
    kind = match[1] as "done" | "error";
    label = `${match[1]}: ${srcOfInvoke(node, match[2]!)}`;
  } else if (eventType.startsWith("xstate.done.state.")) {
    kind = "stateDone";
    label = "done";
  } else if (eventType.startsWith("xstate.after.")) {
    kind = "after";
    const delayed = (node.after as { eventType: string; delay: unknown }[]).find((candidate) => candidate.eventType === eventType);
    label = delayLabel(delayed?.delay ?? eventType.split(".")[2]);
  }
  const guard = readGuard(transition.guard as GuardValue);
  return {
    eventType,
    kind,
    label,
    guard: guard?.text ?? null,
    guardWords: guard?.words ?? null,
    targets: ((transition.target ?? []) as AnyStateNode[]).map((target) => target.id),
    description: transition.description ?? null,
    actions: (transition.actions as unknown[]).map(actionName),
  };
}

function readState(node: AnyStateNode, path: string): StateModel {
  const transitions: TransitionModel[] = [];
  for (const list of node.transitions.values()) for (const transition of list) transitions.push(readTransition(node, transition));
  for (const transition of node.always ?? []) transitions.push(readTransition(node, transition));
  const initialTarget = (node.initial?.target ?? []) as AnyStateNode[];
  return {
    id: node.id,
    key: node.key,
    path,
    type: node.type,
    description: node.description ?? null,
    initial: node.type === "compound" ? (initialTarget[0]?.id ?? null) : null,
    children: Object.entries(node.states as Record<string, AnyStateNode>).map(([key, child]) => readState(child, path ? `${path}.${key}` : key)),
    transitions,
    invokes: (node.invoke as { id: string; src: unknown }[]).map((invoke) => ({
      id: invoke.id,
      src: typeof invoke.src === "string" ? invoke.src : "inline actor",
    })),
    entry: (node.entry as unknown[]).map(actionName),
    exit: (node.exit as unknown[]).map(actionName),
  };
}

export function machineModel(machine: AnyStateMachine): MachineModel {
  return { id: machine.id, description: machine.root.description ?? null, root: readState(machine.root, "") };
}

/** Every state, depth first, the root excluded. */
export function allStates(model: MachineModel): StateModel[] {
  const states: StateModel[] = [];
  const visit = (state: StateModel) => {
    for (const child of state.children) {
      states.push(child);
      visit(child);
    }
  };
  visit(model.root);
  return states;
}

/** A transition's condition in words: its guard, "otherwise" after guarded alternatives for the same event, or null. */
export function conditionWords(transition: TransitionModel, state: StateModel): string | null {
  if (transition.guardWords) return transition.guardWords;
  const alternatives = state.transitions.filter((other) => other.eventType === transition.eventType);
  return alternatives.slice(0, alternatives.indexOf(transition)).some((other) => other.guard) ? "otherwise" : null;
}
