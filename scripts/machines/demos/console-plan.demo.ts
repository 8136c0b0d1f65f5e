import { consolePlanMachine } from "../../../machines/console-plan.machine.ts";
import { defineDemo } from "../demo-kit.ts";

const PLAN = {
  id: 12,
  service_date: "2026-11-26",
  couriers_used: 1,
  distance_km: 4.2,
  applied_at: null,
  routes: [
    {
      courier_id: 3,
      distance_km: 4.2,
      driving_minutes: 12,
      stops: [
        { kind: "pickup" as const, pharmacy_id: 1, order_ids: [41], arrival: "2026-11-26T08:00:00-05:00", departure: "2026-11-26T08:05:00-05:00" },
        { kind: "delivery" as const, order_ids: [41], arrival: "2026-11-26T08:15:00-05:00", departure: "2026-11-26T08:18:00-05:00" },
      ],
    },
  ],
  unassigned: [],
};

export default defineDemo({
  machine: consolePlanMachine,
  summary: "Input: the service date 2026-11-26. Choose Dana Whitfield, 'Plan the day' (a plan of one route), 'Apply plan'.",
  input: { serviceDate: "2026-11-26", csrfToken: "demo" },
  standIns: {
    loadPlanDay: { resolves: { couriers: [{ id: 3, first_name: "Dana", last_name: "Whitfield" }], orders: [] }, says: "GET /api/ops/v1/couriers (active) and the day's orders" },
    proposePlan: { resolves: PLAN, says: "POST /api/ops/v1/plans" },
    applyPlan: { resolves: { ...PLAN, applied_at: "2026-11-26T13:00:00Z" }, says: "POST /api/ops/v1/plans/12/application" },
  },
  events: [
    { type: "TOGGLE_COURIER", courierId: 3 },
    { type: "PROPOSE" },
    { type: "APPLY" },
    { type: "DISCARD" },
    { type: "PLAN_AGAIN" },
    { type: "SET_SERVICE_DATE", serviceDate: "2026-11-27" },
    { type: "RETRY" },
  ],
});
