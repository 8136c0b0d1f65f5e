import { assign, fromPromise, setup } from "xstate";
import { toApiFailure, type ApiFailure } from "../domain/api-failure.ts";
import type { OpsOrder } from "../domain/contract/ops.ts";
import type { Plan } from "../domain/contract/ops-plans.ts";
import { tellSessionEnded } from "./console-session-ended.ts";

/**
 * The console's 'Plan the day' screen (issues 27 and 28, dispatchers only):
 * choose couriers, propose a plan of the day's unassigned orders across them
 * (POST /api/ops/v1/plans: nothing changes yet), look at it on the map and per
 * courier, then 'Apply plan' (POST plans/{id}/application). A plan whose
 * orders changed since (409 plan_outdated) or that was applied already
 * (409 plan_already_applied) is refused, and the reason said in words.
 * The console provides the calls (src/console/api/plans.ts).
 */
export interface PlanCourier {
  id: number;
  first_name: string;
  last_name: string;
}

export interface PlanDay {
  /** Active couriers: the ones a plan may use. */
  couriers: PlanCourier[];
  /** The day's orders (names, addresses and statuses of the plan's stops). */
  orders: OpsOrder[];
}

export interface ConsolePlanContext extends PlanDay {
  serviceDate: string;
  csrfToken: string | null;
  /** The couriers chosen for the plan, by id. */
  chosen: number[];
  plan: Plan | null;
  notice: string | null;
  error: string | null;
  failure: ApiFailure | null;
}

export type ConsolePlanEvent =
  | { type: "SET_SERVICE_DATE"; serviceDate: string }
  | { type: "RETRY" }
  | { type: "TOGGLE_COURIER"; courierId: number }
  | { type: "PROPOSE" }
  | { type: "APPLY" }
  | { type: "DISCARD" }
  | { type: "PLAN_AGAIN" };

const CALENDAR_DAY = /^\d{4}-\d{2}-\d{2}$/;

export const NO_COURIER_CHOSEN = "Choose at least one courier to plan the day with.";

/** A refused or failed call of this screen, in a dispatcher's words. */
export function planFailureText(failure: ApiFailure, doing: "loading" | "planning" | "applying"): string {
  if (failure.code === "plan_already_applied") return "This plan was applied already. Make a new plan to change the day.";
  if (failure.code === "plan_outdated") return `The day changed since this plan was made. ${failure.message}`;
  switch (failure.kind) {
    case "network":
    case "unavailable":
      return failure.status === 503 && doing === "planning"
        ? failure.message || "The road engine cannot be reached. Try again later."
        : "The server cannot be reached. Check the connection and try again.";
    case "unauthenticated":
      return "Your session has ended. Please log in again.";
    case "forbidden":
      return failure.code === "csrf" ? "Your session could not be confirmed. Reload the page and try again." : "Only a dispatcher may plan the day.";
    case "refused":
      return failure.message || "The server refused the plan.";
    case "server":
    case "other":
      return doing === "loading" ? "Something went wrong loading the day. Try again." : "Something went wrong: nothing was changed. Try again.";
  }
}

const ordersIn = (plan: Plan) => plan.routes.reduce((sum, route) => sum + route.stops.filter((stop) => stop.kind === "delivery").reduce((n, stop) => n + stop.order_ids.length, 0), 0);

