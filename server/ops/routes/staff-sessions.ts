import type { FastifyReply, FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { ErrorBody } from "../../../domain/contract/common.ts";
import { OPS_API_PREFIX } from "../../../domain/contract/ops.ts";
import { StaffLoginRequest, StaffSessionResponse } from "../../../domain/contract/staff.ts";
import type { DeviceCookies } from "../../auth/device-cookie.ts";
import type { LoginLimits } from "../../auth/login-limits.ts";
import type { PasswordHasher } from "../../auth/password-hashing.ts";
import { cookieIsSecure, openLoginSession } from "../../auth/plugin.ts";
import type { Db } from "../../db/client.ts";
import { requireStaffSession } from "../auth.ts";
import { authenticateStaff, staffLoginAccount } from "../services/staff-login.ts";
import { STAFF_SESSION_COOKIE, type StaffSessionStore } from "../staff-sessions.ts";
import { OPS_TAG, opsRefusals, staffSessionSecurity } from "./shared.ts";

/** The staff session cookie travels to the operations API only. */
function setStaffSessionCookie(request: FastifyRequest, reply: FastifyReply, token: string, expires: Date): void {
  reply.setCookie(STAFF_SESSION_COOKIE, token, { path: OPS_API_PREFIX, httpOnly: true, sameSite: "lax", secure: cookieIsSecure(request), expires });
}

function clearStaffSessionCookie(request: FastifyRequest, reply: FastifyReply): void {
  reply.clearCookie(STAFF_SESSION_COOKIE, { path: OPS_API_PREFIX, httpOnly: true, sameSite: "lax", secure: cookieIsSecure(request) });
}

/**
 * The dispatch console's login (issue 27): a dispatcher or pharmacist gets a
 * session cookie and a CSRF token, and calls the operations API with them.
 * The courier's login rules (server/ops/services/staff-login.ts): the same
 * limits, with a device cookie of the console's own path, the same bounded
 * hashing, a deactivated account refused like a wrong password; and a new
 * session id at every login.
 */
export const staffSessionRoutes =
  (deps: { db: Db; sessions: StaffSessionStore; loginLimits: LoginLimits; hasher: PasswordHasher; devices: DeviceCookies; timeZone: string }): FastifyPluginAsyncZod =>
  async (app) => {
    app.post(
      `${OPS_API_PREFIX}/sessions`,
      {
        config: { public: true, csrf: false },
        schema: {
          summary: "Log in to the dispatch console as a dispatcher or pharmacist: a session cookie, and the CSRF token every mutating call sends as X-CSRF-Token",
          tags: [OPS_TAG],
          security: [],
          body: StaffLoginRequest,
          response: { 200: StaffSessionResponse, 400: ErrorBody, 401: ErrorBody, 429: ErrorBody, 503: ErrorBody },
        },
      },
      async (request, reply) => {
        const account = staffLoginAccount(request.body.email);
        const staff = await authenticateStaff(deps, request.body, { device: deps.devices.known(request, account), address: request.ip });
        deps.devices.issue(request, reply, account);
        const csrfToken = await openLoginSession(request, reply, { sessions: deps.sessions, cookie: STAFF_SESSION_COOKIE, setCookie: setStaffSessionCookie, accountId: staff.id });
        return { staff, csrf_token: csrfToken, service_time_zone: deps.timeZone };
      },
    );

    app.get(
      `${OPS_API_PREFIX}/sessions/current`,
      {
        schema: {
          summary: "The dispatcher or pharmacist logged in to the console, and their CSRF token",
          tags: [OPS_TAG],
          security: staffSessionSecurity,
          response: { 200: StaffSessionResponse, ...opsRefusals },
        },
      },
      async (request) => {
        const session = requireStaffSession(request);
        return { staff: session.staff, csrf_token: session.csrfToken, service_time_zone: deps.timeZone };
      },
    );

    app.delete(
      `${OPS_API_PREFIX}/sessions/current`,
      {
        schema: {
          summary: "Log out of the console (X-CSRF-Token)",
          tags: [OPS_TAG],
          security: staffSessionSecurity,
          response: { 204: z.null().describe("Logged out"), ...opsRefusals },
        },
      },
      async (request, reply) => {
        await deps.sessions.destroy(requireStaffSession(request).idHash);
        clearStaffSessionCookie(request, reply);
        return reply.status(204).send(null);
      },
    );
  };
