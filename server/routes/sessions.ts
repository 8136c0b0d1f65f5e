import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { ErrorBody } from "../../domain/contract/common.ts";
import { LoginRequest, SessionResponse } from "../../domain/contract/sessions.ts";
import type { DeviceCookies } from "../auth/device-cookie.ts";
import type { LoginLimits } from "../auth/login-limits.ts";
import type { PasswordHasher } from "../auth/password-hashing.ts";
import { clearSessionCookie, currentSession, openLoginSession, SESSION_COOKIE, setSessionCookie } from "../auth/plugin.ts";
import type { SessionStore } from "../auth/session-store.ts";
import type { Db } from "../db/client.ts";
import { authenticateCourier, loginAccount } from "../services/login.ts";

export const sessionRoutes =
  (deps: { db: Db; sessions: SessionStore; loginLimits: LoginLimits; hasher: PasswordHasher; devices: DeviceCookies }): FastifyPluginAsyncZod =>
  async (app) => {
    app.post(
      "/api/sessions",
      {
        config: { public: true, csrf: false },
        schema: {
          summary: "Log in",
          tags: ["sessions"],
          body: LoginRequest,
          response: { 200: SessionResponse, 400: ErrorBody, 401: ErrorBody, 429: ErrorBody, 503: ErrorBody },
        },
      },
      async (request, reply) => {
        const account = loginAccount(request.body.email);
        const courier = await authenticateCourier(deps, request.body, { device: deps.devices.known(request, account), address: request.ip });
        deps.devices.issue(request, reply, account);
        const csrfToken = await openLoginSession(request, reply, { sessions: deps.sessions, cookie: SESSION_COOKIE, setCookie: setSessionCookie, accountId: courier.id });
        return { courier: { id: courier.id, first_name: courier.firstName, last_name: courier.lastName }, csrf_token: csrfToken };
      },
    );

    app.get(
      "/api/sessions/current",
      { schema: { summary: "The logged-in courier", tags: ["sessions"], response: { 200: SessionResponse, 401: ErrorBody } } },
      async (request) => {
        const session = currentSession(request);
        return { courier: session.courier, csrf_token: session.csrfToken };
      },
    );

    app.delete(
      "/api/sessions/current",
      { schema: { summary: "Log out", tags: ["sessions"], response: { 204: z.null().describe("Logged out"), 401: ErrorBody, 403: ErrorBody } } },
      async (request, reply) => {
        await deps.sessions.destroy(currentSession(request).idHash);
        clearSessionCookie(request, reply);
        return reply.status(204).send(null);
      },
    );
  };
