/** The one place the product imports the multi-courier planner from (issue 28): it runs in a worker thread. */
export type { PlanProblem, PlanSolution, PlanTask, PlanVehicle, UnassignedReason } from "../../../../domain/planning.ts";
export { solvePlanInWorker } from "../../../services/routing/planner/index.ts";
