import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { AssignmentRequest, AssignmentResponse, OPS_API_PREFIX, OpsOrderIdParams, OrderResponse } from "../../../domain/contract/ops.ts";
import type { Db } from "../../db/client.ts";
import { auditActor, requireDispatch } from "../auth.ts";
import { assignOrders, unassignOrder } from "../services/assignments.ts";
import { OPS_TAG, opsRefusals, opsSecurity } from "./shared.ts";

/** Assignments: dispatch puts orders on a courier's day and takes them off (issue 15). */
export const opsAssignmentRoutes =
  (deps: { db: Db; today: () => string }): FastifyPluginAsyncZod =>
  async (app) => {
    app.post(
      `${OPS_API_PREFIX}/assignments`,
      {
        schema: {
          summary: "Assign orders to a courier's day (moves an order not yet picked up; 409 for a picked-up one). Dispatch only.",
          tags: [OPS_TAG],
          security: opsSecurity,
          body: AssignmentRequest,
          response: { 200: AssignmentResponse, ...opsRefusals },
        },
      },
      async (request) => {
        const caller = requireDispatch(request);
        return assignOrders(deps.db, auditActor(caller), request.body, { today: deps.today() });
      },
    );

    app.delete(
      `${OPS_API_PREFIX}/assignments/:order_id`,
      {
        schema: {
          summary: "Take an order off its courier's day before pickup (409 after). Dispatch only.",
          tags: [OPS_TAG],
          security: opsSecurity,
          params: OpsOrderIdParams,
          response: { 200: OrderResponse, ...opsRefusals },
        },
      },
      async (request) => {
        const caller = requireDispatch(request);
        return { order: await unassignOrder(deps.db, auditActor(caller), request.params.order_id) };
      },
    );
  };
