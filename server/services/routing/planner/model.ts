/**
 * The solver's flat view of a PlanProblem: every stop (a task's pickup or
 * delivery) and every vehicle's start and end become "nodes" with their
 * location, window, service and load change in typed arrays, and the matrices
 * become one row-major Float64Array each, so the inner loops touch numbers,
 * not objects.
 */
import type { PlanProblem } from "../../../../domain/planning.ts";

export interface Model {
  /** Matrix side: the problem's locations plus one virtual place at zero distance from all (a null start or end). */
  side: number;
  travel: Float64Array;
  distance: Float64Array;
  taskCount: number;
  vehicleCount: number;
  /** Stops first (delivery of task t = t, pickup of task t = taskCount + t when it has one), then 2 per vehicle. */
  nodeCount: number;
  location: Int32Array;
  /** Same value = same place for "service once per location"; depots get unique negative values. */
  serviceKey: Int32Array;
  ready: Float64Array;
  due: Float64Array;
  service: Float64Array;
  task: Int32Array;
  isPickup: Uint8Array;
  /** -1 when the task has no pickup (its load is on board from the start). */
  pickupOf: Int32Array;
  demand: Float64Array;
  startNode: Int32Array;
  endNode: Int32Array;
  capacity: Float64Array;
  serviceOnce: boolean;
  /** Vehicles grouped by identical attributes: trying one empty vehicle of a group is trying them all. */
  vehicleGroup: Int32Array;
}

export function buildModel(problem: PlanProblem): Model {
  const locations = problem.travel.length;
  const side = locations + 1;
  const virtual = locations;
  const travel = new Float64Array(side * side);
  const distance = new Float64Array(side * side);
  for (let i = 0; i < locations; i++) {
    const travelRow = problem.travel[i] ?? [];
    const distanceRow = problem.distance[i] ?? [];
    for (let j = 0; j < locations; j++) {
      const t = travelRow[j];
      const d = distanceRow[j];
      // Anything not a finite number is a place that cannot be reached from here.
      const ok = typeof t === "number" && typeof d === "number" && Number.isFinite(t) && Number.isFinite(d);
      travel[i * side + j] = ok ? t : Infinity;
      distance[i * side + j] = ok ? d : Infinity;
    }
  }
  const taskCount = problem.tasks.length;
  const vehicleCount = problem.vehicles.length;
  const nodeCount = 2 * taskCount + 2 * vehicleCount;
  const location = new Int32Array(nodeCount).fill(virtual);
  const serviceKey = new Int32Array(nodeCount);
  const ready = new Float64Array(nodeCount);
  const due = new Float64Array(nodeCount);
  const service = new Float64Array(nodeCount);
  const task = new Int32Array(nodeCount).fill(-1);
  const isPickup = new Uint8Array(nodeCount);
  const pickupOf = new Int32Array(taskCount).fill(-1);
  const sizes = new Float64Array(taskCount);
  problem.tasks.forEach((t, index) => {
    sizes[index] = t.size;
    const put = (node: number, spec: NonNullable<typeof t.pickup>) => {
      location[node] = spec.location;
      serviceKey[node] = spec.location;
      ready[node] = spec.windowStart;
      due[node] = spec.windowEnd;
      service[node] = spec.service;
      task[node] = index;
    };
    put(index, t.delivery);
    if (t.pickup) {
      put(taskCount + index, t.pickup);
      isPickup[taskCount + index] = 1;
      pickupOf[index] = taskCount + index;
    } else {
      // An unused slot: never routed.
      serviceKey[taskCount + index] = -1 - (taskCount + index);
    }
  });
  const startNode = new Int32Array(vehicleCount);
  const endNode = new Int32Array(vehicleCount);
  const capacity = new Float64Array(vehicleCount);
  const vehicleGroup = new Int32Array(vehicleCount);
  const groups = new Map<string, number>();
  problem.vehicles.forEach((vehicle, v) => {
    const s = 2 * taskCount + 2 * v;
    const e = s + 1;
    startNode[v] = s;
    endNode[v] = e;
    capacity[v] = vehicle.capacity;
    location[s] = vehicle.start ?? virtual;
    location[e] = vehicle.end ?? virtual;
    serviceKey[s] = -1 - s;
    serviceKey[e] = -1 - e;
    ready[s] = vehicle.shiftStart;
    due[s] = vehicle.shiftEnd;
    ready[e] = -Infinity;
    due[e] = vehicle.shiftEnd;
    const key = `${vehicle.start}|${vehicle.end}|${vehicle.shiftStart}|${vehicle.shiftEnd}|${vehicle.capacity}`;
    if (!groups.has(key)) groups.set(key, groups.size);
    vehicleGroup[v] = groups.get(key)!;
  });
  return {
    side, travel, distance, taskCount, vehicleCount, nodeCount, location, serviceKey, ready, due, service, task, isPickup, pickupOf,
    demand: sizes, startNode, endNode, capacity, serviceOnce: problem.serviceOncePerLocation === true, vehicleGroup,
  };
}
