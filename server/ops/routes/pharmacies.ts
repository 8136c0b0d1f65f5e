import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import {
  OPS_API_PREFIX,
  OpsIdParams,
  PharmacyCreateRequest,
  PharmacyListResponse,
  PharmacyResponse,
  PharmacyUpdateRequest,
} from "../../../domain/contract/ops.ts";
import type { Db } from "../../db/client.ts";
import { auditActor, requireDispatch } from "../auth.ts";
import { createPharmacy, listPharmacies, updatePharmacy } from "../services/pharmacies.ts";
import { OPS_TAG, opsRefusals, opsSecurity } from "./shared.ts";

/** Pharmacies: dispatch adds and changes them (issue 15). */
export const opsPharmacyRoutes =
  (deps: { db: Db }): FastifyPluginAsyncZod =>
  async (app) => {
    app.post(
      `${OPS_API_PREFIX}/pharmacies`,
      {
        schema: {
          summary: "Add a pharmacy. Dispatch only.",
          tags: [OPS_TAG],
          security: opsSecurity,
          body: PharmacyCreateRequest,
          response: { 201: PharmacyResponse, ...opsRefusals },
        },
      },
      async (request, reply) => {
        const caller = requireDispatch(request);
        const pharmacy = await createPharmacy(deps.db, auditActor(caller), request.body);
        return reply.status(201).send({ pharmacy });
      },
    );

    app.patch(
      `${OPS_API_PREFIX}/pharmacies/:id`,
      {
        schema: {
          summary: "Change a pharmacy. Dispatch only.",
          tags: [OPS_TAG],
          security: opsSecurity,
          params: OpsIdParams,
          body: PharmacyUpdateRequest,
          response: { 200: PharmacyResponse, ...opsRefusals },
        },
      },
      async (request) => {
        const caller = requireDispatch(request);
        const pharmacy = await updatePharmacy(deps.db, auditActor(caller), request.params.id, request.body);
        return { pharmacy };
      },
    );

    app.get(
      `${OPS_API_PREFIX}/pharmacies`,
      {
        schema: {
          summary: "Every pharmacy. Dispatch only.",
          tags: [OPS_TAG],
          security: opsSecurity,
          response: { 200: PharmacyListResponse, ...opsRefusals },
        },
      },
      async (request) => {
        requireDispatch(request);
        return { pharmacies: await listPharmacies(deps.db) };
      },
    );
  };
