import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { ErrorBody } from "../../domain/contract/common.ts";
import { AddonsRequest, AddonsResponse, PharmacyIdParams } from "../../domain/contract/pickup.ts";
import { currentSession } from "../auth/plugin.ts";
import type { Db } from "../db/client.ts";
import { listAddons, takeAddons } from "../services/addons.ts";

/** Add-on orders at a pharmacy the courier visits today (spec §2 /addons, §5: at most 3). */
export const addonRoutes =
  (deps: { db: Db; today: () => string }): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      "/api/courier/pharmacies/:id/addons",
      {
        schema: {
          summary: "Today's add-on orders on offer at a pharmacy",
          tags: ["pickup"],
          params: PharmacyIdParams,
          response: { 200: AddonsResponse, 400: ErrorBody, 401: ErrorBody, 404: ErrorBody },
        },
      },
      async (request) => ({
        orders: await listAddons(deps.db, currentSession(request).courier.id, request.params.id, deps.today()),
      }),
    );

    app.post(
      "/api/courier/pharmacies/:id/addons",
      {
        schema: {
          summary: "Take add-on orders, each with its copay: they join the day picked up",
          tags: ["pickup"],
          params: PharmacyIdParams,
          body: AddonsRequest,
          response: { 200: AddonsResponse, 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 409: ErrorBody },
        },
      },
      async (request) => ({
        orders: await takeAddons(deps.db, currentSession(request).courier.id, request.params.id, deps.today(), request.body),
      }),
    );
  };
