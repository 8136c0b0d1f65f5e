import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { ErrorBody } from "../../domain/contract/common.ts";
import { SetPasswordRequest } from "../../domain/contract/onboarding.ts";
import type { LoginLimits } from "../auth/login-limits.ts";
import type { PasswordHasher } from "../auth/password-hashing.ts";
import type { Db } from "../db/client.ts";
import { setPasswordFromInvitation } from "../services/onboarding.ts";

/** Courier onboarding (issue 15): no session and no CSRF token, like login. */
export const courierPasswordRoutes =
  (deps: { db: Db; loginLimits: LoginLimits; hasher: PasswordHasher }): FastifyPluginAsyncZod =>
  async (app) => {
    app.post(
      "/api/courier/password",
      {
        config: { public: true, csrf: false },
        schema: {
          summary: "Set the invited courier's password with the token of the invitation (single use, 7 days)",
          tags: ["sessions"],
          security: [],
          body: SetPasswordRequest,
          response: { 204: z.null().describe("Password set; log in as usual"), 400: ErrorBody, 429: ErrorBody, 503: ErrorBody },
        },
      },
      async (request, reply) => {
        await setPasswordFromInvitation(deps, request.body, request.ip);
        return reply.status(204).send(null);
      },
    );
  };
