/** Small planning problems for the planner's tests: points on a plane, Euclidean travel = distance. */
import type { PlanProblem, PlanTask, PlanVehicle } from "../../../domain/planning.ts";

export type Point = readonly [number, number];

export function euclidean(points: readonly Point[]): number[][] {
  return points.map((a) => points.map((b) => Math.hypot(a[0] - b[0], a[1] - b[1])));
}

export function problemOn(points: readonly Point[], tasks: PlanTask[], vehicles: PlanVehicle[], extra: Partial<PlanProblem> = {}): PlanProblem {
  const matrix = euclidean(points);
  return { travel: matrix, distance: matrix, tasks, vehicles, ...extra };
}

export const open = (location: number, service = 0, windowStart = 0, windowEnd = 1e6) => ({ location, windowStart, windowEnd, service });

export function vehicle(id: string, overrides: Partial<PlanVehicle> = {}): PlanVehicle {
  return { id, start: 0, end: 0, shiftStart: 0, shiftEnd: 1e6, capacity: 100, ...overrides };
}
