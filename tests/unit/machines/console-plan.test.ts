import { describe, expect, it } from "vitest";
import type { ApiFailure } from "../../../domain/api-failure.ts";
import type { OpsOrder } from "../../../domain/contract/ops.ts";
import type { Plan } from "../../../domain/contract/ops-plans.ts";
import { consolePlanMachine, NO_COURIER_CHOSEN, type PlanDay } from "../../../machines/console-plan.machine.ts";
import { expectFullCoverage, transitionCoverPaths } from "../../support/model-coverage.ts";
import { pathName, possibleEvents, replayPath } from "../../support/replay-paths.ts";

const order = { id: 41, status: { id: 1, name: "new" }, courier_id: null, service_date: "2026-11-27" } as unknown as OpsOrder;
const DAY: PlanDay = { couriers: [{ id: 3, first_name: "Dana", last_name: "Whitfield" }], orders: [order] };
const PLAN: Plan = {
  id: 12,
  service_date: "2026-11-27",
  routes: [
    {
      courier_id: 3,
      distance_km: 4.2,
      driving_minutes: 12,
      stops: [
        { kind: "pickup", pharmacy_id: 1, order_ids: [41], arrival: "2026-11-27T08:00:00-05:00", departure: "2026-11-27T08:05:00-05:00" },
        { kind: "delivery", order_ids: [41], arrival: "2026-11-27T08:15:00-05:00", departure: "2026-11-27T08:18:00-05:00" },
      ],
    },
  ],
  unassigned: [],
  couriers_used: 1,
  distance_km: 4.2,
  applied_at: null,
};
const offline: ApiFailure = { kind: "network", status: null, message: "Failed to fetch", code: null };
const outdated: ApiFailure = {
  kind: "refused",
  status: 409,
  message: "Order 41 changed since plan 12 was made (its courier): nothing was assigned; make a new plan.",
  code: "plan_outdated",
};
const alreadyApplied: ApiFailure = { kind: "refused", status: 409, message: "Plan 12 was already applied at …", code: "plan_already_applied" };

const EVENTS = [
  { type: "SET_SERVICE_DATE", serviceDate: "2026-11-28" },
  { type: "SET_SERVICE_DATE", serviceDate: "not a day" },
  { type: "RETRY" },
  { type: "TOGGLE_COURIER", courierId: 3 },
  { type: "PROPOSE" },
  { type: "APPLY" },
  { type: "DISCARD" },
  { type: "PLAN_AGAIN" },
  { type: "xstate.done.actor.loadPlanDay", output: DAY },
  { type: "xstate.error.actor.loadPlanDay", error: offline },
  { type: "xstate.done.actor.proposePlan", output: PLAN },
  { type: "xstate.done.actor.proposePlan", output: { ...PLAN, id: 13, routes: [], couriers_used: 0, unassigned: [{ order_id: 41, reason: "window", message: "…" }] } },
  { type: "xstate.error.actor.proposePlan", error: offline },
  { type: "xstate.done.actor.applyPlan", output: { ...PLAN, applied_at: "2026-11-27T13:00:00.000Z" } },
  { type: "xstate.error.actor.applyPlan", error: outdated },
  { type: "xstate.error.actor.applyPlan", error: alreadyApplied },
];

const ACTORS = ["loadPlanDay", "proposePlan", "applyPlan"] as const;
const INPUT = { serviceDate: "2026-11-27", csrfToken: "t" };

describe("console plan machine (issues 27, 28)", () => {
  const paths = transitionCoverPaths(consolePlanMachine, {
    input: INPUT,
    events: possibleEvents(EVENTS),
    serializeState: (s) =>
      JSON.stringify([s.value, s.context.serviceDate, s.context.couriers.length, s.context.chosen, s.context.plan?.applied_at ?? s.context.plan?.id ?? null, s.context.failure?.code ?? s.context.failure?.kind ?? null, s.context.error !== null]),
  });

  it.each(paths.map((path) => [pathName(path), path] as const))("replays %s", async (_name, path) => {
    const { snapshot, calls } = await replayPath(consolePlanMachine, ACTORS, INPUT, path);
    expect(snapshot.value).toEqual(path.state.value);
    expect(snapshot.context).toEqual(path.state.context);
    for (const call of calls.filter((c) => c.actor === "proposePlan")) expect((call.input as { courierIds: number[] }).courierIds).toEqual([3]);
    // Only a plan that gives orders is applied (plan 13 gives none).
    for (const call of calls.filter((c) => c.actor === "applyPlan")) expect(call.input).toEqual({ planId: 12, csrfToken: "t" });
  });

  it("covers every state and transition", () => expectFullCoverage(consolePlanMachine, paths, { input: INPUT }));

  it("plans only with a courier chosen, and applies the plan it showed", () => {
    const none = paths.find((p) => p.state.matches("choosing") && p.state.context.error === NO_COURIER_CHOSEN);
    expect(none?.steps.some((s) => s.event.type === "xstate.done.actor.proposePlan")).toBe(false);
    const applied = paths.find((p) => p.state.matches("applied"));
    expect(applied?.state.context.notice).toBe("Plan applied: 1 orders are on their couriers' days, in the planned order.");
  });

  it("says a stale plan and a plan applied already in words, keeping the plan on screen", () => {
    const stale = paths.find((p) => p.state.matches("proposed") && p.state.context.failure?.code === "plan_outdated");
    expect(stale?.state.context.error).toBe(`The day changed since this plan was made. ${outdated.message}`);
    expect(stale?.state.context.plan?.id).toBe(12);
    const twice = paths.find((p) => p.state.matches("proposed") && p.state.context.failure?.code === "plan_already_applied");
    expect(twice?.state.context.error).toBe("This plan was applied already. Make a new plan to change the day.");
  });
});
