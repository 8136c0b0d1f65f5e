/** domain/planning.ts: the rules every plan is judged by, on routes small enough to time by hand. */
import { describe, expect, it } from "vitest";
import { checkPlan, evaluateRoute, type PlanProblem } from "../../../domain/planning.ts";
import { open, problemOn, vehicle } from "./support.ts";

// Depot at the origin, places 10 apart on a line: 0 —10— 1 —10— 2.
const line = [[0, 0], [10, 0], [20, 0]] as const;

describe("evaluateRoute", () => {
  it("times a route with waiting and service, and returns to the end", () => {
    const problem = problemOn(line, [
      { id: "a", delivery: open(1, 5, 30, 40), size: 1 },
      { id: "b", delivery: open(2, 5, 0, 100), size: 1 },
    ], [vehicle("v")]);
    const judged = evaluateRoute(problem, problem.vehicles[0]!, [{ taskId: "a", kind: "delivery" }, { taskId: "b", kind: "delivery" }]);
    expect(judged.feasible).toBe(true);
    // Arrives at 10, waits until 30, leaves 35, reaches b at 45, leaves 50, home at 70.
    expect(judged.stops.map((stop) => [stop.arrival, stop.start, stop.departure])).toEqual([[10, 30, 35], [45, 45, 50]]);
    expect(judged.finish).toBe(70);
    expect(judged.distance).toBe(40);
  });

  it("refuses a service that would start after its window", () => {
    const problem = problemOn(line, [{ id: "a", delivery: open(2, 0, 0, 19), size: 1 }], [vehicle("v")]);
    expect(evaluateRoute(problem, problem.vehicles[0]!, [{ taskId: "a", kind: "delivery" }])).toMatchObject({ feasible: false, reason: "window", at: 0 });
  });

  it("counts loads without a pickup from the start, and pickups as they happen", () => {
    const problem = problemOn(line, [
      { id: "a", delivery: open(1), size: 3 },
      { id: "b", pickup: open(1), delivery: open(2), size: 2 },
    ], [vehicle("v", { capacity: 4 })]);
    const v = problem.vehicles[0]!;
    // 3 on board; picking b up first makes 5.
    expect(evaluateRoute(problem, v, [{ taskId: "b", kind: "pickup" }, { taskId: "a", kind: "delivery" }, { taskId: "b", kind: "delivery" }])).toMatchObject({ feasible: false, reason: "capacity", at: 0 });
    // Delivering a first leaves room.
    expect(evaluateRoute(problem, v, [{ taskId: "a", kind: "delivery" }, { taskId: "b", kind: "pickup" }, { taskId: "b", kind: "delivery" }])).toMatchObject({ feasible: true, maxLoad: 3 });
    const tooMuch = problemOn(line, [{ id: "a", delivery: open(1), size: 5 }], [vehicle("v", { capacity: 4 })]);
    expect(evaluateRoute(tooMuch, tooMuch.vehicles[0]!, [{ taskId: "a", kind: "delivery" }])).toMatchObject({ feasible: false, reason: "capacity" });
  });

  it("wants each pickup before its delivery on the same route", () => {
    const problem = problemOn(line, [{ id: "b", pickup: open(1), delivery: open(2), size: 1 }], [vehicle("v")]);
    const v = problem.vehicles[0]!;
    expect(evaluateRoute(problem, v, [{ taskId: "b", kind: "delivery" }, { taskId: "b", kind: "pickup" }]).reason).toBe("precedence");
    expect(evaluateRoute(problem, v, [{ taskId: "b", kind: "pickup" }]).reason).toBe("precedence");
    expect(evaluateRoute(problem, v, [{ taskId: "b", kind: "delivery" }]).reason).toBe("precedence");
    expect(evaluateRoute(problem, v, [{ taskId: "b", kind: "pickup" }, { taskId: "b", kind: "pickup" }]).reason).toBe("duplicate_stop");
    expect(evaluateRoute(problem, v, [{ taskId: "x", kind: "delivery" }]).reason).toBe("unknown_task");
  });

  it("ends the route by the end of the shift, travel to the end included; a null end or start travels nowhere", () => {
    const tasks = [{ id: "a", delivery: open(2, 5), size: 1 }];
    const problem = problemOn(line, tasks, [vehicle("home", { shiftEnd: 44 }), vehicle("open-end", { end: null, shiftEnd: 25 }), vehicle("from-stop", { start: null, end: null, shiftStart: 100, shiftEnd: 105 })]);
    const stops = [{ taskId: "a", kind: "delivery" as const }];
    expect(evaluateRoute(problem, problem.vehicles[0]!, stops)).toMatchObject({ feasible: false, reason: "shift", finish: 45 });
    expect(evaluateRoute(problem, problem.vehicles[1]!, stops)).toMatchObject({ feasible: true, finish: 25, distance: 20 });
    expect(evaluateRoute(problem, problem.vehicles[2]!, stops)).toMatchObject({ feasible: true, finish: 105, distance: 0 });
  });

  it("calls a place without a finite travel time unreachable", () => {
    const problem: PlanProblem = { travel: [[0, Infinity], [Infinity, 0]], distance: [[0, 1], [1, 0]], tasks: [{ id: "a", delivery: open(1), size: 1 }], vehicles: [vehicle("v")] };
    expect(evaluateRoute(problem, problem.vehicles[0]!, [{ taskId: "a", kind: "delivery" }])).toMatchObject({ feasible: false, reason: "unreachable" });
  });

  it("pays the service once for consecutive stops at one place when the problem says so", () => {
    const tasks = [
      { id: "a", pickup: open(1, 5), delivery: open(2, 3), size: 1 },
      { id: "b", pickup: open(1, 5), delivery: open(2, 3), size: 1 },
    ];
    const stops = [{ taskId: "a", kind: "pickup" as const }, { taskId: "b", kind: "pickup" as const }, { taskId: "a", kind: "delivery" as const }, { taskId: "b", kind: "delivery" as const }];
    const once = problemOn(line, tasks, [vehicle("v")], { serviceOncePerLocation: true });
    const each = problemOn(line, tasks, [vehicle("v")]);
    // Pickups: arrive 10, leave 15 (and 15 again); deliveries: 25 → 28, then 28 (same place).
    expect(evaluateRoute(once, once.vehicles[0]!, stops).stops.map((stop) => stop.departure)).toEqual([15, 15, 28, 28]);
    expect(evaluateRoute(each, each.vehicles[0]!, stops).stops.map((stop) => stop.departure)).toEqual([15, 20, 33, 36]);
  });
});

