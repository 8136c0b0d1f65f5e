/**
 * Planning a day across couriers: the vocabulary shared by the planner
 * (server/services/routing/planner/) and its callers, and the rules a plan
 * must keep — one place, so the solver's final check, the API and the tests
 * all judge a route the same way.
 *
 * Times are plain numbers in one unit chosen by the caller (the product uses
 * seconds since the service day's local midnight; benchmarks use the
 * instance's units); distances likewise.
 */

export interface PlanStopSpec {
  location: number;        // index into the matrices
  windowStart: number;     // service may not start before (wait allowed)
  windowEnd: number;       // service must start no later than this
  service: number;         // time spent at the stop
}
export interface PlanTask {
  id: string;
  pickup?: PlanStopSpec;   // absent = the load is on the vehicle from the start (Solomon VRPTW customer)
  delivery: PlanStopSpec;
  size: number;            // capacity units (the product: 1 per order)
}
export interface PlanVehicle {
  id: string;
  start: number | null;    // location index; null = the route starts at its first stop (no travel before it)
  end: number | null;      // location index; null = the route ends at its last stop
  shiftStart: number;
  shiftEnd: number;        // the route (including travel to `end`) must finish by this
  capacity: number;        // load carried at once
}
export interface PlanProblem {
  travel: number[][];      // travel time between locations
  distance: number[][];    // distance between locations (objective)
  vehicles: PlanVehicle[];
  tasks: PlanTask[];
  /** When true, consecutive stops at the same location pay `service` once (several orders picked up at one pharmacy visit). */
  serviceOncePerLocation?: boolean;
}
export interface PlannedStop { taskId: string; kind: "pickup" | "delivery"; location: number; arrival: number; start: number; departure: number }
export interface PlannedRoute { vehicleId: string; stops: PlannedStop[]; distance: number; travel: number }
export type UnassignedReason = "window" | "capacity" | "shift" | "unreachable";
export interface PlanSolution { routes: PlannedRoute[]; unassigned: { taskId: string; reason: UnassignedReason }[] }
export interface PlanOptions { timeLimitMs: number; seed?: number; iterations?: number; maxVehicles?: number }

/** A stop of a route to judge: which task, and whether it is that task's pickup or its delivery. */
export interface StopRef { taskId: string; kind: "pickup" | "delivery" }

/** Why a route breaks the rules. */
export type RouteViolation =
  | "unknown_task"      // a stop names no task, or a pickup of a task that has none
  | "duplicate_stop"    // a task's pickup or delivery appears twice
  | "precedence"        // a delivery without its pickup earlier on the same route (or a pickup without its delivery)
  | "unreachable"       // no finite travel time between two consecutive places
  | "window"            // service would start after a stop's window end
  | "capacity"          // more load on board than the vehicle carries
  | "shift";            // the route (with the travel to its end) finishes after the shift

export interface RouteEvaluation {
  feasible: boolean;
  reason?: RouteViolation;
  /** The stop index the violation was found at (the route's end = stops.length). */
  at?: number;
  distance: number;
  travel: number;
  /** Largest load on board at any moment. */
  maxLoad: number;
  /** When the route is back at its end (or leaves its last stop when it has no end). */
  finish: number;
  /** The timed stops, as far as they could be timed. */
  stops: PlannedStop[];
}

/** Time spent at a stop: nothing more when the previous stop was at the same place and the problem says so. */
export function serviceTime(problem: Pick<PlanProblem, "serviceOncePerLocation">, spec: PlanStopSpec, previousStopLocation: number | null): number {
  return problem.serviceOncePerLocation && previousStopLocation === spec.location ? 0 : spec.service;
}

/** The earliest a vehicle can start at a place it reaches at `arrival`: it waits for the window to open. */
export function serviceStart(arrival: number, spec: PlanStopSpec): number {
  return Math.max(arrival, spec.windowStart);
}

function specOf(task: PlanTask, kind: StopRef["kind"]): PlanStopSpec | undefined {
  return kind === "pickup" ? task.pickup : task.delivery;
}

/**
 * Times one vehicle's route over `stops` from the start of its shift (the
 * earliest schedule: leave at shift start, wait wherever a window is not yet
 * open) and judges it: every service starts inside its window, the load never
 * exceeds the capacity (loads of tasks without a pickup are on board from the
 * start), every pickup precedes its delivery on this route, and the vehicle
 * reaches its end by the end of its shift.
 */
