import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { ErrorBody } from "../../domain/contract/common.ts";
import { PharmacyVisit } from "../../domain/contract/entities.ts";
import {
  ArrivedRequest,
  ConfirmVisitsRequest,
  CourierParams,
  PharmacyVisitParams,
  PharmacyVisitsResponse,
} from "../../domain/contract/pickup.ts";
import { currentSession } from "../auth/plugin.ts";
import type { Db } from "../db/client.ts";
import { confirmVisits, markArrived } from "../services/pharmacy-visits.ts";

const refusals = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody };

/** Visit confirmation and arrival (spec §2 /confirm_pharmacy_visits, §4 check-in, §7). */
export const pharmacyVisitRoutes =
  (deps: { db: Db }): FastifyPluginAsyncZod =>
  async (app) => {
    app.put(
      "/api/couriers/:courierId/pharmacy_visits/:visitId/arrived_at_pharmacy",
      {
        schema: {
          summary: "Record the arrival at a pharmacy visit (the first time stays)",
          tags: ["pickup"],
          params: PharmacyVisitParams,
          body: ArrivedRequest,
          response: { 200: PharmacyVisit, ...refusals },
        },
      },
      async (request) =>
        markArrived(deps.db, currentSession(request).courier.id, request.params.courierId, request.params.visitId),
    );

    app.post(
      "/api/couriers/:courierId/pharmacy_visits/confirm",
      {
        schema: {
          summary: "Confirm or decline pharmacy visits",
          tags: ["pickup"],
          params: CourierParams,
          body: ConfirmVisitsRequest,
          response: { 200: PharmacyVisitsResponse, ...refusals },
        },
      },
      async (request) => ({
        pharmacy_visits: await confirmVisits(deps.db, currentSession(request).courier.id, request.params.courierId, request.body),
      }),
    );
  };
