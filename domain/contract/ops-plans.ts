import { z } from "zod";
import { CalendarDay, MAX_BATCH_ORDERS, OpsId } from "./ops.ts";

/**
 * Issue 28: plans of a service day across couriers (docs/operations.md
 * "Planning a day"). A plan is a proposal: nothing changes until it is applied.
 */

export const MAX_PLAN_SECONDS = 60;
export const DEFAULT_PLAN_SECONDS = 5;
export const MAX_PLAN_COURIERS = 200;

const distinct = (ids: number[]) => new Set(ids).size === ids.length;

/** POST /api/ops/v1/plans (dispatch only) → 201 {plan}. */
export const PlanCreateRequest = z
  .object({
    service_date: CalendarDay,
    courier_ids: z
      .array(OpsId)
      .min(1, "name at least one courier")
      .max(MAX_PLAN_COURIERS, `at most ${MAX_PLAN_COURIERS} couriers`)
      .refine(distinct, "each courier may appear once"),
    /** Left out: every unassigned order of the day. An order already assigned is planned only when listed. */
    order_ids: z
      .array(OpsId)
      .min(1, "name at least one order, or leave order_ids out for every unassigned order of the day")
      .max(MAX_BATCH_ORDERS, `at most ${MAX_BATCH_ORDERS} orders at once`)
      .refine(distinct, "each order may appear once")
      .optional(),
    time_limit_seconds: z
      .number()
      .positive("must be more than 0")
      .max(MAX_PLAN_SECONDS, `must be at most ${MAX_PLAN_SECONDS}`)
      .default(DEFAULT_PLAN_SECONDS),
    /** The same seed and orders give the same plan: a plan can be replayed. */
    seed: z.number().int("must be a whole number").min(0, "must be 0 or more").max(2_147_483_647).optional(),
  })
  .strict();
export type PlanCreateRequest = z.infer<typeof PlanCreateRequest>;

export const PLAN_STOP_KINDS = ["pickup", "delivery"] as const;
export const UNASSIGNED_REASONS = ["no_coordinates", "window", "capacity", "shift", "unreachable"] as const;
export type UnassignedPlanReason = (typeof UNASSIGNED_REASONS)[number];

export const PlanStop = z.object({
  kind: z.enum(PLAN_STOP_KINDS),
  /** The pharmacy of a pickup. */
  pharmacy_id: z.number().int().optional(),
  /** Several orders where consecutive stops are at one place (one pharmacy visit, one building). */
  order_ids: z.array(z.number().int()),
  /** ISO 8601 instants with the service zone's offset. */
  arrival: z.string(),
  departure: z.string(),
  /** The window the stop is held to, HH:MM (a pickup: the pharmacy's hours; a delivery: the promised window). */
  window_start: z.string().optional(),
  window_end: z.string().optional(),
});
export type PlanStop = z.infer<typeof PlanStop>;

export const PlanRoute = z.object({
  courier_id: z.number().int(),
  stops: z.array(PlanStop),
  distance_km: z.number(),
  driving_minutes: z.number(),
});
export type PlanRoute = z.infer<typeof PlanRoute>;

export const UnassignedOrder = z.object({
  order_id: z.number().int(),
  reason: z.enum(UNASSIGNED_REASONS),
  message: z.string(),
});
export type UnassignedOrder = z.infer<typeof UnassignedOrder>;

export const Plan = z.object({
  id: z.number().int(),
  service_date: z.string(),
  routes: z.array(PlanRoute),
  unassigned: z.array(UnassignedOrder),
  couriers_used: z.number().int(),
  distance_km: z.number(),
  /** When the plan was applied; null while it is a proposal. */
  applied_at: z.string().nullable(),
});
export type Plan = z.infer<typeof Plan>;

export const PlanResponse = z.object({ plan: Plan });
export type PlanResponse = z.infer<typeof PlanResponse>;

/** POST /api/ops/v1/plans/{id}/application: no body. */
export const PlanApplicationRequest = z.object({}).strict().nullish();
