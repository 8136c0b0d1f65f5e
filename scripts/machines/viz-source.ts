import { and, not, or, type AnyActorLogic, type AnyStateMachine } from "xstate";
import { isStateMachine, type MachineEntry } from "./discover.ts";

/**
 * A machine as self-contained TypeScript for the Stately visualizer: the
 * real machine's config, written out from the machine object itself, and a
 * setup() with the same guard, action, actor and delay names whose
 * implementations are stand-ins (the visualizer draws names, it runs nothing
 * of the app). Functions the config computes at run time (context, invoke
 * input, output, params) are left out; any other function in the config is an
 * unnamed guard or action, which the conventions forbid, and fails the export.
 */

const COMBINATOR_CHECKS = new Map<unknown, string>([
  [(and([]) as unknown as { check: unknown }).check, "and"],
  [(or([]) as unknown as { check: unknown }).check, "or"],
  [(not("x") as unknown as { check: unknown }).check, "not"],
]);

/** Config keys whose function values are run-time computations, not structure. */
const COMPUTED_KEYS = new Set(["context", "input", "output", "params"]);

const WIDTH = 100;

class Writer {
  readonly helpers = new Set<string>();

  constructor(private readonly where: string) {}

  value(value: unknown, indent: string, path: string): string | undefined {
    if (value === undefined) return undefined;
    if (value === null || typeof value === "number" || typeof value === "boolean" || typeof value === "string") return JSON.stringify(value);
    if (typeof value === "function") return this.fn(value, indent, path);
    if (Array.isArray(value)) return this.array(value, indent, path);
    if (typeof value === "object") {
      if (isStateMachine(value) || typeof (value as { transition?: unknown }).transition === "function") {
        throw new Error(`${this.where}: inline actor logic at ${path}: name it in setup({ actors }) and refer to it by name.`);
      }
      return this.object(value as Record<string, unknown>, indent, path);
    }
    throw new Error(`${this.where}: cannot write ${typeof value} at ${path}`);
  }

  private fn(value: object, indent: string, path: string): string {
    const combinator = COMBINATOR_CHECKS.get((value as unknown as { check?: unknown }).check);
    if (combinator) {
      this.helpers.add(combinator);
      const guards = (value as unknown as { guards: unknown[] }).guards;
      const inner = combinator === "not" ? this.value(guards[0], indent, `${path}.not`)! : this.array(guards, indent, `${path}.${combinator}`);
      return `${combinator}(${inner})`;
    }
    const action = value as unknown as { type?: string; event?: unknown; delay?: unknown; id?: unknown };
    if (action.type === "xstate.raise" && typeof action.event === "object" && action.delay === undefined && action.id === undefined) {
      this.helpers.add("raise");
      return `raise(${this.value(action.event, indent, `${path}.raise`)})`;
    }
    throw new Error(`${this.where}: an inline function at ${path}: give it a name in setup() and refer to it by name.`);
  }

  private array(items: readonly unknown[], indent: string, path: string): string {
    const inner = `${indent}  `;
    const parts = items.map((item, index) => this.value(item, inner, `${path}[${index}]`) ?? "undefined");
    const flat = `[${parts.join(", ")}]`;
    if (!flat.includes("\n") && indent.length + flat.length <= WIDTH) return flat;
    return `[\n${parts.map((part) => `${inner}${part},`).join("\n")}\n${indent}]`;
  }

  object(record: Record<string, unknown>, indent: string, path: string): string {
    const inner = `${indent}  `;
    const parts: string[] = [];
    for (const [key, raw] of Object.entries(record)) {
      if (typeof raw === "function" && COMPUTED_KEYS.has(key)) continue;
      const written = this.value(raw, inner, `${path}.${key}`);
      if (written === undefined) continue;
      parts.push(`${/^[A-Za-z_$][\w$]*$/.test(key) ? key : JSON.stringify(key)}: ${written}`);
    }
    if (parts.length === 0) return "{}";
    const flat = `{ ${parts.join(", ")} }`;
    if (!flat.includes("\n") && indent.length + flat.length <= WIDTH) return flat;
    return `{\n${parts.map((part) => `${inner}${part},`).join("\n")}\n${indent}}`;
  }
}

