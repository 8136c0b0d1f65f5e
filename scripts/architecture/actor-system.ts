import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { AnyStateMachine, AnyStateNode } from "xstate";
import { courierAppMachine } from "../../machines/courier-app.machine.ts";
import type { FlowName } from "../../machines/flows.ts";
import { deliveryFlowMachine } from "../../machines/delivery-flow.machine.ts";
import { returnsMachine } from "../../machines/returns.machine.ts";
import { checkInMachine } from "../../machines/check-in.machine.ts";
import { verifyOrderMachine } from "../../machines/verify-order.machine.ts";
import { addonsMachine } from "../../machines/addons.machine.ts";
import { consoleMachine } from "../../machines/console.machine.ts";
import type { ConsoleScreenName } from "../../machines/console-screens.ts";
import { consoleBoardMachine } from "../../machines/console-board.machine.ts";
import { consoleCouriersMachine } from "../../machines/console-couriers.machine.ts";
import { consolePlanMachine } from "../../machines/console-plan.machine.ts";
import { consoleOrderMachine } from "../../machines/console-order.machine.ts";
import { consoleImportMachine } from "../../machines/console-import.machine.ts";
import { consoleReturnsMachine } from "../../machines/console-returns.machine.ts";
import { CONSOLE_SYSTEM_IDS, SYSTEM_IDS } from "../../machines/system-ids.ts";

/**
 * The actor system as a Mermaid flowchart, read from the machine definitions:
 * who starts whom (the application machine's invokes, with their system ids
 * and the state they live in), and who sends what to whom (every sendTo action
 * of the application and of the flows in it, by system id), the flows the
 * application starts by name on FLOW.START (every FlowName of machines/flows.ts),
 * each drawn with its machine, what the day and the queue tell the flows that
 * FOLLOW them, and the machines a flow starts itself (the label scanner, the
 * payment, the delivery's submissions) with what they tell it and send by system id.
 * The dispatch console's system the same way: the console machine, its session,
 * and the screens' machines it starts on SCREEN.OPEN (every ConsoleScreenName
 * of machines/console-screens.ts), each telling the session of a 401 by its id.
 *
 * `tsx scripts/architecture/actor-system.ts` prints it; `--write` puts it
 * into docs/architecture.md between the actor-system markers.
 */

/** The machine of each flow the application starts by name (the app's registry loads it with the flow's screen). */
export const FLOWS: Record<FlowName, AnyStateMachine> = {
  checkIn: checkInMachine,
  verifyOrder: verifyOrderMachine,
  addons: addonsMachine,
  deliveryFlow: deliveryFlowMachine,
  returns: returnsMachine,
};

/** The machine of each screen the console starts by name (the console's registry loads the lazy ones with their screens). */
export const SCREENS: Record<ConsoleScreenName, AnyStateMachine> = {
  board: consoleBoardMachine,
  couriers: consoleCouriersMachine,
  plan: consolePlanMachine,
  order: consoleOrderMachine,
  import: consoleImportMachine,
  returns: consoleReturnsMachine,
};

/** Every system id a machine may name (`SYSTEM_IDS.x`, `CONSOLE_SYSTEM_IDS.x`), by the name its source uses. */
const NAMED_IDS: Record<string, Record<string, string>> = { SYSTEM_IDS, CONSOLE_SYSTEM_IDS };

interface Edge {
  from: string;
  to: string;
  label: string;
  kind: "starts" | "sends";
}

/** Invokes of a state and its descendants: [state path, invoke]. */
function invokesOf(node: AnyStateNode, path: string[] = []): { where: string; id: string; src: string; systemId?: string }[] {
  const own = node.invoke.map((invoke) => ({
    where: path.join("."),
    id: invoke.id,
    src: typeof invoke.src === "string" ? invoke.src : invoke.id,
    systemId: invoke.systemId,
  }));
  return [...own, ...Object.values(node.states).flatMap((child) => invokesOf(child, [...path, child.key]))];
}

/** A sendTo action keeps its target (an id, or a function of the system): resolved against a system that answers ids. */
function targetOf(action: unknown): string | null {
  const to = (action as { to?: unknown }).to;
  if (typeof to === "string") return to;
  if (typeof to !== "function") return null;
  try {
    const resolved = to({ system: { get: (id: string) => ({ systemId: id }) }, context: {}, event: {} }) as { systemId?: string } | string | undefined;
    return typeof resolved === "string" ? resolved : (resolved?.systemId ?? null);
  } catch {
    return null;
  }
}

