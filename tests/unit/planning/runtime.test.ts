/**
 * The planner's promises beyond quality: it keeps its time limit, it is
 * deterministic given a seed and an iteration budget, the worker thread
 * answers exactly what the caller's thread does, and the benchmark command's
 * output on a shipped instance is feasible when recomputed here, from the
 * instance file alone.
 */
import { execFile } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { checkPlan } from "../../../domain/planning.ts";
import { solvePlan, solvePlanInWorker } from "../../../server/services/routing/planner/index.ts";
import { realisticDay } from "../../../scripts/planning/realistic.ts";

const ROOT = path.resolve(import.meta.dirname, "../../..");
const INSTANCE = [path.resolve(ROOT, "../shared/benchmarks"), path.resolve(ROOT, "../../shared/benchmarks")]
  .map((dir) => path.join(dir, "pdptw/li_lim_100/lc101.txt"))
  .find((file) => existsSync(file));

describe("the planner's time and repeatability", () => {
  it("stops at its time limit with the best plan so far", () => {
    const problem = realisticDay({ orders: 400 });
    const started = performance.now();
    const plan = solvePlan(problem, { timeLimitMs: 1000, seed: 1 });
    const elapsed = performance.now() - started;
    // An upper bound, not a timing benchmark: the limit and a generous margin for a busy machine.
    expect(elapsed).toBeLessThanOrEqual(1500);
    expect(checkPlan(problem, plan).problems).toEqual([]);
  });

  it("gives the same plan for the same seed and iteration budget, another for another seed", () => {
    const problem = realisticDay({ orders: 60, pharmacies: 4, couriers: 3, seed: 7 });
    const options = { timeLimitMs: 60_000, seed: 42, iterations: 300 };
    const first = solvePlan(problem, options);
    expect(solvePlan(problem, options)).toEqual(first);
    expect(solvePlan(problem, { ...options, seed: 43 })).not.toEqual(first);
  });

  it("answers from a worker thread exactly what it answers in the caller's thread", async () => {
    const problem = realisticDay({ orders: 60, pharmacies: 4, couriers: 3, seed: 8 });
    const options = { timeLimitMs: 60_000, seed: 5, iterations: 300 };
    const inWorker = await solvePlanInWorker(problem, options);
    expect(inWorker).toEqual(solvePlan(problem, options));
    expect(inWorker.routes.length).toBeGreaterThan(0);
  });

  it("rejects from the worker with the planner's own error", async () => {
    await expect(solvePlanInWorker({ travel: [[0]], distance: [[0]], vehicles: [], tasks: [] }, { timeLimitMs: 0 })).rejects.toThrow("The time limit must be a positive number of milliseconds.");
  });
});

/** Li & Lim's rules recomputed from the file: Euclidean doubles, waiting allowed, due dates, depot return, capacity, pairs. */
function recompute(text: string, routes: number[][]): { problems: string[]; distance: number } {
  const lines = text.trim().split(/\r?\n/).map((line) => line.trim().split(/\s+/).map(Number));
  const capacity = lines[0]![1]!;
  const node = new Map(lines.slice(1).map((row) => [row[0]!, row]));
  const depot = node.get(0)!;
  const problems: string[] = [];
  const seen = new Set<number>();
  let distance = 0;
  for (const route of routes) {
    let [x, y, time, load] = [depot[1]!, depot[2]!, depot[4]!, 0];
    const where = new Map(route.map((n, i) => [n, i]));
    for (const n of route) {
      const row = node.get(n)!;
      if (seen.has(n)) problems.push(`${n} twice`);
      seen.add(n);
      const hop = Math.sqrt((row[1]! - x) ** 2 + (row[2]! - y) ** 2);
      distance += hop;
      time = Math.max(time + hop, row[4]!);
      if (time > row[5]!) problems.push(`${n} late`);
      time += row[6]!;
      load += row[3]!;
      if (load > capacity) problems.push(`${n} over capacity`);
      if (row[7]! > 0 && !((where.get(row[7]!) ?? Infinity) < where.get(n)!)) problems.push(`${n} before its pickup`);
      [x, y] = [row[1]!, row[2]!];
    }
    const back = Math.sqrt((depot[1]! - x) ** 2 + (depot[2]! - y) ** 2);
    distance += back;
    if (time + back > depot[5]!) problems.push("back late");
  }
  for (const n of node.keys()) if (n !== 0 && !seen.has(n)) problems.push(`${n} not visited`);
  return { problems, distance };
}

describe.runIf(INSTANCE)("npm run plan:benchmark", () => {
  it("prints one JSON object whose routes are feasible when recomputed from the instance", async () => {
    const { stdout } = await promisify(execFile)(process.execPath, ["--import", "tsx", "scripts/planning/benchmark.ts", "--format", "lilim", "--vehicles", "10", "--seconds", "20", "--iterations", "1500", INSTANCE!], { cwd: ROOT });
    const output = JSON.parse(stdout) as { routes: number[][]; distance: number; vehicles: number };
    const recomputed = recompute(readFileSync(INSTANCE!, "utf8"), output.routes);
    expect(recomputed.problems).toEqual([]);
    expect(output.routes.length).toBeLessThanOrEqual(10);
    expect(output.vehicles).toBe(output.routes.length);
    expect(output.distance).toBeCloseTo(recomputed.distance, 6);
  }, 30_000);
});
