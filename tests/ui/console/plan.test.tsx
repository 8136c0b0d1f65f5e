import { screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { fromPromise } from "xstate";
import type { ApiFailure } from "../../../domain/api-failure.ts";
import type { Plan } from "../../../domain/contract/ops-plans.ts";
import { consolePlanMachine, type PlanDay } from "../../../machines/console-plan.machine.ts";
import { mapOrder, PHARMACIST, renderConsole } from "./console-fixtures.tsx";

// The drawing itself (Leaflet) is checked in Chromium (tests/e2e/console-couriers.test.ts); here, what the screen says.
vi.mock("../../../src/console/map/dispatch-map.tsx", () => ({ default: () => <div data-testid="map-canvas" /> }));

const DANA = { id: 7, first_name: "Dana", last_name: "Whitfield" };
const SAM = { id: 8, first_name: "Sam", last_name: "Okafor" };
const DAY: PlanDay = { couriers: [DANA, SAM], orders: [mapOrder(1, "Ada Lovelace", "new", null), mapOrder(2, "Grace Hopper", "new", null), mapOrder(3, "Alan Turing", "new", null)] };
const PLAN: Plan = {
  id: 12,
  service_date: "2026-11-27",
  couriers_used: 1,
  distance_km: 6.25,
  applied_at: null,
  routes: [
    {
      courier_id: 7,
      distance_km: 6.25,
      driving_minutes: 18.4,
      stops: [
        { kind: "pickup", pharmacy_id: 1, order_ids: [1, 2], arrival: "2026-11-27T08:00:00-05:00", departure: "2026-11-27T08:05:00-05:00" },
        { kind: "delivery", order_ids: [2], arrival: "2026-11-27T08:14:00-05:00", departure: "2026-11-27T08:17:00-05:00" },
        { kind: "delivery", order_ids: [1], arrival: "2026-11-27T08:31:00-05:00", departure: "2026-11-27T08:34:00-05:00" },
      ],
    },
  ],
  unassigned: [{ order_id: 3, reason: "window", message: "Order 3 cannot be delivered within its window 07:00–07:30." }],
};

function planLogic(apply: () => Promise<Plan>) {
  const calls = { propose: vi.fn(), apply: vi.fn(apply) };
  // The plan applied is the one proposed (the machine test checks its id).
  const logic = consolePlanMachine.provide({
    actors: {
      loadPlanDay: fromPromise(async () => DAY),
      proposePlan: fromPromise(async ({ input }: { input: { serviceDate: string; courierIds: number[]; csrfToken: string | null } }) => {
        calls.propose(input);
        return PLAN;
      }),
      applyPlan: fromPromise(async () => calls.apply()),
    },
  });
  return { logic, calls };
}

describe("Plan the day (issues 27, 28)", () => {
  it("asks for a courier, proposes a plan for the chosen ones, shows it per courier and on the map, then applies it", async () => {
    const { logic, calls } = planLogic(async () => ({ ...PLAN, applied_at: "2026-11-27T13:00:00.000Z" }));
    const { user } = renderConsole("/dispatch", { planLogic: logic });
    await user.click(await screen.findByRole("link", { name: "Plan the day" }));
    expect(await screen.findByRole("heading", { name: "Plan the day", level: 1 })).toBeInTheDocument();
    expect(await screen.findByText(/3 new orders of the day have no courier yet/)).toBeInTheDocument();

    await user.click(screen.getByRole("button", { name: "Plan the day" }));
    expect(screen.getByRole("alert")).toHaveTextContent("Choose at least one courier to plan the day with.");
    expect(calls.propose).not.toHaveBeenCalled();

    await user.click(screen.getByRole("checkbox", { name: "Dana Whitfield" }));
    await user.click(screen.getByRole("button", { name: "Plan the day" }));
    const route = await screen.findByRole("region", { name: /^Planned for Dana Whitfield/ });
    expect(calls.propose).toHaveBeenCalledWith({ serviceDate: expect.any(String), courierIds: [7], csrfToken: "csrf-1" });
    expect(within(route).getAllByRole("listitem").map((item) => item.textContent)).toEqual([
      "08:00 Pickup at Riverside Community Pharmacy (2 orders)",
      "08:14 Grace Hopper (RX-2)",
      "08:31 Ada Lovelace (RX-1)",
    ]);
    expect(route).toHaveAccessibleName("Planned for Dana Whitfield (2 orders, 6.3 km, 18 min driving)");
    expect(within(screen.getByRole("region", { name: /^Not planned/ })).getByText(/Alan Turing \(RX-3\): Order 3 cannot be delivered within its window/)).toBeInTheDocument();
    expect(screen.getByText("Proposed: 2 orders on 1 couriers, 6.3 km. Nothing changes until you apply it.")).toBeInTheDocument();
    const map = screen.getByRole("region", { name: "Map of the proposed plan" });
    expect(within(map).getByText("Courier Dana Whitfield (blue line)")).toBeInTheDocument();

    await user.click(screen.getByRole("button", { name: "Apply plan" }));
    expect(await screen.findByText("Plan applied: 2 orders are on their couriers' days, in the planned order.")).toBeInTheDocument();
    expect(calls.apply).toHaveBeenCalledTimes(1);
    expect(screen.getByRole("link", { name: "Back to the board" })).toHaveAttribute("href", "/dispatch");
  });

  it("says a stale plan and a plan applied already in words, and keeps the plan to plan again", async () => {
    const outdated: ApiFailure = { kind: "refused", status: 409, message: "Order 2 changed since plan 12 was made (its courier): nothing was assigned; make a new plan.", code: "plan_outdated" };
    const twice: ApiFailure = { kind: "refused", status: 409, message: "Plan 12 was already applied at …", code: "plan_already_applied" };
    let refusal = outdated;
    const { logic } = planLogic(async () => Promise.reject(refusal));
    const { user } = renderConsole("/dispatch/plan", { planLogic: logic });
    await user.click(await screen.findByRole("checkbox", { name: "Sam Okafor" }));
    await user.click(screen.getByRole("button", { name: "Plan the day" }));
    await user.click(await screen.findByRole("button", { name: "Apply plan" }));
    expect(await screen.findByRole("alert")).toHaveTextContent(`The day changed since this plan was made. ${outdated.message}`);
    expect(screen.getByRole("region", { name: /^Planned for Dana Whitfield/ })).toBeInTheDocument();
    refusal = twice;
    await user.click(screen.getByRole("button", { name: "Apply plan" }));
    await waitFor(() => expect(screen.getByRole("alert")).toHaveTextContent("This plan was applied already. Make a new plan to change the day."));
    await user.click(screen.getByRole("button", { name: "Discard plan" }));
    expect(screen.queryByRole("region", { name: /^Planned for/ })).not.toBeInTheDocument();
  });

  it("is not a pharmacist's: no 'Plan the day' link, and the address refuses in words", async () => {
    const { logic, calls } = planLogic(async () => PLAN);
    renderConsole("/dispatch/plan", { session: PHARMACIST, planLogic: logic });
    expect(await screen.findByRole("alert")).toHaveTextContent("Plan the day is for dispatchers of the courier company.");
    expect(screen.queryByRole("link", { name: "Plan the day" })).not.toBeInTheDocument();
    expect(calls.propose).not.toHaveBeenCalled();
  });
});
