import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { OPS_API_PREFIX, OpsIdParams } from "../../../domain/contract/ops.ts";
import { PlanApplicationRequest, PlanCreateRequest, PlanResponse } from "../../../domain/contract/ops-plans.ts";
import { ErrorBody } from "../../../domain/contract/common.ts";
import { applyPlan, createPlan, getPlan, type PlanDeps } from "../services/plans/plans.ts";
import { auditActor, requireDispatch } from "../auth.ts";
import { OPS_TAG, opsRefusals, opsSecurity } from "./shared.ts";

/** Plans of a day across couriers (issue 28, docs/operations.md "Planning a day"). Dispatch only. */
export const opsPlanRoutes =
  (deps: PlanDeps): FastifyPluginAsyncZod =>
  async (app) => {
    app.post(
      `${OPS_API_PREFIX}/plans`,
      {
        schema: {
          summary: "Propose a plan of a day's orders across couriers (nothing changes until it is applied). Dispatch only.",
          tags: [OPS_TAG],
          security: opsSecurity,
          body: PlanCreateRequest,
          // 502/503: the road engine (OSRM_URL) failed or cannot be reached.
          response: { 201: PlanResponse, ...opsRefusals, 502: ErrorBody, 503: ErrorBody },
        },
      },
      async (request, reply) => {
        const caller = requireDispatch(request);
        return reply.status(201).send({ plan: await createPlan(deps, auditActor(caller), request.body) });
      },
    );

    app.get(
      `${OPS_API_PREFIX}/plans/:id`,
      {
        schema: {
          summary: "A plan as it was proposed, and when it was applied. Dispatch only.",
          tags: [OPS_TAG],
          security: opsSecurity,
          params: OpsIdParams,
          response: { 200: PlanResponse, ...opsRefusals },
        },
      },
      async (request) => {
        requireDispatch(request);
        return { plan: await getPlan(deps.db, request.params.id) };
      },
    );

    app.post(
      `${OPS_API_PREFIX}/plans/:id/application`,
      {
        schema: {
          summary: "Apply a plan: assign every route's orders to its courier (409 if its orders changed, or plan_already_applied). Dispatch only.",
          tags: [OPS_TAG],
          security: opsSecurity,
          params: OpsIdParams,
          body: PlanApplicationRequest,
          response: { 200: PlanResponse, ...opsRefusals },
        },
      },
      async (request) => {
        const caller = requireDispatch(request);
        return { plan: await applyPlan(deps.db, auditActor(caller), request.params.id) };
      },
    );
  };
