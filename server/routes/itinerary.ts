import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { ErrorBody } from "../../domain/contract/common.ts";
import { ItineraryResponse } from "../../domain/contract/itinerary.ts";
import { currentSession } from "../auth/plugin.ts";
import type { Db } from "../db/client.ts";
import { loadItinerary } from "../services/itinerary.ts";

export const itineraryRoutes =
  (deps: { db: Db; today: () => string; supportPhone: string }): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      "/api/courier/itinerary",
      {
        schema: {
          summary: "The courier's day: visits, pharmacies and orders",
          tags: ["courier"],
          response: { 200: ItineraryResponse, 401: ErrorBody },
        },
      },
      async (request) => loadItinerary(deps.db, currentSession(request).courier.id, deps.today(), deps.supportPhone),
    );
  };
