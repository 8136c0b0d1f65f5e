import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import vm from "node:vm";
import { transformSync } from "esbuild";
import { describe, expect, it, vi } from "vitest";
import * as xstate from "xstate";
import { createActor, getStateNodes, type AnyMachineSnapshot, type AnyStateMachine, type EventObject } from "xstate";
import { getShortestPaths } from "xstate/graph";
import { demoEvents, demoMachine, type Demo } from "../../scripts/machines/demo-kit.ts";
import { discoverMachines, isStateMachine, ROOT } from "../../scripts/machines/discover.ts";
import { demoFile } from "../../scripts/machines/viz-source.ts";

/**
 * Each docs/machines/*.viz.ts is evaluated as the visualizer evaluates it: a
 * fresh VM context where xstate is the only module there is. Its shortest
 * paths (xstate/graph, over the file's own demoEvents) are walked on live
 * actors, which must reach every state the model reaches; the states reached
 * must be the real machine's for the same demo, and the branches the demo
 * input implies are checked by name.
 */

const DOCS = path.join(ROOT, "docs/machines");
// One clock in the copy and in the real machine, so contexts with timestamps compare.
const NOW = "2026-11-24T15:30:00.000Z";
vi.useFakeTimers({ toFake: ["Date"], now: new Date(NOW) });

interface VizCopy {
  machine: AnyStateMachine;
  events: EventObject[];
}

function evaluateCopy(file: string): VizCopy {
  const { code } = transformSync(readFileSync(file, "utf8"), { loader: "ts", format: "cjs" });
  const context = vm.createContext({});
  vm.runInContext(
    `const RealDate = Date;
     globalThis.Date = class extends RealDate {
       constructor(...args) { super(...(args.length ? args : [${JSON.stringify(NOW)}])); }
       static now() { return RealDate.parse(${JSON.stringify(NOW)}); }
     };`,
    context,
  );
  const run = vm.runInContext(`(function (require, module, exports) {\n${code}\n})`, context) as (
    require: (id: string) => unknown,
    module: { exports: Record<string, unknown> },
    exports: Record<string, unknown>,
  ) => void;
  const module = { exports: {} as Record<string, unknown> };
  run(
    (id) => {
      if (id === "xstate") return xstate;
      throw new Error(`${path.basename(file)} imports ${id}: only xstate is available in the visualizer`);
    },
    module,
    module.exports,
  );
  const machine = Object.values(module.exports).find(isStateMachine);
  if (!machine) throw new Error(`${path.basename(file)} exports no machine`);
  const events = module.exports.demoEvents as EventObject[] | undefined;
  if (!Array.isArray(events) || events.length === 0) throw new Error(`${path.basename(file)} exports no demoEvents`);
  return { machine, events };
}

const activeIds = (snapshot: AnyMachineSnapshot) => getStateNodes(snapshot.machine.root, snapshot.value).map((node) => node.id);
const shape = (snapshot: AnyMachineSnapshot) => JSON.stringify({ value: snapshot.value, context: snapshot.context, status: snapshot.status });

const SETTLES = /^xstate\.done\.actor\./;

/**
 * The model of a copy: its stand-ins answer at once, so while a call runs
 * its answer is the only thing that can happen (nobody can click before it),
 * and of two calls the one started first answers first.
 */
function modelPaths(machine: AnyStateMachine, events: EventObject[]) {
  return getShortestPaths(machine, {
    events: (snapshot) => {
      if (snapshot.status !== "active") return [];
      const possible = events.filter((event) => snapshot.can(event));
      const settles = possible.filter((event) => SETTLES.test(event.type));
      if (settles.length === 0) return possible;
      // Calls settle in the order they started, which is the order of the snapshot's children.
      const started = Object.keys(snapshot.children);
      const order = (event: EventObject) => started.indexOf(event.type.replace(SETTLES, ""));
      return [settles.reduce((first, event) => (order(event) < order(first) ? event : first))];
    },
    limit: 20_000,
  });
}

const nextTick = () => new Promise((resolve) => setTimeout(resolve, 0));

/**
 * One path on a live actor: a courier's event is sent; a call's answer is not
 * sent but awaited, since the copy's own stand-in gives it. A live actor goes
 * on at once to the next call its stand-in answers, so each step must be one
 * of the snapshots the actor went through since the step before (context
 * included), in order.
 */
