/**
 * The multi-vehicle planner: assigns tasks (a pickup and a delivery, or a
 * delivery whose load is on board from the start) to vehicles and orders
 * each route, keeping every rule of domain/planning.ts; objective, in order:
 * most tasks served, fewest vehicles, least distance. See docs/planning.md.
 *
 * solvePlan runs in the caller's thread; solvePlanInWorker runs the same code
 * in a worker thread so the API keeps answering while it searches.
 */
import { evaluateRoute, type PlanOptions, type PlannedRoute, type PlanProblem, type PlanSolution, type StopRef } from "../../../../domain/planning.ts";
import { buildModel } from "./model.ts";
import { unassignedReason } from "./reasons.ts";
import { Search } from "./search.ts";

export { solvePlanInWorker } from "./in-worker.ts";

/** Time kept back from the limit for turning the search's result into a plan. */
const FINISH_MARGIN_MS = 15;

export function solvePlan(problem: PlanProblem, options: PlanOptions): PlanSolution {
  const startedAt = performance.now();
  validate(problem, options);
  const tasksById = new Map(problem.tasks.map((task) => [task.id, task]));
  if (problem.tasks.length === 0) return { routes: [], unassigned: [] };
  const model = buildModel(problem);
  const maxVehicles = Math.min(problem.vehicles.length, options.maxVehicles ?? problem.vehicles.length);
  const search = new Search(model, {
    timeLimitMs: Math.max(1, options.timeLimitMs - FINISH_MARGIN_MS),
    seed: options.seed ?? 1,
    iterations: options.iterations,
    maxVehicles,
    startedAt,
  });
  const result = search.run();
  const solution = search.solution;
  solution.restore({ routes: result.routes, unassigned: result.unassigned });
  const routes: PlannedRoute[] = [];
  for (const route of solution.routes) {
    if (route.nodes.length <= 2) continue;
    const vehicle = problem.vehicles[route.vehicle]!;
    const stops: StopRef[] = route.nodes.slice(1, -1).map((node) => ({ taskId: problem.tasks[model.task[node]!]!.id, kind: model.isPickup[node] ? "pickup" : "delivery" }));
    const judged = evaluateRoute(problem, vehicle, stops, tasksById);
    // The search's O(1) checks and the rules must agree; a disagreement is a bug, never a plan to hand out.
    if (!judged.feasible) throw new Error(`The planner built a route that breaks the rules (${judged.reason} at stop ${judged.at} of ${vehicle.id}).`);
    routes.push({ vehicleId: vehicle.id, stops: judged.stops, distance: judged.distance, travel: judged.travel });
  }
  const unassigned = [...result.unassigned]
    .sort((a, b) => a - b)
    .map((task) => ({ taskId: problem.tasks[task]!.id, reason: unassignedReason(problem, tasksById, model, solution, task) }));
  return { routes, unassigned };
}

function validate(problem: PlanProblem, options: PlanOptions): void {
  if (!(options.timeLimitMs > 0)) throw new RangeError("The time limit must be a positive number of milliseconds.");
  if (options.iterations !== undefined && !(Number.isInteger(options.iterations) && options.iterations >= 0)) throw new RangeError("The iteration budget must be a whole number.");
  const locations = problem.travel.length;
  if (problem.distance.length !== locations) throw new RangeError("The travel and distance matrices must have the same size.");
  for (const matrix of [problem.travel, problem.distance]) {
    for (const row of matrix) {
      if (row.length !== locations) throw new RangeError("The travel and distance matrices must be square.");
      // Infinity (or null from a road engine) means "no way there"; a negative time or distance is a mistake.
      for (const value of row) if (value < 0) throw new RangeError("Travel times and distances must not be negative.");
    }
  }
  const ids = new Set<string>();
  for (const task of problem.tasks) {
    if (ids.has(task.id)) throw new RangeError(`Task ${task.id} is listed twice.`);
    ids.add(task.id);
    for (const spec of task.pickup ? [task.pickup, task.delivery] : [task.delivery]) {
      if (!Number.isInteger(spec.location) || spec.location < 0 || spec.location >= locations) throw new RangeError(`Task ${task.id} names a location outside the matrices.`);
    }
  }
  for (const vehicle of problem.vehicles) {
    for (const place of [vehicle.start, vehicle.end]) {
      if (place !== null && (!Number.isInteger(place) || place < 0 || place >= locations)) throw new RangeError(`Vehicle ${vehicle.id} names a location outside the matrices.`);
    }
  }
}
