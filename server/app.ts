import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import Fastify, { type FastifyInstance } from "fastify";
import cookie from "@fastify/cookie";
import rateLimit from "@fastify/rate-limit";
import fastifyStatic from "@fastify/static";
import swagger from "@fastify/swagger";
import { jsonSchemaTransform, serializerCompiler, validatorCompiler } from "fastify-type-provider-zod";
import { calendarDate } from "../domain/dates.ts";
import { installAuth } from "./auth/plugin.ts";
import { createSessionStore } from "./auth/session-store.ts";
import type { Config } from "./config.ts";
import type { Database } from "./db/client.ts";
import { installAcceptCheck } from "./http/accept.ts";
import { installErrorHandling } from "./http/errors.ts";
import { installJsonCompression, preferredEncoding } from "./http/compress-json.ts";
import { installIdempotency } from "./http/idempotency.ts";
import { inlineScriptHashes } from "./http/inline-scripts.ts";
import { loggerOptions, type LogDestination } from "./http/logging.ts";
import { installPatientViewAudit } from "./http/patient-view-audit.ts";
import { pageVariants, routePreloads } from "./http/route-preloads.ts";
import { installSecurityHeaders } from "./http/security-headers.ts";
import { registerRoutes } from "./routes/index.ts";

export interface AppOptions {
  config: Config;
  database: Database;
  /** The courier's calendar day; tests pin it. */
  today?: () => string;
  logger?: boolean;
  /** Where log lines go instead of stdout (the redaction tests read them). */
  logStream?: LogDestination;
}

/** JSON bodies are small: a signature SVG travels as multipart with its own limit. */
const JSON_BODY_LIMIT = 256 * 1024;

export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const { config, database } = options;
  const today = options.today ?? (() => calendarDate(new Date(), config.serviceTimeZone));
  const app = Fastify({
    // Redaction and serializers: no patient data, tokens or bodies in the logs (server/http/logging.ts).
    logger: options.logger === false ? false : loggerOptions(config.logLevel, options.logStream),
    trustProxy: config.trustProxy,
    bodyLimit: JSON_BODY_LIMIT,
    return503OnClosing: true,
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  installErrorHandling(app);

  const page = webAppPage(config.webRoot);
  await installSecurityHeaders(app, { braintree: config.braintree !== null, inlineScripts: page ? inlineScriptHashes(page) : [] });
  await app.register(cookie);
  await app.register(rateLimit, { global: false });
  await app.register(swagger, {
    openapi: {
      openapi: "3.1.0",
      info: {
        title: "Rx Courier API",
        version: "1",
        description: "The courier app's API. Send Accept: application/vnd.rxcourier.v1+json.",
      },
      components: {
        securitySchemes: {
          session: { type: "apiKey", in: "cookie", name: "rxc_session" },
          csrf: { type: "apiKey", in: "header", name: "X-CSRF-Token" },
        },
      },
      security: [{ session: [], csrf: [] }],
    },
    transform: jsonSchemaTransform,
  });

  installAcceptCheck(app);
  const sessions = createSessionStore(database.db, {
    idleMinutes: config.sessionIdleMinutes,
    absoluteHours: config.sessionAbsoluteHours,
  });
  installAuth(app, sessions);
  // Dead sessions are refused at once; their rows go at start and then hourly (docs/security.md "Retention").
  const purgeSessions = () => sessions.purgeExpired().catch((error: unknown) => app.log.warn({ err: error }, "session purge failed"));
  const sessionPurge = setInterval(purgeSessions, 3_600_000).unref();
  app.addHook("onReady", async () => void (await purgeSessions()));
  app.addHook("onClose", async () => clearInterval(sessionPurge));
  installIdempotency(app, { db: database.db, leaseSeconds: config.idempotencyLeaseSeconds });
  installPatientViewAudit(app, { db: database.db });
  // Last of the onSend hooks: idempotency and the audit read the plain JSON first.
  installJsonCompression(app);

  await registerRoutes(app, { config, database, sessions, today });
  app.get("/api/health", { config: { public: true } }, async () => ({ ok: true, engine: database.engine }));

  if (page) await serveWebApp(app, config.webRoot, page);
  return app;
}

/** The built index.html, when there is a web app to serve. */
function webAppPage(webRoot: string): string | null {
  const indexHtml = path.join(webRoot, "index.html");
  return existsSync(indexHtml) ? readFileSync(indexHtml, "utf8") : null;
}

/** The built web app from the same origin; any non-API path is the single-page app. */
async function serveWebApp(app: FastifyInstance, webRoot: string, indexHtml: string): Promise<void> {
  // preCompressed: the build writes .br/.gz copies (vite.config.ts); sent when the browser accepts them.
  await app.register(fastifyStatic, { root: webRoot, wildcard: false, index: false, preCompressed: true });
  const preloadsFor = routePreloads(webRoot);
  const pageWith = pageVariants(indexHtml);
  app.get("/*", { config: { public: true } }, (request, reply) => {
    const pathname = request.url.split("?")[0]!;
    if (pathname.startsWith("/api/")) {
      return reply.status(404).send({ error: "not_found", message: `No route GET ${pathname}.` });
    }
    reply.header("cache-control", "no-cache");
    // A screen that loads its code on demand: name its chunks in the page, so they come with the app's script.
    const preloads = preloadsFor(pathname);
    if (preloads.length === 0) return reply.sendFile("index.html");
    const page = pageWith(preloads);
    const encoding = preferredEncoding(request.headers["accept-encoding"]);
    reply.type("text/html; charset=utf-8").header("vary", "Accept-Encoding");
    if (encoding) reply.header("content-encoding", encoding);
    return reply.send(encoding === "br" ? page.br : encoding === "gzip" ? page.gzip : page.html);
  });
}
