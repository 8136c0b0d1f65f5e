import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { KeyCreateRequest, KeyCreateResponse, KeyListResponse, OPS_API_PREFIX, OpsIdParams } from "../../../domain/contract/ops.ts";
import type { Db } from "../../db/client.ts";
import { issueApiKey, listApiKeys, withdrawApiKey } from "../services/api-keys.ts";
import { requireDispatchKey } from "../auth.ts";
import { OPS_TAG, opsKeySecurity, opsRefusals } from "./shared.ts";

/** Keys: dispatch makes, lists and revokes them (issues 15 and 25). */
export const opsKeyRoutes =
  (deps: { db: Db }): FastifyPluginAsyncZod =>
  async (app) => {
    app.post(
      `${OPS_API_PREFIX}/keys`,
      {
        schema: {
          summary: "Create an API key (shown this once; only its hash is kept). Dispatch only.",
          tags: [OPS_TAG],
          security: opsKeySecurity,
          body: KeyCreateRequest,
          response: { 201: KeyCreateResponse, ...opsRefusals },
        },
      },
      async (request, reply) => {
        const caller = requireDispatchKey(request);
        const { role, name } = request.body;
        const pharmacyId = request.body.pharmacy_id ?? null;
        const created = await issueApiKey(deps.db, caller, { name, role, pharmacyId });
        return reply.status(201).send({ id: created.id, key: created.key, role, pharmacy_id: pharmacyId, name });
      },
    );

    app.get(
      `${OPS_API_PREFIX}/keys`,
      {
        schema: {
          summary:
            "Every key, oldest first, revoked ones with their revoked_at, each with when it was last used (to the minute); never the key itself nor its hash. Dispatch only.",
          tags: [OPS_TAG],
          security: opsKeySecurity,
          response: { 200: KeyListResponse, ...opsRefusals },
        },
      },
      async (request) => {
        requireDispatchKey(request);
        return { keys: await listApiKeys(deps.db) };
      },
    );

    app.delete(
      `${OPS_API_PREFIX}/keys/:id`,
      {
        schema: {
          summary: "Revoke an API key at once (401 for it afterwards). Dispatch only.",
          tags: [OPS_TAG],
          security: opsKeySecurity,
          params: OpsIdParams,
          response: { 204: z.null().describe("Revoked"), ...opsRefusals },
        },
      },
      async (request, reply) => {
        const caller = requireDispatchKey(request);
        await withdrawApiKey(deps.db, caller, request.params.id);
        return reply.status(204).send(null);
      },
    );
  };
