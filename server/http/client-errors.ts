import { readFileSync } from "node:fs";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { ErrorBody } from "../../domain/contract/common.ts";
import { CLIENT_ERROR_LIMITS, ClientErrorReport, clientErrorLogRecord } from "../../domain/contract/client-errors.ts";

/**
 * POST /api/client_errors: render failures and unexpected errors reported by
 * the app. Nothing is stored, and no free text from the phone is logged:
 * only the error's class name, the frames in our own scripts, the route with
 * its ids replaced and the app's version (clientErrorLogRecord; the app's own
 * scrubbing is not relied on, see docs/security.md).
 *
 * Public, and without the CSRF token: a render failure may happen before
 * login or while the session is being restored. A cross-site page cannot
 * send it: the body must be a JSON object (a text/plain body or a form
 * is 415; application/json needs a CORS preflight, and
 * CORS is closed), and it is rate-limited per address.
 */

const APP_VERSION: string = (() => {
  try {
    const pkg = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { version?: unknown };
    return typeof pkg.version === "string" ? pkg.version : "unknown";
  } catch {
    return "unknown";
  }
})();

export const CLIENT_ERRORS_URL = "/api/client_errors";

export const clientErrorRoutes =
  (deps: { reportsPerMinute: number }): FastifyPluginAsyncZod =>
  async (app) => {
    app.post(
      CLIENT_ERRORS_URL,
      {
        bodyLimit: CLIENT_ERROR_LIMITS.bodyBytes,
        config: {
          public: true,
          csrf: false,
          rateLimit: { max: deps.reportsPerMinute, timeWindow: "1 minute", keyGenerator: (request) => request.ip },
        },
        schema: {
          summary: "Report a render failure or an unexpected error in the app (only its error name, code locations and route are logged; nothing is stored)",
          tags: ["client errors"],
          body: ClientErrorReport,
          response: { 204: z.null().describe("Logged"), 400: ErrorBody, 413: ErrorBody, 415: ErrorBody, 429: ErrorBody },
        },
      },
      async (request, reply) => {
        const report = clientErrorLogRecord(request.body);
        request.log.warn(
          { client_error: { ...report, app_version: APP_VERSION, courier_id: request.session?.courier.id ?? null } },
          "client error reported",
        );
        return reply.status(204).send(null);
      },
    );
  };
