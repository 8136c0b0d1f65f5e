/**
 * The planner's local search (server/services/routing/planner/local-search.ts):
 * relocate and exchange find the moves they are for, and by property no move
 * ever leaves a route that domain/planning.ts finds infeasible, loses or
 * duplicates a task, or lengthens the plan.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { evaluateRoute, type PlanProblem, type StopRef } from "../../../domain/planning.ts";
import { seededRandom } from "../../../server/services/routing/prng.ts";
import { LocalSearch } from "../../../server/services/routing/planner/local-search.ts";
import { buildModel } from "../../../server/services/routing/planner/model.ts";
import { Solution } from "../../../server/services/routing/planner/solution.ts";
import { problemFrom, problemInputs } from "./arbitrary.ts";
import { open, problemOn, vehicle } from "./support.ts";

/** A solution holding the given routes (task indices in visiting order; a pickup written as -1 - task). */
function solutionWith(problem: PlanProblem, routes: number[][]): { solution: Solution; moves: LocalSearch } {
  const model = buildModel(problem);
  const solution = new Solution(model);
  const nodes = routes.map((stops, v) => [model.startNode[v]!, ...stops.map((s) => (s >= 0 ? s : model.taskCount - 1 - s)), model.endNode[v]!]);
  while (nodes.length < model.vehicleCount) nodes.push([model.startNode[nodes.length]!, model.endNode[nodes.length]!]);
  solution.restore({ routes: nodes, unassigned: [] });
  return { solution, moves: new LocalSearch(solution, new Int32Array(0), 0, seededRandom(1)) };
}

function stopsOf(solution: Solution, routeIndex: number): number[] {
  return solution.routes[routeIndex]!.nodes.slice(1, -1).map((node) => solution.model.task[node]!);
}

/** Each route judged by the rules themselves, not by the solver's own checks. */
function judge(problem: PlanProblem, solution: Solution): { feasible: boolean; distance: number; served: number[]; vehicles: number } {
  const m = solution.model;
  let feasible = true;
  let distance = 0;
  let vehicles = 0;
  const served: number[] = [];
  for (const route of solution.routes) {
    if (route.nodes.length <= 2) continue;
    vehicles++;
    const stops: StopRef[] = route.nodes.slice(1, -1).map((node) => ({ taskId: problem.tasks[m.task[node]!]!.id, kind: m.isPickup[node] ? "pickup" : "delivery" }));
    const judged = evaluateRoute(problem, problem.vehicles[route.vehicle]!, stops);
    feasible &&= judged.feasible;
    distance += judged.distance;
    for (const node of route.nodes) if (m.task[node]! >= 0 && !m.isPickup[node]) served.push(m.task[node]!);
  }
  return { feasible, distance, served: served.sort((a, b) => a - b), vehicles };
}

describe("relocate", () => {
  it("moves a task to its cheapest place, within its route (Or-opt) or to another", () => {
    // On a line: 0 depot, tasks at 10, 20, 30; the route visits 20, 10, 30 (a detour of 20).
    const problem = problemOn([[0, 0], [10, 0], [20, 0], [30, 0]], [
      { id: "a", delivery: open(1), size: 1 },
      { id: "b", delivery: open(2), size: 1 },
      { id: "c", delivery: open(3), size: 1 },
    ], [vehicle("v")]);
    const { solution, moves } = solutionWith(problem, [[1, 0, 2]]);
    expect(solution.totalDistance()).toBeCloseTo(80, 9);
    expect(moves.relocate(1) || moves.relocate(0)).toBe(true);
    expect(stopsOf(solution, 0)).toEqual([0, 1, 2]);
    expect(solution.totalDistance()).toBeCloseTo(60, 9);
  });

  it("moves a pickup and its delivery together, and empties a route when another can take its task", () => {
    const problem = problemOn([[0, 0], [10, 0], [20, 0], [11, 0], [19, 0]], [
      { id: "a", pickup: open(1), delivery: open(2), size: 1 },
      { id: "b", pickup: open(3), delivery: open(4), size: 1 },
    ], [vehicle("v"), vehicle("w")]);
    const { solution, moves } = solutionWith(problem, [[-1, 0], [-2, 1]]);
    expect(moves.relocate(1)).toBe(true);
    expect(solution.usedVehicles()).toBe(1);
    const judged = judge(problem, solution);
    expect(judged).toMatchObject({ feasible: true, served: [0, 1], vehicles: 1 });
    expect(judged.distance).toBeCloseTo(40, 9);
  });

  it("leaves a task where it is when no other place is feasible and shorter", () => {
    // Due at 10 at 10 away: it can only be first.
    const problem = problemOn([[0, 0], [10, 0], [-5, 0]], [
      { id: "tight", delivery: open(1, 0, 0, 10), size: 1 },
      { id: "b", delivery: open(2), size: 1 },
    ], [vehicle("v")]);
    const { solution, moves } = solutionWith(problem, [[0, 1]]);
    expect(moves.relocate(0)).toBe(false);
    expect(moves.relocate(1)).toBe(false);
    expect(stopsOf(solution, 0)).toEqual([0, 1]);
  });
});

