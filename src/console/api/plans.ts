import { fromPromise } from "xstate";
import { CourierListResponse } from "../../../domain/contract/ops.ts";
import { PlanResponse, type Plan } from "../../../domain/contract/ops-plans.ts";
import { consolePlanMachine, type PlanDay } from "../../../machines/console-plan.machine.ts";
import { dayOrders } from "./day-orders.ts";
import { opsRequest } from "./http.ts";

/** The plan screen's calls (machines/console-plan.machine.ts). */
export const consolePlanActors = {
  loadPlanDay: fromPromise<PlanDay, { serviceDate: string }>(async ({ input }) => {
    const [list, orders] = await Promise.all([opsRequest("GET", "couriers").then(async (response) => CourierListResponse.parse(await response.json())), dayOrders(input.serviceDate)]);
    const couriers = list.couriers.filter((courier) => courier.active).map(({ id, first_name, last_name }) => ({ id, first_name, last_name }));
    return { couriers, orders };
  }),
  proposePlan: fromPromise<Plan, { serviceDate: string; courierIds: number[]; csrfToken: string | null }>(async ({ input }) => {
    const body = { service_date: input.serviceDate, courier_ids: input.courierIds };
    return PlanResponse.parse(await (await opsRequest("POST", "plans", { body, csrfToken: input.csrfToken })).json()).plan;
  }),
  applyPlan: fromPromise<Plan, { planId: number; csrfToken: string | null }>(async ({ input }) =>
    PlanResponse.parse(await (await opsRequest("POST", `plans/${input.planId}/application`, { body: {}, csrfToken: input.csrfToken })).json()).plan,
  ),
};

export const consolePlanLogic = consolePlanMachine.provide({ actors: consolePlanActors });
