/**
 * TEMPORARY (issue 28, planner-api's branch only): the planner interface of
 * /work/wt/PLANNER-INTERFACE.md with a plain cheapest-insertion solver, so the
 * product integration can be built and tested before planner-core's planner
 * (domain/planning.ts, server/services/routing/planner/) lands. The lead
 * switches server/services/plans/solver.ts to the real planner at merge and
 * deletes this file. The types below are copied verbatim from the interface.
 */

export interface PlanStopSpec {
  location: number;
  windowStart: number;
  windowEnd: number;
  service: number;
}
export interface PlanTask {
  id: string;
  pickup?: PlanStopSpec;
  delivery: PlanStopSpec;
  size: number;
}
export interface PlanVehicle {
  id: string;
  start: number | null;
  end: number | null;
  shiftStart: number;
  shiftEnd: number;
  capacity: number;
}
export interface PlanProblem {
  travel: number[][];
  distance: number[][];
  vehicles: PlanVehicle[];
  tasks: PlanTask[];
  serviceOncePerLocation?: boolean;
}
export interface PlannedStop {
  taskId: string;
  kind: "pickup" | "delivery";
  location: number;
  arrival: number;
  start: number;
  departure: number;
}
export interface PlannedRoute {
  vehicleId: string;
  stops: PlannedStop[];
  distance: number;
  travel: number;
}
export type UnassignedReason = "window" | "capacity" | "shift" | "unreachable";
export interface PlanSolution {
  routes: PlannedRoute[];
  unassigned: { taskId: string; reason: UnassignedReason }[];
}
export interface PlanOptions {
  timeLimitMs: number;
  seed?: number;
  iterations?: number;
  maxVehicles?: number;
}

interface Visit {
  task: PlanTask;
  kind: "pickup" | "delivery";
  spec: PlanStopSpec;
}

const UNREACHABLE_TRAVEL = 1e8;

/** The route's times, or null when a window, the capacity, the precedence or the shift is broken. */
function simulate(problem: PlanProblem, vehicle: PlanVehicle, visits: readonly Visit[], ignoreWindows = false): PlannedRoute | null {
  let time = vehicle.shiftStart;
  let at = vehicle.start;
  let load = 0;
  let distance = 0;
  let travel = 0;
  const onBoard = new Set<string>();
  const stops: PlannedStop[] = [];
  for (const [index, visit] of visits.entries()) {
    const leg = at === null ? 0 : problem.travel[at]![visit.spec.location]!;
    if (leg >= UNREACHABLE_TRAVEL) return null;
    distance += at === null ? 0 : problem.distance[at]![visit.spec.location]!;
    travel += leg;
    const arrival = at === null ? Math.max(time, visit.spec.windowStart) : time + leg;
    const start = ignoreWindows ? arrival : Math.max(arrival, visit.spec.windowStart);
    if (!ignoreWindows && start > visit.spec.windowEnd) return null;
    const merged = problem.serviceOncePerLocation && index > 0 && visits[index - 1]!.spec.location === visit.spec.location;
    const departure = start + (merged ? 0 : visit.spec.service);
    if (visit.kind === "pickup") {
      load += visit.task.size;
      onBoard.add(visit.task.id);
    } else {
      if (visit.task.pickup && !onBoard.has(visit.task.id)) return null;
      if (visit.task.pickup) load -= visit.task.size;
    }
    if (load > vehicle.capacity) return null;
    stops.push({ taskId: visit.task.id, kind: visit.kind, location: visit.spec.location, arrival, start, departure });
    time = departure;
    at = visit.spec.location;
  }
  if (vehicle.end !== null && at !== null) {
    const leg = problem.travel[at]![vehicle.end]!;
    if (leg >= UNREACHABLE_TRAVEL) return null;
    distance += problem.distance[at]![vehicle.end]!;
    travel += leg;
    time += leg;
  }
  if (time > vehicle.shiftEnd) return null;
  return { vehicleId: vehicle.id, stops, distance, travel };
}

