import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { discoverMachines, isStateMachine, ROOT, type MachineEntry } from "../../scripts/machines/discover.ts";
import type { ModelTestReport } from "../../scripts/machines/test-paths.ts";
import { and, not } from "xstate";
import { activeStateIds, deepestActive, layeredChildren } from "../../src/features/machines/chart-layout.ts";
import { allStates, conditionWords, machineModel, readGuard } from "../../src/features/machines/machine-model.ts";

/**
 * docs/machines/ is generated from the machines: this regenerates it in memory
 * (scripts/machines/docs.ts --json-out, in its own process because it loads the
 * machine tests outside Vitest to count their paths) and compares it with the
 * committed files; each visualizer copy must define the same machine as the
 * real one; every machine must have a model-based test that checks full coverage.
 */

const FIX = "Run `npm run machines:export && npm run machines:docs` and commit docs/machines/.";
const DOCS = "docs/machines";

interface Generated {
  files: Record<string, string>;
  reports: Record<string, ModelTestReport>;
}

let generated: Generated;
let entries: MachineEntry[];
const scratch = mkdtempSync(path.join(tmpdir(), "machine-docs-"));

beforeAll(async () => {
  const out = path.join(scratch, "generated.json");
  execFileSync(process.execPath, ["--import", "tsx", "scripts/machines/docs.ts", "--json-out", out], {
    cwd: ROOT,
    stdio: ["ignore", "ignore", "pipe"],
    timeout: 240_000,
  });
  generated = JSON.parse(readFileSync(out, "utf8")) as Generated;
  entries = await discoverMachines();
}, 300_000);

afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe("docs/machines", () => {
  it("documents every machine file", () => {
    expect(entries.length).toBeGreaterThan(0);
    for (const entry of entries) {
      expect(Object.keys(generated.files)).toContain(`${DOCS}/${entry.name}.md`);
      expect(Object.keys(generated.files)).toContain(`${DOCS}/${entry.name}.viz.ts`);
    }
  });

  it("is up to date with the machines", () => {
    const stale = Object.entries(generated.files)
      .filter(([file, content]) => {
        const onDisk = path.join(ROOT, file);
        return !existsSync(onDisk) || readFileSync(onDisk, "utf8") !== content;
      })
      .map(([file]) => `${file} is out of date`);
    const leftOver = readdirSync(path.join(ROOT, DOCS))
      .map((file) => `${DOCS}/${file}`)
      .filter((file) => (file.endsWith(".md") || file.endsWith(".viz.ts")) && !(file in generated.files))
      .map((file) => `${file} belongs to no machine`);
    expect([...stale, ...leftOver], `docs/machines is not what the machines generate. ${FIX}`).toEqual([]);
  });

  it("gives each visualizer copy the real machine's states, transitions, guards and actors", async () => {
    for (const entry of entries) {
      const file = path.join(ROOT, DOCS, `${entry.name}.viz.ts`);
      expect(existsSync(file), `${DOCS}/${entry.name}.viz.ts is missing. ${FIX}`).toBe(true);
      const source = readFileSync(file, "utf8");
      // Self-contained: xstate is its only import.
      expect([...source.matchAll(/^import .* from "([^"]+)";$/gm)].map((match) => match[1])).toEqual(["xstate"]);
      const copy = Object.values((await import(pathToFileURL(file).href)) as Record<string, unknown>).find(isStateMachine);
      expect(copy, `${entry.name}.viz.ts exports no machine`).toBeDefined();
      expect(machineModel(copy!), `${DOCS}/${entry.name}.viz.ts differs from ${entry.file}. ${FIX}`).toEqual(machineModel(entry.machine));
      // Same names in setup(), so the visualizer shows what the app provides.
      for (const kind of ["guards", "actions", "actors", "delays"] as const) {
        expect(Object.keys(copy!.implementations[kind]).sort(), `${entry.name} ${kind}`).toEqual(Object.keys(entry.machine.implementations[kind]).sort());
      }
    }
  });
});

describe("model-based tests", () => {
  it("exist for every machine and check that every state and transition is covered", () => {
    const problems = entries.flatMap((entry) => {
      const report = generated.reports[entry.name];
      const testFile = `tests/unit/machines/${entry.name}.test.ts`;
      if (!report?.exists) return [`${entry.file} has no model-based test: write ${testFile}`];
      return [
        ...(report.checksFullCoverage ? [] : [`${testFile} never calls expectFullCoverage or expectFullCoverageAcross`]),
        ...(report.paths > 0 ? [] : [`${testFile} builds no paths with transitionCoverPaths`]),
      ];
    });
    expect(problems).toEqual([]);
  });
});

describe("reading a machine (what the docs and /machines show)", () => {
  const flow = () => entries.find((entry) => entry.machine.id === "deliveryFlow")!.machine;

  it("reads guards as written and in words: names, and/not, params", () => {
    expect(readGuard("dobVerificationEnabled")).toEqual({ text: "dobVerificationEnabled", words: "date of birth verification enabled" });
    expect(readGuard(and(["recipientComplete", not("paymentDue")]))).toEqual({
      text: "recipientComplete and not paymentDue",
      words: "recipient complete and not payment due",
    });
    expect(readGuard({ type: "resumesAt", params: { place: "verifyDob" } })).toEqual({ text: "resumesAt(verifyDob)", words: "resumes at: verifyDob" });
    expect(readGuard({ type: "needsReload", params: () => ({}) })).toEqual({ text: "needsReload", words: "needs reload" });
  });

  it("labels invoke results, eventless transitions and the fallback branch", () => {
    const model = machineModel(flow());
    const states = allStates(model);
    const payment = states.find((state) => state.path === "steps.payment")!;
    expect(payment.transitions.map((t) => t.label)).toEqual(["done: payment", "done: payment", "always"]);
    expect(conditionWords(payment.transitions[1]!, payment)).toBe("otherwise");
    expect(payment.invokes).toEqual([{ id: "payment", src: "payment" }]);
  });

  it("marks the states a reported state value is in, ignoring keys the machine does not have", () => {
    const model = machineModel(flow());
    const active = activeStateIds(model, { steps: { recipient: "editing" }, gone: "x" });
    expect([...active].sort()).toEqual(["deliveryFlow.steps", "deliveryFlow.steps.recipient", "deliveryFlow.steps.recipient.editing"]);
    expect(deepestActive(model, active).map((state) => state.path)).toEqual(["steps.recipient.editing"]);
    expect(activeStateIds(model, null).size).toBe(0);
  });

  it("lays a state's children out in layers from its first state", () => {
    const model = machineModel(flow());
    const order = layeredChildren(model.root).map((state) => state.key);
    // The delivery opens at starting (fresh, or where a draft left the courier), then the steps.
    expect(order.slice(0, 2)).toEqual(["starting", "steps"]);
    expect(order.indexOf("submitting")).toBeLessThan(order.indexOf("attempted"));
    expect(new Set(order)).toEqual(new Set(model.root.children.map((state) => state.key)));
  });
});