describe("checkPlan", () => {
  const problem = problemOn(line, [{ id: "a", delivery: open(1), size: 1 }, { id: "b", delivery: open(2), size: 1 }], [vehicle("v"), vehicle("w")]);
  const stop = (taskId: string, location: number) => ({ taskId, kind: "delivery" as const, location, arrival: 0, start: 0, departure: 0 });

  it("accepts a plan that serves each task once or lists it", () => {
    expect(checkPlan(problem, { routes: [{ vehicleId: "v", stops: [stop("a", 1)], distance: 20, travel: 20 }], unassigned: [{ taskId: "b", reason: "window" }] })).toMatchObject({ feasible: true, served: 1, vehicles: 1, distance: 20 });
  });

  it("finds a task served twice, a task forgotten, a vehicle used twice and too many vehicles", () => {
    const twice = checkPlan(problem, { routes: [{ vehicleId: "v", stops: [stop("a", 1)], distance: 0, travel: 0 }, { vehicleId: "v", stops: [stop("a", 1)], distance: 0, travel: 0 }], unassigned: [] });
    expect(twice.feasible).toBe(false);
    expect(twice.problems).toEqual(expect.arrayContaining(["vehicle v has two routes", "task a is served or listed 2 times", "task b is served or listed 0 times"]));
    const many = checkPlan(problem, { routes: [{ vehicleId: "v", stops: [stop("a", 1)], distance: 0, travel: 0 }, { vehicleId: "w", stops: [stop("b", 2)], distance: 0, travel: 0 }], unassigned: [] }, 1);
    expect(many.problems).toContain("2 vehicles used, at most 1 allowed");
  });
});
