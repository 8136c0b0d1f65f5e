import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { EmptyRequest, OPS_API_PREFIX, OpsIdParams } from "../../../domain/contract/ops.ts";
import { StaffInviteRequest, StaffInviteResponse, StaffListResponse, StaffResponse } from "../../../domain/contract/staff.ts";
import type { Db } from "../../db/client.ts";
import { conflict } from "../../http/errors.ts";
import { requireDispatchKey } from "../auth.ts";
import { isUniqueViolation } from "../services/couriers.ts";
import { deactivateStaff, inviteStaff, listStaff, reinviteStaff } from "../services/staff.ts";
import { OPS_TAG, opsKeySecurity, opsRefusals } from "./shared.ts";

/** Staff accounts (issue 27): a dispatch key invites, re-invites and deactivates dispatchers and pharmacists; a console session never does. */
export const opsStaffRoutes =
  (deps: { db: Db }): FastifyPluginAsyncZod =>
  async (app) => {
    app.post(
      `${OPS_API_PREFIX}/staff`,
      {
        schema: {
          summary: "Invite a dispatcher or a pharmacist (pharmacy_id required): the token opens /set-password?token=… once, for 7 days. Dispatch key only.",
          tags: [OPS_TAG],
          security: opsKeySecurity,
          body: StaffInviteRequest,
          response: { 201: StaffInviteResponse, ...opsRefusals },
        },
      },
      async (request, reply) => {
        const caller = requireDispatchKey(request);
        try {
          const invited = await inviteStaff(deps.db, { apiKeyId: caller.keyId }, request.body);
          return reply.status(201).send(invited);
        } catch (error) {
          if (isUniqueViolation(error)) throw conflict(`A staff member with the email ${request.body.email.toLowerCase()} already exists.`);
          throw error;
        }
      },
    );

    app.get(
      `${OPS_API_PREFIX}/staff`,
      {
        schema: {
          summary: "Every dispatcher and pharmacist. Dispatch key only.",
          tags: [OPS_TAG],
          security: opsKeySecurity,
          response: { 200: StaffListResponse, ...opsRefusals },
        },
      },
      async (request) => {
        requireDispatchKey(request);
        return { staff: await listStaff(deps.db) };
      },
    );

    app.post(
      `${OPS_API_PREFIX}/staff/:id/invitation`,
      {
        schema: {
          summary: "Invite a staff member again (a forgotten password, an expired link): a new token, earlier ones stop working. Dispatch key only.",
          tags: [OPS_TAG],
          security: opsKeySecurity,
          params: OpsIdParams,
          body: EmptyRequest,
          response: { 201: StaffInviteResponse, ...opsRefusals },
        },
      },
      async (request, reply) => {
        const caller = requireDispatchKey(request);
        return reply.status(201).send(await reinviteStaff(deps.db, { apiKeyId: caller.keyId }, request.params.id));
      },
    );

    app.post(
      `${OPS_API_PREFIX}/staff/:id/deactivation`,
      {
        schema: {
          summary: "Deactivate a staff member: no more logins, and every session (and event stream) ends at once. Dispatch key only.",
          tags: [OPS_TAG],
          security: opsKeySecurity,
          params: OpsIdParams,
          body: EmptyRequest,
          response: { 200: StaffResponse, ...opsRefusals },
        },
      },
      async (request) => {
        const caller = requireDispatchKey(request);
        return { staff: await deactivateStaff(deps.db, { apiKeyId: caller.keyId }, request.params.id) };
      },
    );
  };