/** The event's type, where building it needs nothing of a running actor (otherwise the action's name says it). */
function eventTypeOf(action: unknown): string | null {
  const event = (action as { event?: unknown }).event;
  if (typeof event === "object" && event !== null) return (event as { type?: string }).type ?? null;
  if (typeof event !== "function") return null;
  try {
    return (event({ context: {}, event: { output: {} }, system: { get: () => undefined } }, undefined) as { type?: string }).type ?? null;
  } catch {
    // Built from a running flow's context: the event's type is the literal its source names.
    return /type:\s*"([A-Z_.]+)"/.exec(String(event))?.[1] ?? null;
  }
}

/**
 * A plain action function that sends by system id, `system.get(CONSOLE_SYSTEM_IDS.session)?.send(…)`
 * (a console screen's tellSessionEnded): the id it names, read from its source.
 */
function plainTargetOf(action: unknown): string | null {
  if (typeof action !== "function" || "type" in action) return null;
  const named = /system\.get\((?:[\w$]+\.)?(\w*SYSTEM_IDS)\.(\w+)\)\??\.send\(/.exec(String(action));
  return named ? (NAMED_IDS[named[1]!]?.[named[2]!] ?? null) : null;
}

function sendsOf(machine: AnyStateMachine, from: string): Edge[] {
  const actions = (machine.implementations.actions ?? {}) as Record<string, unknown>;
  return Object.entries(actions).flatMap(([name, action]) => {
    const to = (action as { type?: string }).type === "xstate.sendTo" ? targetOf(action) : plainTargetOf(action);
    const type = eventTypeOf(action) ?? (typeof action === "function" ? (/type:\s*"([A-Z_.]+)"/.exec(String(action))?.[1] ?? null) : null);
    return to ? [{ from, to, label: type ? `${name}: ${type}` : name, kind: "sends" as const }] : [];
  });
}

/**
 * What the actors the application starts tell the flows that follow them
 * (the day's and the queue's `tellFollowers`: DAY_CHANGED, QUEUE_CHANGED):
 * an action that tells each of `context.followers`, drawn to every flow
 * that sends that actor FOLLOW; and what they tell the application itself
 * (the session's SESSION_OPENED, SESSION_CLOSED): an action that sends to
 * `context.reportTo`.
 */
function newsOf(app: AnyStateMachine, flowEdges: Edge[]): Edge[] {
  const actors = (app.implementations.actors ?? {}) as Record<string, unknown>;
  return invokesOf(app.root).flatMap((invoke) => {
    const logic = actors[invoke.src] as AnyStateMachine | undefined;
    const from = invoke.systemId ?? invoke.id;
    if (!logic?.implementations) return [];
    const followers = flowEdges.filter((edge) => edge.to === from && edge.label.endsWith(": FOLLOW")).map((edge) => edge.from);
    const actions = (logic.implementations.actions ?? {}) as Record<string, unknown>;
    return Object.entries(actions).flatMap(([name, action]) => {
      // A plain action function (machines/following.ts's tell: enqueueActions would add to the first screen's bundle).
      const source = typeof action === "function" && !("type" in action) ? String(action) : "";
      const type = /type:\s*"([A-Z_.]+)"/.exec(source)?.[1];
      const label = type ? `${name}: ${type}` : name;
      // What it tells the application that runs it (the session: SESSION_OPENED, SESSION_CLOSED), to `context.reportTo`.
      if (/context\.reportTo\??\.send\(/.test(source)) return [{ from, to: app.id, label, kind: "sends" as const }];
      if (!/\btell\)?\(\s*context\.followers/.test(source)) return [];
      return followers.map((to) => ({ from, to, label, kind: "sends" as const }));
    });
  });
}

/**
 * The machines a flow invokes (check-in's and returns' label scanner), while
 * which state, and what they tell the flow: an action that sends to
 * `context.reportTo`, the flow that started it.
 */
function childrenOf(flow: AnyStateMachine): Edge[] {
  const actors = (flow.implementations.actors ?? {}) as Record<string, AnyStateMachine | undefined>;
  return invokesOf(flow.root).flatMap((invoke) => {
    const child = actors[invoke.src];
    if (!child?.implementations) return [];
    const actions = (child.implementations.actions ?? {}) as Record<string, { type?: string; collect?: unknown }>;
    const reports = Object.entries(actions).flatMap(([name, action]) => {
      const source = action.type === "xstate.enqueueActions" ? String(action.collect) : "";
      if (!/context\.reportTo/.test(source)) return [];
      const type = /type:\s*"([A-Z_.]+)"/.exec(source)?.[1];
      return [{ from: invoke.id, to: flow.id, label: type ? `${name}: ${type}` : name, kind: "sends" as const }];
    });
    // What the child itself sends by system id (the delivery's submit machine: a stored call to the offline queue).
    return [{ from: flow.id, to: invoke.id, label: `starts, while ${invoke.where}`, kind: "starts" as const }, ...reports, ...sendsOf(child, invoke.id)];
  });
}

/** The events on which the application starts a flow, or the console a screen (a transition, in any state, whose actions include startFlow or startScreen). */
function spawningEvents(app: AnyStateMachine): string[] {
  const starts = (action: unknown) => ["startFlow", "startScreen"].includes(typeof action === "string" ? action : ((action as { type?: string } | null)?.type ?? ""));
  const events = new Set<string>();
  const visit = (node: AnyStateNode) => {
    for (const [event, transitions] of node.transitions.entries()) if (transitions.some((t) => t.actions.some(starts))) events.add(event);
    Object.values(node.states).forEach(visit);
  };
  visit(app.root);
  return [...events];
}

export function actorSystemEdges(app: AnyStateMachine = courierAppMachine, flowsByKind: Record<string, AnyStateMachine> = FLOWS): Edge[] {
  const flows = Object.values(flowsByKind);
  const starts: Edge[] = invokesOf(app.root).map((invoke) => ({
    from: app.id,
    to: invoke.systemId ?? invoke.id,
    label: invoke.where ? `starts, while ${invoke.where}` : "starts",
    kind: "starts",
  }));
  const spawnedOn = spawningEvents(app).join(", ");
  const opened: Edge[] = spawnedOn
    ? flows.map((flow) => ({ from: app.id, to: flow.id, label: `starts on ${spawnedOn}`, kind: "starts" as const }))
    : [];
  const flowSends = flows.flatMap((flow) => sendsOf(flow, flow.id));
  const edges = [...starts, ...opened, ...sendsOf(app, app.id), ...flowSends, ...newsOf(app, flowSends), ...flows.flatMap(childrenOf)];
  // A child a flow runs from two states under one id (the photo of the drop-off) sends the same once.
  const key = (edge: Edge) => `${edge.from} ${edge.kind} ${edge.to}: ${edge.label}`;
  return edges.filter((edge, index) => edges.findIndex((other) => key(other) === key(edge)) === index);
}

/** The dispatch console's actor system: the console, its session, and the screens' machines. */
export function consoleSystemEdges(): Edge[] {
  return actorSystemEdges(consoleMachine, SCREENS);
}

/** The two systems, each in a box of its own: the courier's app and the dispatch console (separate pages, separate systems). */
export function actorSystemMermaid(systems: { title: string; edges: Edge[] }[] = [
  { title: "Courier app", edges: actorSystemEdges() },
  { title: "Dispatch console", edges: consoleSystemEdges() },
]): string {
  const lines = ["flowchart LR"];
  systems.forEach(({ title, edges }, index) => {
    lines.push(`  subgraph system${index + 1} [${title}]`);
    for (const edge of edges) lines.push(`    ${edge.from} ${edge.kind === "starts" ? "==>" : "-.->"}|${edge.label}| ${edge.to}`);
    lines.push("  end");
  });
  return lines.join("\n");
}

const BEGIN = "<!-- actor-system:begin (npm run architecture:docs) -->";
const END = "<!-- actor-system:end -->";

/** docs/architecture.md with the diagram between its markers. */
export function withDiagram(markdown: string, diagram = actorSystemMermaid()): string {
  const start = markdown.indexOf(BEGIN);
  const end = markdown.indexOf(END);
  if (start < 0 || end < start) throw new Error("docs/architecture.md has no actor-system markers");
  return `${markdown.slice(0, start + BEGIN.length)}\n\n\`\`\`mermaid\n${diagram}\n\`\`\`\n\n${markdown.slice(end)}`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  if (process.argv.includes("--write")) {
    const file = new URL("../../docs/architecture.md", import.meta.url);
    writeFileSync(file, withDiagram(readFileSync(file, "utf8")));
  } else {
    console.log(actorSystemMermaid());
  }
}
