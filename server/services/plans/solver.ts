/**
 * The one place the product imports the multi-courier planner from (issue 28).
 * Until planner-core's planner is merged this is planner-api's temporary
 * fallback; at merge these lines become:
 *   export type { PlanProblem, PlanSolution, PlanTask, PlanVehicle, UnassignedReason } from "../../../domain/planning.ts";
 *   export { solvePlanInWorker } from "../routing/planner/index.ts";
 */
export type { PlanProblem, PlanSolution, PlanTask, PlanVehicle, UnassignedReason } from "../routing/planner-fallback.ts";
export { solvePlanInWorker } from "../routing/planner-fallback.ts";
