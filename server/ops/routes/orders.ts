import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import {
  OPS_API_PREFIX,
  OpsIdParams,
  OrderBatchRequest,
  OrderBatchResponse,
  OrderCancellationRequest,
  OrderCreateRequest,
  OrderDetailResponse,
  OrderListQuery,
  OrderListResponse,
  OrderResponse,
  OrderUpdateOpsRequest,
} from "../../../domain/contract/ops.ts";
import type { Db } from "../../db/client.ts";
import { auditActor, opsCaller, pharmacyScope } from "../auth.ts";
import { opsOrderView } from "../services/order-views.ts";
import { createOrderBatch } from "../services/order-batch.ts";
import { cancelOpsOrder, createOrder, getOpsOrder, listOpsOrders, updateOrder } from "../services/orders.ts";
import { OPS_TAG, opsRefusals, opsSecurity } from "./shared.ts";

/** A batch of 1000 orders is about 1 MB of JSON; the rest of the API keeps its 256 KB limit. */
const BATCH_BODY_LIMIT = 2 * 1024 * 1024;

/** Orders: dispatch and pharmacy keys; a pharmacy key sees its own pharmacy's only (issue 15). */
export const opsOrderRoutes =
  (deps: { db: Db; today: () => string }): FastifyPluginAsyncZod =>
  async (app) => {
    app.post(
      `${OPS_API_PREFIX}/orders`,
      {
        schema: {
          summary: "Create an order: 201; the same body again for its (pharmacy_id, external_id) is 200 with the same order, another body 409",
          tags: [OPS_TAG],
          security: opsSecurity,
          body: OrderCreateRequest,
          response: { 200: OrderResponse, 201: OrderResponse, ...opsRefusals },
        },
      },
      async (request, reply) => {
        const caller = opsCaller(request);
        const { order, created } = await createOrder(deps.db, auditActor(caller), request.body, { today: deps.today(), scope: pharmacyScope(caller) });
        return reply.status(created ? 201 : 200).send({ order: await opsOrderView(deps.db, order) });
      },
    );

    app.post(
      `${OPS_API_PREFIX}/orders/batch`,
      {
        bodyLimit: BATCH_BODY_LIMIT,
        // Checking and building its rows gives way to other calls (server/http/interactive-first.ts).
        config: { background: true },
        schema: {
          summary: "Create up to 1000 orders, each row on its own: created, unchanged or rejected with its errors",
          tags: [OPS_TAG],
          security: opsSecurity,
          body: OrderBatchRequest,
          response: { 200: OrderBatchResponse, ...opsRefusals },
        },
      },
      async (request, reply) => {
        const caller = opsCaller(request);
        const results = await createOrderBatch(deps.db, auditActor(caller), request.body.orders, {
          today: deps.today(),
          scope: pharmacyScope(caller),
          // How long the batch held its transaction, for the integrator and the bench (issue 25: ≤ 500 ms).
          onTransaction: (ms) => void reply.header("server-timing", `transaction;dur=${ms.toFixed(1)}`),
        });
        return { results };
      },
    );

    app.patch(
      `${OPS_API_PREFIX}/orders/:id`,
      {
        schema: {
          summary: "Change an order until it is picked up (409 after, with the reason)",
          tags: [OPS_TAG],
          security: opsSecurity,
          params: OpsIdParams,
          body: OrderUpdateOpsRequest,
          response: { 200: OrderResponse, ...opsRefusals },
        },
      },
      async (request) => {
        const caller = opsCaller(request);
        const order = await updateOrder(deps.db, auditActor(caller), request.params.id, request.body, pharmacyScope(caller), deps.today());
        return { order };
      },
    );

    app.post(
      `${OPS_API_PREFIX}/orders/:id/cancellation`,
      {
        schema: {
          summary: "Cancel an order before it is picked up (409 after)",
          tags: [OPS_TAG],
          security: opsSecurity,
          params: OpsIdParams,
          body: OrderCancellationRequest,
          response: { 200: OrderResponse, ...opsRefusals },
        },
      },
      async (request) => {
        const caller = opsCaller(request);
        const order = await cancelOpsOrder(deps.db, auditActor(caller), request.params.id, pharmacyScope(caller));
        return { order };
      },
    );

    app.get(
      `${OPS_API_PREFIX}/orders/:id`,
      {
        schema: {
          summary: "One order with its status history",
          tags: [OPS_TAG],
          security: opsSecurity,
          params: OpsIdParams,
          response: { 200: OrderDetailResponse, ...opsRefusals },
        },
      },
      async (request) => {
        const caller = opsCaller(request);
        return { order: await getOpsOrder(deps.db, request.params.id, pharmacyScope(caller)) };
      },
    );

    app.get(
      `${OPS_API_PREFIX}/orders`,
      {
        schema: {
          summary: "Orders, newest first, a page at a time (pass next_cursor back as cursor)",
          tags: [OPS_TAG],
          security: opsSecurity,
          querystring: OrderListQuery,
          response: { 200: OrderListResponse, ...opsRefusals },
        },
      },
      async (request) => listOpsOrders(deps.db, request.query, pharmacyScope(opsCaller(request))),
    );
  };
