import { existsSync, readFileSync } from "node:fs";
import { register } from "node:module";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { allStateIds, allTransitionKeys, coverageOf } from "../../tests/support/model-coverage.ts";
import { ROOT, type MachineEntry } from "./discover.ts";
import { recordedTraversals } from "./model-coverage-probe.ts";
import { vi } from "./vitest-stand-in.ts";

/**
 * How many paths each machine's model-based test replays, counted the way the
 * test makes them: its own file is loaded (collected, not run, see
 * vitest-stand-in.ts) and every transitionCoverPaths result is recorded;
 * their coverage is measured with the same coverageOf as expectFullCoverage.
 */

export interface ModelTestReport {
  testFile: string;
  exists: boolean;
  /** The test calls expectFullCoverage or expectFullCoverageAcross. */
  checksFullCoverage: boolean;
  /** transitionCoverPaths calls (one per input or scenario). */
  traversals: number;
  paths: number;
  states: { covered: number; total: number };
  transitions: { covered: number; total: number };
  /** States never entered and transitions never taken by these paths. */
  missing: string[];
}

const url = (file: string) => pathToFileURL(path.join(ROOT, file)).href;
let registered = false;

function registerProbe(): void {
  if (registered) return;
  registered = true;
  register(url("scripts/machines/probe-hooks.ts"), {
    data: {
      vitestStandIn: url("scripts/machines/vitest-stand-in.ts"),
      modelCoverage: url("tests/support/model-coverage.ts"),
      probe: url("scripts/machines/model-coverage-probe.ts"),
    },
  });
}

export const modelTestFile = (name: string) => `tests/unit/machines/${name}.test.ts`;

export async function modelTestReport(entry: MachineEntry): Promise<ModelTestReport> {
  registerProbe();
  const testFile = modelTestFile(entry.name);
  // The machine itself is always entered: the states counted are the ones inside it.
  const stateIds = allStateIds(entry.machine).filter((id) => id !== entry.machine.root.id);
  const transitionKeys = allTransitionKeys(entry.machine);
  const empty = { testFile, exists: false, checksFullCoverage: false, traversals: 0, paths: 0 };
  if (!existsSync(path.join(ROOT, testFile))) {
    return { ...empty, states: { covered: 0, total: stateIds.length }, transitions: { covered: 0, total: transitionKeys.length }, missing: [] };
  }
  const source = readFileSync(path.join(ROOT, testFile), "utf8");
  const before = recordedTraversals().length;
  try {
    await import(url(testFile));
  } finally {
    // A test that fakes Date for its own paths must not fake it for the next one.
    (vi as { useRealTimers(): void }).useRealTimers();
  }
  const traversals = recordedTraversals()
    .slice(before)
    .filter((traversal) => traversal.machine === entry.machine);
  const states = new Set<string>();
  const transitions = new Set<string>();
  for (const { input, paths } of traversals) {
    const coverage = coverageOf(entry.machine, paths, input);
    coverage.states.forEach((id) => states.add(id));
    coverage.transitions.forEach((key) => transitions.add(key));
  }
  const missing = [
    ...stateIds.filter((id) => !states.has(id)).map((id) => `state never entered: ${id}`),
    ...transitionKeys.filter((key) => !transitions.has(key)).map((key) => `transition never taken: ${key}`),
  ];
  return {
    testFile,
    exists: true,
    checksFullCoverage: /\bexpectFullCoverage(Across)?\s*\(/.test(source),
    traversals: traversals.length,
    paths: traversals.reduce((sum, traversal) => sum + traversal.paths.length, 0),
    states: { covered: stateIds.filter((id) => states.has(id)).length, total: stateIds.length },
    transitions: { covered: transitionKeys.filter((key) => transitions.has(key)).length, total: transitionKeys.length },
    missing,
  };
}
