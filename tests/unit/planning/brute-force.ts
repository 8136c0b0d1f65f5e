/**
 * The true optimum of a tiny problem by enumeration, judged by
 * domain/planning.ts alone: every way of giving each task to a vehicle (or
 * to nobody), every order of each vehicle's stops. Lexicographic: most served,
 * fewest vehicles, least distance.
 */
import { evaluateRoute, type PlanProblem, type StopRef } from "../../../domain/planning.ts";

export interface Optimum {
  served: number;
  vehicles: number;
  distance: number;
}

function permutations<T>(items: T[]): T[][] {
  if (items.length <= 1) return [items.slice()];
  const out: T[][] = [];
  items.forEach((item, i) => {
    for (const rest of permutations([...items.slice(0, i), ...items.slice(i + 1)])) out.push([item, ...rest]);
  });
  return out;
}

/** The shortest feasible order of these tasks on this vehicle, or null. */
function bestRoute(problem: PlanProblem, vehicleIndex: number, tasks: number[], memo: Map<string, number | null>): number | null {
  const key = `${vehicleIndex}:${tasks.join(",")}`;
  if (memo.has(key)) return memo.get(key)!;
  const stops: StopRef[] = [];
  for (const t of tasks) {
    const task = problem.tasks[t]!;
    if (task.pickup) stops.push({ taskId: task.id, kind: "pickup" });
    stops.push({ taskId: task.id, kind: "delivery" });
  }
  let best: number | null = null;
  for (const order of permutations(stops)) {
    const judged = evaluateRoute(problem, problem.vehicles[vehicleIndex]!, order);
    if (judged.feasible && (best === null || judged.distance < best)) best = judged.distance;
  }
  memo.set(key, best);
  return best;
}

export function bruteForce(problem: PlanProblem): Optimum {
  const tasks = problem.tasks.length;
  const vehicles = problem.vehicles.length;
  const memo = new Map<string, number | null>();
  let best: Optimum = { served: -1, vehicles: Infinity, distance: Infinity };
  const assignment = new Array<number>(tasks).fill(-1);
  const visit = (t: number) => {
    if (t === tasks) {
      let served = 0;
      let used = 0;
      let distance = 0;
      for (let v = 0; v < vehicles; v++) {
        const mine = assignment.flatMap((owner, i) => (owner === v ? [i] : []));
        if (mine.length === 0) continue;
        const length = bestRoute(problem, v, mine, memo);
        if (length === null) return;
        served += mine.length;
        used++;
        distance += length;
      }
      const better = served > best.served || (served === best.served && (used < best.vehicles || (used === best.vehicles && distance < best.distance - 1e-9)));
      if (better) best = { served, vehicles: used, distance };
      return;
    }
    for (let v = -1; v < vehicles; v++) {
      assignment[t] = v;
      visit(t + 1);
    }
  };
  visit(0);
  return best;
}
