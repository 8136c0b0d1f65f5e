import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { ErrorBody } from "../../domain/contract/common.ts";
import { RoutedOrdersQuery, RoutedOrdersResponse } from "../../domain/contract/routing.ts";
import { currentSession } from "../auth/plugin.ts";
import type { Db } from "../db/client.ts";
import { routedOrders } from "../services/routing/routed-orders.ts";

export const routingRoutes =
  (deps: { db: Db; today: () => string }): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      "/api/routed_orders",
      {
        schema: {
          summary: "The remaining deliveries in driving order from the pharmacy",
          description:
            "Spec §7 GET /routed_orders. An open path from the pharmacy on great-circle distances; " +
            "409 when the pharmacy does not use routing, 404 for an order that is not the courier's at that pharmacy today.",
          tags: ["courier"],
          querystring: RoutedOrdersQuery,
          response: { 200: RoutedOrdersResponse, 400: ErrorBody, 401: ErrorBody, 404: ErrorBody, 409: ErrorBody },
        },
      },
      async (request) =>
        routedOrders(deps.db, {
          courierId: currentSession(request).courier.id,
          serviceDate: deps.today(),
          pharmacyId: request.query.pharmacy_id,
          orderIds: request.query.order_ids,
        }),
    );
  };