export function evaluateRoute(problem: PlanProblem, vehicle: PlanVehicle, stops: readonly StopRef[], tasksById?: ReadonlyMap<string, PlanTask>): RouteEvaluation {
  const byId = tasksById ?? new Map(problem.tasks.map((task) => [task.id, task]));
  const timed: PlannedStop[] = [];
  let distance = 0;
  let travel = 0;
  const fail = (reason: RouteViolation, at: number, finish: number, maxLoad: number): RouteEvaluation => ({ feasible: false, reason, at, distance, travel, maxLoad, finish, stops: timed });

  // Loads on board from the start, and precedence, checked before any timing.
  let load = 0;
  const seen = new Set<string>();
  const picked = new Set<string>();
  for (const [index, stop] of stops.entries()) {
    const task = byId.get(stop.taskId);
    if (!task || !specOf(task, stop.kind)) return fail("unknown_task", index, vehicle.shiftStart, 0);
    const key = `${stop.kind}:${stop.taskId}`;
    if (seen.has(key)) return fail("duplicate_stop", index, vehicle.shiftStart, 0);
    seen.add(key);
    if (stop.kind === "pickup") picked.add(stop.taskId);
    else if (task.pickup && !picked.has(stop.taskId)) return fail("precedence", index, vehicle.shiftStart, 0);
    else if (!task.pickup) load += task.size;
  }
  for (const id of picked) if (!seen.has(`delivery:${id}`)) return fail("precedence", stops.length, vehicle.shiftStart, 0);

  let maxLoad = load;
  if (load > vehicle.capacity) return fail("capacity", 0, vehicle.shiftStart, maxLoad);
  let place = vehicle.start;
  let previousStopLocation: number | null = null;
  let clock = vehicle.shiftStart;
  for (const [index, stop] of stops.entries()) {
    const task = byId.get(stop.taskId)!;
    const spec = specOf(task, stop.kind)!;
    const hop = place === null ? 0 : problem.travel[place]?.[spec.location];
    const length = place === null ? 0 : problem.distance[place]?.[spec.location];
    if (hop === undefined || length === undefined || !Number.isFinite(hop) || !Number.isFinite(length)) return fail("unreachable", index, clock, maxLoad);
    travel += hop;
    distance += length;
    const arrival = clock + hop;
    const start = serviceStart(arrival, spec);
    if (start > spec.windowEnd) return fail("window", index, arrival, maxLoad);
    const departure = start + serviceTime(problem, spec, previousStopLocation);
    timed.push({ taskId: stop.taskId, kind: stop.kind, location: spec.location, arrival, start, departure });
    load += stop.kind === "pickup" ? task.size : -task.size;
    maxLoad = Math.max(maxLoad, load);
    if (load > vehicle.capacity) return fail("capacity", index, departure, maxLoad);
    clock = departure;
    place = spec.location;
    previousStopLocation = spec.location;
  }
  if (vehicle.end !== null && place !== null) {
    const hop = problem.travel[place]?.[vehicle.end];
    const length = problem.distance[place]?.[vehicle.end];
    if (hop === undefined || length === undefined || !Number.isFinite(hop) || !Number.isFinite(length)) return fail("unreachable", stops.length, clock, maxLoad);
    travel += hop;
    distance += length;
    clock += hop;
  }
  if (clock > vehicle.shiftEnd) return fail("shift", stops.length, clock, maxLoad);
  return { feasible: true, distance, travel, maxLoad, finish: clock, stops: timed };
}

export interface PlanCheck {
  feasible: boolean;
  /** Each broken rule, in words (empty when the plan is feasible). */
  problems: string[];
  served: number;
  vehicles: number;
  distance: number;
}

/**
 * Judges a whole plan: every route feasible by evaluateRoute, each vehicle
 * used once and at most `maxVehicles` of them, every task either served
 * exactly once (pickup and delivery on one route) or listed unassigned once.
 */
export function checkPlan(problem: PlanProblem, solution: PlanSolution, maxVehicles = problem.vehicles.length): PlanCheck {
  const problems: string[] = [];
  const byId = new Map(problem.tasks.map((task) => [task.id, task]));
  const vehicles = new Map(problem.vehicles.map((vehicle) => [vehicle.id, vehicle]));
  const usedVehicles = new Set<string>();
  const servedBy = new Map<string, number>();
  let distance = 0;
  solution.routes.forEach((route, index) => {
    const vehicle = vehicles.get(route.vehicleId);
    if (!vehicle) return void problems.push(`route ${index}: no vehicle ${route.vehicleId}`);
    if (usedVehicles.has(route.vehicleId)) problems.push(`vehicle ${route.vehicleId} has two routes`);
    usedVehicles.add(route.vehicleId);
    if (route.stops.length === 0) problems.push(`route ${index} has no stops`);
    const judged = evaluateRoute(problem, vehicle, route.stops, byId);
    if (!judged.feasible) problems.push(`route ${index} (${route.vehicleId}): ${judged.reason} at stop ${judged.at}`);
    distance += judged.distance;
    for (const stop of route.stops) if (stop.kind === "delivery") servedBy.set(stop.taskId, (servedBy.get(stop.taskId) ?? 0) + 1);
  });
  if (usedVehicles.size > maxVehicles) problems.push(`${usedVehicles.size} vehicles used, at most ${maxVehicles} allowed`);
  const unassigned = new Map<string, number>();
  for (const entry of solution.unassigned) unassigned.set(entry.taskId, (unassigned.get(entry.taskId) ?? 0) + 1);
  for (const task of problem.tasks) {
    const times = (servedBy.get(task.id) ?? 0) + (unassigned.get(task.id) ?? 0);
    if (times !== 1) problems.push(`task ${task.id} is served or listed ${times} times`);
  }
  for (const id of [...servedBy.keys(), ...unassigned.keys()]) if (!byId.has(id)) problems.push(`no task ${id}`);
  return { feasible: problems.length === 0, problems, served: servedBy.size, vehicles: usedVehicles.size, distance };
}