export const consolePlanMachine = setup({
  types: {
    context: {} as ConsolePlanContext,
    events: {} as ConsolePlanEvent,
    input: {} as { serviceDate: string; csrfToken: string | null },
  },
  actors: {
    loadPlanDay: fromPromise<PlanDay, { serviceDate: string }>(async () => {
      throw new Error("provide loadPlanDay");
    }),
    proposePlan: fromPromise<Plan, { serviceDate: string; courierIds: number[]; csrfToken: string | null }>(async () => {
      throw new Error("provide proposePlan");
    }),
    applyPlan: fromPromise<Plan, { planId: number; csrfToken: string | null }>(async () => {
      throw new Error("provide applyPlan");
    }),
  },
  guards: {
    isAnotherValidDay: ({ context, event }) =>
      event.type === "SET_SERVICE_DATE" && CALENDAR_DAY.test(event.serviceDate) && event.serviceDate !== context.serviceDate,
    someCourierChosen: ({ context }) => context.chosen.length > 0,
    /** A plan that gives no courier an order has nothing to apply. */
    planGivesOrders: ({ context }) => (context.plan?.routes.length ?? 0) > 0,
  },
  actions: {
    /** A call answered 401: the console's session hears it, by its system id, and takes the console to the login. */
    tellSessionEnded,
    setServiceDate: assign(({ event }) => (event.type === "SET_SERVICE_DATE" ? { serviceDate: event.serviceDate, orders: [], plan: null, notice: null, error: null } : {})),
    storeDay: assign(({ context }, day: PlanDay) => ({
      couriers: day.couriers,
      orders: day.orders,
      // Couriers chosen earlier stay chosen while they are still active.
      chosen: context.chosen.filter((id) => day.couriers.some((courier) => courier.id === id)),
      error: null,
      failure: null,
    })),
    showFailure: assign((_, params: { failure: ApiFailure; doing: "loading" | "planning" | "applying" }) => ({
      error: planFailureText(params.failure, params.doing),
      failure: params.failure,
      notice: null,
    })),
    toggleCourier: assign(({ context, event }) =>
      event.type === "TOGGLE_COURIER"
        ? { chosen: context.chosen.includes(event.courierId) ? context.chosen.filter((id) => id !== event.courierId) : [...context.chosen, event.courierId] }
        : {},
    ),
    showNoCourierChosen: assign({ error: NO_COURIER_CHOSEN, notice: null }),
    clearMessages: assign({ error: null, failure: null, notice: null }),
    forgetPlan: assign({ plan: null }),
    storePlan: assign((_, plan: Plan) => ({
      plan,
      error: null,
      failure: null,
      notice:
        plan.routes.length === 0
          ? "The plan gives no courier any order: see the orders it could not serve."
          : `Proposed: ${ordersIn(plan)} orders on ${plan.couriers_used} couriers, ${plan.distance_km.toFixed(1)} km. Nothing changes until you apply it.`,
    })),
    showApplied: assign((_, plan: Plan) => ({
      plan,
      error: null,
      failure: null,
      notice: `Plan applied: ${ordersIn(plan)} orders are on their couriers' days, in the planned order.`,
    })),
  },
}).createMachine({
  id: "consolePlan",
  description: "Plan the day: choose couriers, propose a plan, apply it.",
  context: ({ input }) => ({ serviceDate: input.serviceDate, csrfToken: input.csrfToken, couriers: [], orders: [], chosen: [], plan: null, notice: null, error: null, failure: null }),
  initial: "loading",
  states: {
    loading: {
      description: "GET /api/ops/v1/couriers (the active ones) and the day's orders.",
      invoke: {
        id: "loadPlanDay",
        src: "loadPlanDay",
        input: ({ context }) => ({ serviceDate: context.serviceDate }),
        onDone: { target: "choosing", actions: { type: "storeDay", params: ({ event }) => event.output } },
        onError: { target: "failed", actions: [{ type: "showFailure", params: ({ event }) => ({ failure: toApiFailure(event.error), doing: "loading" as const }) }, { type: "tellSessionEnded", params: ({ event }) => toApiFailure(event.error) }] },
      },
    },
    failed: {
      description: "The day could not load: the failure in words and 'Try again'.",
      on: {
        RETRY: { target: "loading", actions: "clearMessages" },
        SET_SERVICE_DATE: { guard: "isAnotherValidDay", target: "loading", actions: "setServiceDate" },
      },
    },
    choosing: {
      description: "Couriers to choose (checkboxes), 'Plan the day'.",
      on: {
        TOGGLE_COURIER: { actions: "toggleCourier" },
        PROPOSE: [
          { guard: "someCourierChosen", target: "proposing", actions: "clearMessages" },
          { actions: "showNoCourierChosen", description: "No courier chosen: said in words, nothing is sent." },
        ],
        SET_SERVICE_DATE: { guard: "isAnotherValidDay", target: "loading", actions: "setServiceDate" },
      },
    },
    proposing: {
      description: "POST /api/ops/v1/plans: the planner searches (a few seconds).",
      invoke: {
        id: "proposePlan",
        src: "proposePlan",
        input: ({ context }) => ({ serviceDate: context.serviceDate, courierIds: context.chosen, csrfToken: context.csrfToken }),
        onDone: { target: "proposed", actions: { type: "storePlan", params: ({ event }) => event.output } },
        onError: {
          target: "choosing",
          actions: ["forgetPlan", { type: "showFailure", params: ({ event }) => ({ failure: toApiFailure(event.error), doing: "planning" as const }) }, { type: "tellSessionEnded", params: ({ event }) => toApiFailure(event.error) }],
        },
      },
    },
    proposed: {
      description: "The plan on the map and per courier: 'Apply plan', or change the couriers and plan again.",
      on: {
        APPLY: { guard: "planGivesOrders", target: "applying", actions: "clearMessages" },
        PROPOSE: { target: "proposing", actions: "clearMessages", description: "'Plan again' with the same couriers." },
        TOGGLE_COURIER: { target: "choosing", actions: ["forgetPlan", "clearMessages", "toggleCourier"], description: "Other couriers: this plan no longer fits." },
        DISCARD: { target: "choosing", actions: ["forgetPlan", "clearMessages"] },
      },
    },
    applying: {
      description: "POST /api/ops/v1/plans/{id}/application",
      invoke: {
        id: "applyPlan",
        src: "applyPlan",
        input: ({ context }) => ({ planId: context.plan!.id, csrfToken: context.csrfToken }),
        onDone: { target: "applied", actions: { type: "showApplied", params: ({ event }) => event.output } },
        // The plan stays on screen with the reason: the dispatcher plans again.
        onError: { target: "proposed", actions: [{ type: "showFailure", params: ({ event }) => ({ failure: toApiFailure(event.error), doing: "applying" as const }) }, { type: "tellSessionEnded", params: ({ event }) => toApiFailure(event.error) }] },
      },
    },
    applied: {
      description: "Applied: the orders are on their couriers' days.",
      on: { PLAN_AGAIN: { target: "loading", actions: ["forgetPlan", "clearMessages"] } },
    },
  },
});
