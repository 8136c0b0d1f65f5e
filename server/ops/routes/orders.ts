import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import {
  OPS_API_PREFIX,
  OpsIdParams,
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
import { cancelOpsOrder, createOrder, getOpsOrder, listOpsOrders, updateOrder } from "../services/orders.ts";
import { OPS_TAG, opsRefusals, opsSecurity } from "./shared.ts";

/** Orders: dispatch and pharmacy keys; a pharmacy key sees its own pharmacy's only (issue 15). The batch is in order-batch.ts. */
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
      async (request, reply) => {
        const page = await listOpsOrders(deps.db, request.query, pharmacyScope(opsCaller(request)));
        // The next page's address in the headers too (RFC 8288): a reader can ask for it before this page's body is read.
        if (page.next_cursor) reply.header("link", `<${nextPageUrl(request.url, page.next_cursor)}>; rel="next"`);
        return page;
      },
    );
  };

/** This request's URL with the cursor of the next page. */
function nextPageUrl(url: string, cursor: string): string {
  const [path = "", query = ""] = url.split("?", 2);
  const params = new URLSearchParams(query);
  params.set("cursor", cursor);
  return `${path}?${params}`;
}