const visitsOf = (task: PlanTask): Visit[] =>
  task.pickup ? [{ task, kind: "pickup", spec: task.pickup }, { task, kind: "delivery", spec: task.delivery }] : [{ task, kind: "delivery", spec: task.delivery }];

function reasonFor(problem: PlanProblem, task: PlanTask): UnassignedReason {
  const alone = visitsOf(task);
  if (problem.vehicles.some((vehicle) => simulate(problem, vehicle, alone))) return "capacity";
  const locations = alone.map((visit) => visit.spec.location);
  const reachable = problem.vehicles.some((vehicle) =>
    [vehicle.start, ...locations, vehicle.end].filter((l): l is number => l !== null).every((l, i, all) => i === 0 || problem.travel[all[i - 1]!]![l]! < UNREACHABLE_TRAVEL),
  );
  if (!reachable) return "unreachable";
  if (problem.vehicles.every((vehicle) => vehicle.capacity < task.size)) return "capacity";
  return problem.vehicles.some((vehicle) => simulate(problem, vehicle, alone, true)) ? "window" : "shift";
}

/** Cheapest insertion, tasks by latest delivery deadline first; an unused vehicle costs more than any detour. */
export function solvePlan(problem: PlanProblem, options: PlanOptions): PlanSolution {
  const deadline = Date.now() + options.timeLimitMs;
  const routes = new Map<string, { visits: Visit[]; route: PlannedRoute }>();
  const unassigned: PlanSolution["unassigned"] = [];
  const maxVehicles = options.maxVehicles ?? problem.vehicles.length;
  const tasks = [...problem.tasks].sort((a, b) => a.delivery.windowEnd - b.delivery.windowEnd || a.id.localeCompare(b.id));
  const openCost = 1e12;
  for (const task of tasks) {
    let best: { vehicle: PlanVehicle; visits: Visit[]; route: PlannedRoute; cost: number } | null = null;
    const [first, second] = visitsOf(task);
    for (const vehicle of problem.vehicles) {
      const current = routes.get(vehicle.id);
      if (!current && routes.size >= maxVehicles) continue;
      const base = current?.visits ?? [];
      const baseDistance = current?.route.distance ?? 0;
      for (let i = 0; i <= base.length; i++) {
        const withFirst = [...base.slice(0, i), first!, ...base.slice(i)];
        const js = second ? Array.from({ length: withFirst.length - i }, (_, k) => i + 1 + k) : [-1];
        for (const j of js) {
          const candidate = second ? [...withFirst.slice(0, j), second, ...withFirst.slice(j)] : withFirst;
          const route = simulate(problem, vehicle, candidate);
          if (!route) continue;
          const cost = route.distance - baseDistance + (current ? 0 : openCost);
          if (!best || cost < best.cost) best = { vehicle, visits: candidate, route, cost };
        }
      }
      if (Date.now() > deadline) break;
    }
    if (best) routes.set(best.vehicle.id, { visits: best.visits, route: best.route });
    else unassigned.push({ taskId: task.id, reason: reasonFor(problem, task) });
  }
  const order = new Map(problem.vehicles.map((vehicle, index) => [vehicle.id, index]));
  return {
    routes: [...routes.values()].map((entry) => entry.route).sort((a, b) => order.get(a.vehicleId)! - order.get(b.vehicleId)!),
    unassigned,
  };
}

/** The fallback runs in-thread on the next turn; planner-core's version runs in a worker thread. */
export function solvePlanInWorker(problem: PlanProblem, options: PlanOptions): Promise<PlanSolution> {
  return new Promise((resolve, reject) => {
    setImmediate(() => {
      try {
        resolve(solvePlan(problem, options));
      } catch (error) {
        reject(error instanceof Error ? error : new Error(String(error)));
      }
    });
  });
}
