import argon2 from "argon2";
import { eq, sql } from "drizzle-orm";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { ErrorBody } from "../../domain/contract/common.ts";
import { LoginRequest, SessionResponse } from "../../domain/contract/sessions.ts";
import { clearSessionCookie, currentSession, SESSION_COOKIE, setSessionCookie } from "../auth/plugin.ts";
import type { SessionStore } from "../auth/session-store.ts";
import { couriers } from "../db/schema.ts";
import type { Db } from "../db/client.ts";
import { HttpError } from "../http/errors.ts";

/** Compared against when the email is unknown, so a wrong email costs the same time as a wrong password. */
const DUMMY_HASH = await argon2.hash("not-a-real-password");

export const sessionRoutes =
  (deps: { db: Db; sessions: SessionStore; loginAttemptsPerMinute: number }): FastifyPluginAsyncZod =>
  async (app) => {
    app.post(
      "/api/sessions",
      {
        config: {
          public: true,
          csrf: false,
          rateLimit: {
            max: deps.loginAttemptsPerMinute,
            timeWindow: "1 minute",
            // Counted once the body is parsed, so the key has the email: couriers sharing an address keep their own attempts.
            hook: "preHandler",
            keyGenerator: (request) => {
              const email = (request.body as { email?: unknown } | undefined)?.email;
              return `${request.ip}|${typeof email === "string" ? email.trim().toLowerCase() : ""}`;
            },
          },
        },
        schema: {
          summary: "Log in",
          tags: ["sessions"],
          body: LoginRequest,
          response: { 200: SessionResponse, 400: ErrorBody, 401: ErrorBody, 429: ErrorBody },
        },
      },
      async (request, reply) => {
        const email = request.body.email.toLowerCase();
        const [courier] = await deps.db.select().from(couriers).where(eq(sql`lower(${couriers.email})`, email));
        const valid = await argon2.verify(courier?.passwordHash ?? DUMMY_HASH, request.body.password);
        if (!courier || !valid) throw new HttpError(401, "invalid_credentials", "The email or password is incorrect.");

        // A new session id at every login: a planted cookie never becomes a logged-in one.
        const previous = request.cookies[SESSION_COOKIE];
        if (previous) await deps.sessions.destroyToken(previous);
        const session = await deps.sessions.create(courier.id);
        setSessionCookie(request, reply, session.token, session.expiresAt);
        return {
          courier: { id: courier.id, first_name: courier.firstName, last_name: courier.lastName },
          csrf_token: session.csrfToken,
        };
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