describe("exchange", () => {
  it("swaps two tasks between full routes where no relocation fits", () => {
    // Capacity 2 each; each route serves one east and one west: swapping makes an east and a west route.
    const problem = problemOn([[0, 0], [10, 0], [11, 0], [-10, 0], [-11, 0]], [
      { id: "e1", delivery: open(1), size: 1 },
      { id: "e2", delivery: open(2), size: 1 },
      { id: "w1", delivery: open(3), size: 1 },
      { id: "w2", delivery: open(4), size: 1 },
    ], [vehicle("v", { capacity: 2 }), vehicle("w", { capacity: 2 })]);
    const { solution, moves } = solutionWith(problem, [[0, 2], [1, 3]]);
    for (let t = 0; t < 4; t++) expect(moves.relocate(t)).toBe(false);
    expect(moves.exchange(2, 1)).toBe(true);
    expect(stopsOf(solution, 0).sort()).toEqual([0, 1]);
    expect(stopsOf(solution, 1).sort()).toEqual([2, 3]);
    expect(solution.totalDistance()).toBeCloseTo(44, 9);
  });
});

describe("no move leaves an infeasible route (property)", () => {
  it("relocate and exchange keep every route feasible by domain/planning.ts, every task served once, and never lengthen the plan", () => {
    fc.assert(
      fc.property(problemInputs, (input) => {
        const problem = problemFrom(input);
        const model = buildModel(problem);
        const solution = new Solution(model);
        const random = seededRandom(input.seed);
        // A feasible start: each task at its cheapest place in a random vehicle that can take it.
        for (let t = 0; t < model.taskCount; t++) {
          const first = Math.floor(random() * model.vehicleCount);
          for (let k = 0; k < model.vehicleCount; k++) {
            const at = solution.bestInsertion(t, (first + k) % model.vehicleCount, 0, random);
            if (at) {
              solution.insert(t, at);
              break;
            }
          }
        }
        const moves = new LocalSearch(solution, new Int32Array(0), 0, random);
        let before = judge(problem, solution);
        expect(before.feasible).toBe(true);
        const check = (moved: boolean) => {
          const after = judge(problem, solution);
          expect(after.feasible).toBe(true);
          expect(after.served).toEqual(before.served);
          for (const route of solution.routes) if (route.nodes.length > 2) expect(solution.routeFeasible(route)).toBe(true);
          if (moved) expect(after.vehicles < before.vehicles || after.distance < before.distance + 1e-9).toBe(true);
          else expect(after.distance).toBeCloseTo(before.distance, 9);
          before = after;
        };
        for (let t = 0; t < model.taskCount; t++) check(moves.relocate(t));
        for (let a = 0; a < model.taskCount; a++) for (let b = 0; b < model.taskCount; b++) check(moves.exchange(a, b));
      }),
      { numRuns: 300, seed: 20261125 },
    );
  });
});