async function walk(machine: AnyStateMachine, steps: ReadonlyArray<{ event: EventObject; state: AnyMachineSnapshot }>): Promise<string[]> {
  const actor = createActor(machine);
  const seen: AnyMachineSnapshot[] = [];
  const reached: string[] = [];
  actor.subscribe({ next: (snapshot) => seen.push(snapshot), error: () => undefined });
  actor.start();
  seen.push(actor.getSnapshot());
  let from = 0;
  try {
    for (const [index, { event, state }] of steps.entries()) {
      if (index > 0) {
        if (SETTLES.test(event.type)) {
          await nextTick();
          await nextTick();
        } else {
          actor.send(event);
        }
      }
      const shapes = seen.slice(from).map(shape);
      const at = shapes.indexOf(shape(state));
      expect(at, `after ${steps.slice(1, index + 1).map((step) => step.event.type).join(" → ") || "start"}: ${shape(state)}`).toBeGreaterThanOrEqual(0);
      from += at;
      reached.push(...activeIds(seen[from]!));
    }
  } finally {
    actor.stop();
  }
  return reached;
}

/** What each demo input implies, by name: states its branches reach and states they skip. */
const BRANCHES: Record<string, { reaches: string[]; skips: string[] }> = {
  "delivery-flow": {
    reaches: ["deliveryFlow.steps.address", "deliveryFlow.steps.recipient", "deliveryFlow.steps.signature", "deliveryFlow.finished", "deliveryFlow.attempted"],
    // No date-of-birth check, no ID, nothing owed: the first branches of PRESENT_AT_ADDRESS and of CONTINUE are not taken.
    skips: ["deliveryFlow.steps.verifyDob", "deliveryFlow.steps.idVerification", "deliveryFlow.steps.payment"],
  },
  // The pharmacy may not skip copay collection: 'unable to pay' never offers the skip.
  payment: { reaches: ["payment.choosing", "payment.card", "payment.confirmingFailure"], skips: ["payment.confirmingSkip"] },
  // Order 4101 is still to pick up: not already handled.
  "verify-order": { reaches: ["verifyOrder.editing", "verifyOrder.pickedUp"], skips: ["verifyOrder.alreadyHandled"] },
  // The link carries a token.
  "set-password": { reaches: ["setPassword.editing", "setPassword.done"], skips: ["setPassword.noInvite", "setPassword.inviteUnusable"] },
  // Items and cash to return, nothing waiting offline.
  returns: { reaches: ["returns.summary", "returns.signing", "returns.done"], skips: ["returns.blocked", "returns.nothingToReturn"] },
  // Continue only once 4101 is verified.
  "check-in": { reaches: ["checkIn.confirmingOrders.arrived", "checkIn.deliveries", "checkIn.scanning"], skips: [] },
};

const files = readdirSync(DOCS)
  .filter((file) => file.endsWith(".viz.ts"))
  .sort();
const entries = await discoverMachines();

describe("docs/machines/*.viz.ts in a fresh VM with only xstate", () => {
  it("exist for every machine", () => {
    expect(entries.length).toBeGreaterThan(0);
    expect(files).toEqual(expect.arrayContaining(entries.map((entry) => `${entry.name}.viz.ts`)));
  });

  for (const file of files) {
    const name = file.replace(/\.viz\.ts$/, "");

    it(`${file}: its shortest paths walk on live actors, reaching every state its model reaches`, async () => {
      const copy = evaluateCopy(path.join(DOCS, file));
      const paths = modelPaths(copy.machine, copy.events);
      expect(paths.length).toBeGreaterThan(1);
      const modelled = new Set(paths.flatMap((p) => activeIds(p.state)));
      const walked = new Set<string>();
      for (const p of paths) (await walk(copy.machine, p.steps)).forEach((id) => walked.add(id));
      expect([...walked].sort()).toEqual([...modelled].sort());

      const branches = BRANCHES[name];
      if (branches) {
        expect([...modelled]).toEqual(expect.arrayContaining(branches.reaches));
        for (const skipped of branches.skips) expect([...modelled], `${file} should never enter ${skipped}`).not.toContain(skipped);
      }
    });

    it(`${file}: reaches what the real machine reaches for the same demo`, async () => {
      const entry = entries.find((candidate) => candidate.name === name);
      expect(entry, `${file} belongs to no machine`).toBeDefined();
      const demo = ((await import(path.join(ROOT, demoFile(name)))) as { default: Demo }).default;
      const real = modelPaths(demoMachine(demo), demoEvents(demo));
      const copy = evaluateCopy(path.join(DOCS, file));
      const viz = modelPaths(copy.machine, copy.events);
      expect(viz.map((p) => shape(p.state)).sort()).toEqual(real.map((p) => shape(p.state)).sort());
    });
  }
});
