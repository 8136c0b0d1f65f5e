/** Random small planning problems for the property tests (fast-check): windows, services, pickups, capacities, shifts, service once per place. */
import fc from "fast-check";
import type { PlanProblem } from "../../../domain/planning.ts";
import { problemOn, type Point } from "./support.ts";

const spec = (locations: number) =>
  fc.record({
    location: fc.integer({ min: 0, max: locations - 1 }),
    windowStart: fc.integer({ min: 0, max: 300 }),
    width: fc.integer({ min: 0, max: 300 }),
    service: fc.integer({ min: 0, max: 20 }),
  }).map(({ width, ...rest }) => ({ ...rest, windowEnd: rest.windowStart + width }));

export const problemInputs = fc.integer({ min: 2, max: 9 }).chain((locations) =>
  fc.record({
    points: fc.array(fc.tuple(fc.integer({ min: 0, max: 100 }), fc.integer({ min: 0, max: 100 })), { minLength: locations, maxLength: locations }),
    tasks: fc.array(fc.record({ pickup: fc.option(spec(locations), { nil: undefined }), delivery: spec(locations), size: fc.integer({ min: 0, max: 5 }) }), { minLength: 0, maxLength: 8 }),
    vehicles: fc.array(fc.record({
      start: fc.option(fc.integer({ min: 0, max: locations - 1 }), { nil: null }),
      end: fc.option(fc.integer({ min: 0, max: locations - 1 }), { nil: null }),
      shiftStart: fc.integer({ min: 0, max: 200 }),
      length: fc.integer({ min: 0, max: 600 }),
      capacity: fc.integer({ min: 0, max: 8 }),
    }), { minLength: 1, maxLength: 3 }),
    serviceOncePerLocation: fc.boolean(),
    // Identical vehicles let the search exchange route tails (2-opt*).
    identical: fc.boolean(),
    maxVehicles: fc.option(fc.integer({ min: 1, max: 3 }), { nil: undefined }),
    seed: fc.integer({ min: 0, max: 1000 }),
  }),
);

export type ProblemInput = typeof problemInputs extends fc.Arbitrary<infer T> ? T : never;

export function problemFrom(input: ProblemInput): PlanProblem {
  return problemOn(
    input.points as Point[],
    input.tasks.map((task, i) => ({ id: `t${i}`, ...(task.pickup ? { pickup: task.pickup } : {}), delivery: task.delivery, size: task.size })),
    input.vehicles.map((own, i) => ({ v: input.identical ? input.vehicles[0]! : own, i })).map(({ v, i }) => ({ id: `v${i}`, start: v.start, end: v.end, shiftStart: v.shiftStart, shiftEnd: v.shiftStart + v.length, capacity: v.capacity })),
    { serviceOncePerLocation: input.serviceOncePerLocation },
  );
}
