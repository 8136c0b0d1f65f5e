import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { ErrorBody } from "../../domain/contract/common.ts";
import { Order } from "../../domain/contract/entities.ts";
import { CancellationRequest, OrderIdParams, OrderUpdateRequest, PickupRequest } from "../../domain/contract/pickup.ts";
import { currentSession } from "../auth/plugin.ts";
import type { Db } from "../db/client.ts";
import { assertCopay, cancelOrder, changeOrderStatus, pickUpOrder } from "../services/pickup.ts";

const refusals = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 409: ErrorBody };

/** Verify and cancel at the pharmacy counter (spec §4 "Verify flow", §7). */
export const orderRoutes =
  (deps: { db: Db }): FastifyPluginAsyncZod =>
  async (app) => {
    app.put(
      "/api/orders/:id",
      {
        schema: {
          summary: "Change an order's status ({order:{status_id}}) or assert its copay ({order:{copay}}, '0.00' for none)",
          tags: ["pickup"],
          params: OrderIdParams,
          body: OrderUpdateRequest,
          response: { 200: Order, ...refusals },
        },
      },
      async (request) => {
        const courierId = currentSession(request).courier.id;
        const { status_id, copay } = request.body.order;
        return status_id !== undefined
          ? changeOrderStatus(deps.db, courierId, request.params.id, status_id)
          : assertCopay(deps.db, courierId, request.params.id, copay!);
      },
    );

    app.post(
      "/api/orders/:id/pickups",
      {
        schema: {
          summary: "Pick up a verified order",
          tags: ["pickup"],
          params: OrderIdParams,
          body: PickupRequest,
          response: { 200: Order, ...refusals },
        },
      },
      async (request) => {
        const occurredAt = request.body?.client_occurred_at;
        return pickUpOrder(deps.db, currentSession(request).courier.id, request.params.id, occurredAt ? new Date(occurredAt) : null);
      },
    );

    app.post(
      "/api/courier/cancellation",
      {
        schema: {
          summary: "Cancel an order at verification",
          tags: ["pickup"],
          body: CancellationRequest,
          response: { 200: Order, ...refusals },
        },
      },
      async (request) => cancelOrder(deps.db, currentSession(request).courier.id, request.body.order_id),
    );
  };
