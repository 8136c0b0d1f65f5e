/**
 * Why a task is left out. Alone on an empty route, the rules of
 * domain/planning.ts say what stops every vehicle (the constraint it got
 * furthest before breaking: shift, then window, then capacity, then
 * unreachable). When some vehicle could serve it alone, the other tasks are in
 * the way: "capacity" when a route would take it but for the load on board,
 * "window" otherwise.
 */
import { evaluateRoute, type PlanProblem, type PlanTask, type StopRef, type UnassignedReason } from "../../../../domain/planning.ts";
import type { Model } from "./model.ts";
import type { Solution } from "./solution.ts";

const PREFERENCE: UnassignedReason[] = ["shift", "window", "capacity", "unreachable"];

export function unassignedReason(problem: PlanProblem, tasksById: ReadonlyMap<string, PlanTask>, model: Model, solution: Solution, task: number): UnassignedReason {
  const spec = problem.tasks[task]!;
  const stops: StopRef[] = spec.pickup ? [{ taskId: spec.id, kind: "pickup" }, { taskId: spec.id, kind: "delivery" }] : [{ taskId: spec.id, kind: "delivery" }];
  const seen = new Set<UnassignedReason>();
  let aloneFits = false;
  for (const vehicle of problem.vehicles) {
    const judged = evaluateRoute(problem, vehicle, stops, tasksById);
    if (judged.feasible) {
      aloneFits = true;
      break;
    }
    const reason = judged.reason;
    if (reason === "shift" || reason === "window" || reason === "capacity" || reason === "unreachable") seen.add(reason);
  }
  if (!aloneFits) return PREFERENCE.find((reason) => seen.has(reason)) ?? "window";
  // Would a used route take it with room to spare? Then the load is what stops it.
  const saved = new Float64Array(model.capacity);
  model.capacity.fill(Infinity);
  let fitsWithoutCapacity = false;
  try {
    for (const route of solution.routes) {
      if (route.nodes.length <= 2) continue;
      if (solution.bestInsertion(task, route.vehicle, 0, Math.random)) {
        fitsWithoutCapacity = true;
        break;
      }
    }
  } finally {
    model.capacity.set(saved);
  }
  return fitsWithoutCapacity ? "capacity" : "window";
}