/** A promise actor settles on xstate.promise.resolve; probing its transition tells it from other logic. */
function isPromiseLogic(logic: AnyActorLogic): boolean {
  try {
    const scope = { self: {}, system: {}, emit: () => {} } as never;
    const initial = logic.getInitialSnapshot(scope, undefined);
    return logic.transition(initial, { type: "xstate.promise.resolve", data: undefined } as never, scope).status === "done";
  } catch {
    return false;
  }
}

function actionStandIn(implementation: unknown, writer: Writer): string {
  const action = implementation as { type?: string; event?: unknown; delay?: unknown; id?: unknown };
  if (action?.type === "xstate.assign") {
    writer.helpers.add("assign");
    return "assign({})";
  }
  if (action?.type === "xstate.raise" && typeof action.event === "object" && action.delay === undefined && action.id === undefined) {
    writer.helpers.add("raise");
    return `raise(${writer.value(action.event, "    ", "raise")})`;
  }
  return "() => {}";
}

function actorStandIn(logic: AnyActorLogic, writer: Writer, machineFiles: Map<AnyStateMachine, string>): string {
  if (isStateMachine(logic)) {
    writer.helpers.add("createMachine");
    const file = machineFiles.get(logic);
    return `createMachine({ id: ${JSON.stringify(logic.id)} })${file ? ` /* the real one: ${file}.viz.ts */` : ""}`;
  }
  if (isPromiseLogic(logic)) {
    writer.helpers.add("fromPromise");
    return "fromPromise(async () => undefined)";
  }
  writer.helpers.add("fromCallback");
  return "fromCallback(() => {})";
}

function section(name: string, entries: [string, string][]): string | null {
  if (entries.length === 0) return null;
  const key = (k: string) => (/^[A-Za-z_$][\w$]*$/.test(k) ? k : JSON.stringify(k));
  return `  ${name}: {\n${entries.map(([k, v]) => `    ${key(k)}: ${v},`).join("\n")}\n  },`;
}

export function vizSource(entry: MachineEntry, all: readonly MachineEntry[]): string {
  const { machine } = entry;
  const writer = new Writer(entry.file);
  writer.helpers.add("setup");
  const config = writer.object(machine.config as Record<string, unknown>, "", machine.id);
  const implementations = machine.implementations as {
    guards: Record<string, unknown>;
    actions: Record<string, unknown>;
    actors: Record<string, AnyActorLogic>;
    delays: Record<string, unknown>;
  };
  const machineFiles = new Map(all.map((other) => [other.machine, other.name] as const));
  const setupParts = [
    section("guards", Object.keys(implementations.guards).map((name) => [name, "() => true"])),
    section("actions", Object.entries(implementations.actions).map(([name, action]) => [name, actionStandIn(action, writer)])),
    section("actors", Object.entries(implementations.actors).map(([name, logic]) => [name, actorStandIn(logic, writer, machineFiles)])),
    section("delays", Object.entries(implementations.delays).map(([name, delay]) => [name, typeof delay === "number" ? String(delay) : "1000"])),
  ].filter((part): part is string => part !== null);
  const imports = [...writer.helpers].sort();
  return [
    `// Generated by \`npm run machines:export\` from ${entry.file}: do not edit; run the command again.`,
    "// Paste this whole file into the Stately visualizer (https://stately.ai/viz).",
    "// The states, transitions, descriptions and the names of guards, actions and actors are the real machine's.",
    "// Their implementations are stand-ins: guards pass, actions and actors do nothing; context, invoke input",
    "// and params are computed by the app at run time and are left out.",
    `import { ${imports.join(", ")} } from "xstate";`,
    "",
    `export const ${entry.exportName} = setup({`,
    ...setupParts,
    `}).createMachine(${config});`,
    "",
  ].join("\n");
}
