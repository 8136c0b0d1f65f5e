/**
 * The planner (server/services/routing/planner) on problems small enough to
 * know the optimum by enumeration, on problems with tasks nobody can serve,
 * and by property: every plan it returns keeps every rule of
 * domain/planning.ts and accounts for every task.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { checkPlan, type PlanProblem, type PlanTask, type PlanVehicle } from "../../../domain/planning.ts";
import { seededRandom } from "../../../server/services/routing/prng.ts";
import { solvePlan } from "../../../server/services/routing/planner/index.ts";
import { problemFrom, problemInputs } from "./arbitrary.ts";
import { bruteForce } from "./brute-force.ts";
import { open, problemOn, vehicle, type Point } from "./support.ts";

function randomProblem(seed: number, options: { tasks: number; vehicles: number; pickups: boolean }): PlanProblem {
  const random = seededRandom(seed);
  const points: Point[] = Array.from({ length: 1 + 2 * options.tasks }, () => [Math.round(random() * 100), Math.round(random() * 100)]);
  const tasks: PlanTask[] = Array.from({ length: options.tasks }, (_, i) => {
    const from = Math.round(random() * 200);
    const window = { location: 1 + 2 * i, windowStart: from, windowEnd: from + 40 + Math.round(random() * 150), service: 5 };
    return {
      id: `t${i}`,
      ...(options.pickups ? { pickup: { location: 2 + 2 * i, windowStart: 0, windowEnd: 300, service: 5 } } : {}),
      delivery: window,
      size: 1 + Math.floor(random() * 3),
    };
  });
  const vehicles = Array.from({ length: options.vehicles }, (_, v) => vehicle(`v${v}`, { shiftEnd: 450, capacity: 4 }));
  return problemOn(points, tasks, vehicles);
}

describe("solvePlan on problems with a known optimum", () => {
  it.each([1, 2, 3, 4, 5, 6])("delivers from a depot as well as enumeration does (seed %i)", (seed) => {
    const problem = randomProblem(seed, { tasks: 5, vehicles: 2, pickups: false });
    const optimum = bruteForce(problem);
    const plan = solvePlan(problem, { timeLimitMs: 10_000, seed: 1, iterations: 1500 });
    const check = checkPlan(problem, plan);
    expect(check.problems).toEqual([]);
    expect({ served: check.served, vehicles: check.vehicles }).toEqual({ served: optimum.served, vehicles: optimum.vehicles });
    expect(check.distance).toBeCloseTo(optimum.distance, 6);
  });

  it.each([11, 12, 13, 14])("picks up and delivers as well as enumeration does (seed %i)", (seed) => {
    const problem = randomProblem(seed, { tasks: 3, vehicles: 2, pickups: true });
    const optimum = bruteForce(problem);
    const plan = solvePlan(problem, { timeLimitMs: 10_000, seed: 1, iterations: 1500 });
    const check = checkPlan(problem, plan);
    expect(check.problems).toEqual([]);
    expect({ served: check.served, vehicles: check.vehicles }).toEqual({ served: optimum.served, vehicles: optimum.vehicles });
    expect(check.distance).toBeCloseTo(optimum.distance, 6);
  });

  it("serves everything with one vehicle when one can", () => {
    const points: Point[] = [[0, 0], [10, 0], [-10, 0], [11, 0]];
    const problem = problemOn(points, [
      { id: "a", delivery: open(1), size: 1 },
      { id: "b", delivery: open(2), size: 1 },
      { id: "c", delivery: open(3), size: 1 },
    ], [vehicle("v"), vehicle("w")]);
    const plan = solvePlan(problem, { timeLimitMs: 5000, seed: 3, iterations: 500 });
    expect(plan.routes).toHaveLength(1);
    expect(plan.routes[0]!.distance).toBeCloseTo(bruteForce(problem).distance, 9);
  });

  it("keeps to maxVehicles", () => {
    const problem = randomProblem(7, { tasks: 6, vehicles: 3, pickups: false });
    const plan = solvePlan(problem, { timeLimitMs: 5000, seed: 1, iterations: 500, maxVehicles: 1 });
    expect(plan.routes.length).toBeLessThanOrEqual(1);
    expect(checkPlan(problem, plan, 1).problems).toEqual([]);
  });
});

describe("tasks nobody can serve", () => {
  const points: Point[] = [[0, 0], [10, 0], [100, 0], [20, 0]];
  const vehicles: PlanVehicle[] = [vehicle("v", { capacity: 3, shiftEnd: 150 })];

  it("says why: window, capacity, shift, unreachable", () => {
    const problem = problemOn(points, [
      { id: "fine", delivery: open(1), size: 1 },
      { id: "too-early", delivery: open(2, 0, 0, 50), size: 1 },        // 100 away, due at 50
      { id: "too-big", delivery: open(1), size: 4 },                    // capacity 3
      { id: "too-late", delivery: open(2, 0, 0, 140), size: 1 },        // reached at 100, home only at 200 > 150
    ], vehicles);
    const islands = problem.travel.map((row) => row.slice());
    islands[0]![3] = Infinity;
    islands[1]![3] = Infinity;
    islands[2]![3] = Infinity;
    const withIsland: PlanProblem = { ...problem, travel: islands, tasks: [...problem.tasks, { id: "island", delivery: open(3), size: 1 }] };
    const plan = solvePlan(withIsland, { timeLimitMs: 5000, seed: 1, iterations: 200 });
    expect(plan.routes.map((route) => route.stops.map((stop) => stop.taskId))).toEqual([["fine"]]);
    expect(Object.fromEntries(plan.unassigned.map((entry) => [entry.taskId, entry.reason]))).toEqual({ "too-early": "window", "too-big": "capacity", "too-late": "shift", island: "unreachable" });
  });

  it("blames the load on board when a route would take the task but for capacity", () => {
    // One vehicle of capacity 2, three parcels that fit alone: one must stay behind, for capacity.
    const problem = problemOn(points, [1, 2, 3].map((i) => ({ id: `p${i}`, delivery: open(1), size: 1 })), [vehicle("v", { capacity: 2 })]);
    const plan = solvePlan(problem, { timeLimitMs: 5000, seed: 1, iterations: 200 });
    expect(plan.unassigned).toHaveLength(1);
    expect(plan.unassigned[0]!.reason).toBe("capacity");
  });

  it("blames the window when the other tasks' times are in the way", () => {
    // Both due at 10 at opposite places 10 away: one vehicle serves one of them.
    const problem = problemOn([[0, 0], [10, 0], [-10, 0]], [
      { id: "east", delivery: open(1, 0, 0, 10), size: 1 },
      { id: "west", delivery: open(2, 0, 0, 10), size: 1 },
    ], [vehicle("v")]);
    const plan = solvePlan(problem, { timeLimitMs: 5000, seed: 1, iterations: 200 });
    expect(plan.unassigned.map((entry) => entry.reason)).toEqual(["window"]);
  });
});

describe("every plan keeps the rules (property)", () => {
  it("is feasible by domain/planning.ts and serves or lists every task once", () => {
    fc.assert(
      fc.property(problemInputs, (input) => {
        const problem = problemFrom(input);
        const plan = solvePlan(problem, { timeLimitMs: 10_000, seed: input.seed, iterations: 150, maxVehicles: input.maxVehicles });
        const check = checkPlan(problem, plan, Math.min(problem.vehicles.length, input.maxVehicles ?? Infinity));
        expect(check.problems).toEqual([]);
        for (const route of plan.routes) expect(route.stops.length).toBeGreaterThan(0);
      }),
      { numRuns: 150, seed: 20261125 },
    );
  });
});
