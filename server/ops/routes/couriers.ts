import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import {
  CourierInviteRequest,
  CourierInviteResponse,
  CourierListResponse,
  CourierResponse,
  CourierUpdateRequest,
  EmptyRequest,
  OPS_API_PREFIX,
  OpsIdParams,
} from "../../../domain/contract/ops.ts";
import type { Db } from "../../db/client.ts";
import { auditActor, requireDispatch } from "../auth.ts";
import { deactivateCourier, inviteCourier, listCouriers, reinviteCourier, updateCourier } from "../services/couriers.ts";
import { OPS_TAG, opsRefusals, opsSecurity } from "./shared.ts";

/** Couriers: dispatch invites, re-invites and deactivates them (issue 15). */
export const opsCourierRoutes =
  (deps: { db: Db }): FastifyPluginAsyncZod =>
  async (app) => {
    app.post(
      `${OPS_API_PREFIX}/couriers`,
      {
        schema: {
          summary: "Invite a courier: the token opens /set-password?token=… once, for 7 days. Dispatch only.",
          tags: [OPS_TAG],
          security: opsSecurity,
          body: CourierInviteRequest,
          response: { 201: CourierInviteResponse, ...opsRefusals },
        },
      },
      async (request, reply) => {
        const caller = requireDispatch(request);
        const invited = await inviteCourier(deps.db, auditActor(caller), request.body);
        return reply.status(201).send(invited);
      },
    );

    app.post(
      `${OPS_API_PREFIX}/couriers/:id/invitation`,
      {
        schema: {
          summary: "Invite a courier again (a forgotten password, an expired link): a new token, earlier ones stop working. Dispatch only.",
          tags: [OPS_TAG],
          security: opsSecurity,
          params: OpsIdParams,
          body: EmptyRequest,
          response: { 201: CourierInviteResponse, ...opsRefusals },
        },
      },
      async (request, reply) => {
        const caller = requireDispatch(request);
        const invited = await reinviteCourier(deps.db, auditActor(caller), request.params.id);
        return reply.status(201).send(invited);
      },
    );

    app.post(
      `${OPS_API_PREFIX}/couriers/:id/deactivation`,
      {
        schema: {
          summary: "Deactivate a courier: no more logins, and every session ends at once. Dispatch only.",
          tags: [OPS_TAG],
          security: opsSecurity,
          params: OpsIdParams,
          body: EmptyRequest,
          response: { 200: CourierResponse, ...opsRefusals },
        },
      },
      async (request) => {
        const caller = requireDispatch(request);
        return { courier: await deactivateCourier(deps.db, auditActor(caller), request.params.id) };
      },
    );

    app.patch(
      `${OPS_API_PREFIX}/couriers/:id`,
      {
        schema: {
          summary: "Set what the planner plans a courier's day with: start and end location, shift, capacity (null clears). Dispatch only.",
          tags: [OPS_TAG],
          security: opsSecurity,
          params: OpsIdParams,
          body: CourierUpdateRequest,
          response: { 200: CourierResponse, ...opsRefusals },
        },
      },
      async (request) => {
        const caller = requireDispatch(request);
        return { courier: await updateCourier(deps.db, auditActor(caller), request.params.id, request.body) };
      },
    );

    app.get(
      `${OPS_API_PREFIX}/couriers`,
      {
        schema: {
          summary: "Every courier. Dispatch only.",
          tags: [OPS_TAG],
          security: opsSecurity,
          response: { 200: CourierListResponse, ...opsRefusals },
        },
      },
      async (request) => {
        requireDispatch(request);
        return { couriers: await listCouriers(deps.db) };
      },
    );
  };
