import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from "fastify";
import cookie from "@fastify/cookie";
import rateLimit from "@fastify/rate-limit";
import fastifyStatic from "@fastify/static";
import swagger from "@fastify/swagger";
import { serializerCompiler } from "fastify-type-provider-zod";
import { z } from "zod";
import { ErrorBody } from "../domain/contract/common.ts";
import { calendarDate } from "../domain/dates.ts";
import { purgeLoginAttempts } from "./auth/login-limits.ts";
import { installAuth } from "./auth/plugin.ts";
import { createSessionStore } from "./auth/session-store.ts";
import type { Config } from "./config.ts";
import type { Database } from "./db/client.ts";
import { installAcceptCheck } from "./http/accept.ts";
import { installErrorHandling } from "./http/errors.ts";
import { validatorCompiler } from "./http/validator.ts";
import { installJsonCompression, preferredEncoding } from "./http/compress-json.ts";
import { installInteractiveFirst } from "./http/interactive-first.ts";
import { installLoadShedding } from "./http/load-shedding.ts";
import { installIdempotency } from "./http/idempotency.ts";
import { inlineScriptHashes } from "./http/inline-scripts.ts";
import { loggerOptions, type LogDestination } from "./http/logging.ts";
import { installPatientViewAudit } from "./http/patient-view-audit.ts";
import { pageVariants, routePreloads } from "./http/route-preloads.ts";
import { consolePageWithTiles } from "./http/map-tiles.ts";
import { installSecurityHeaders } from "./http/security-headers.ts";
import { registerRoutes } from "./routes/index.ts";
import { openApiOptions } from "./routes/openapi.ts";
import { startPaymentRecovery, type PaymentRecovery } from "./services/payment-recovery.ts";
import { startWebhookSender, type WebhookSender } from "./services/webhooks/sender.ts";
import type { PinnedConnect } from "./services/webhooks/pinned-connect.ts";
import type { Resolver } from "./services/webhooks/url-policy.ts";
import { ensureEnvironmentKey } from "./ops/services/api-keys.ts";
import { installOpsAuth } from "./ops/auth.ts";
import { createStaffSessionStore } from "./ops/staff-sessions.ts";
import { staffSessionRoutes } from "./ops/routes/staff-sessions.ts";
import { deviceCookies } from "./auth/device-cookie.ts";
import { serverSecret } from "./auth/server-secrets.ts";
import { opsEventRoutes } from "./ops/routes/events.ts";
import { StaffStreamEnds } from "./ops/staff-stream-ends.ts";
import { installPromptClose } from "./http/prompt-close.ts";
import { EventHub, purgeDispatchEvents } from "./services/events/hub.ts";
import { registerOpsRoutes } from "./ops/routes/index.ts";
import { RenderPool, type RenderPoolOptions } from "./ops/services/proof/render-pool.ts";
import { BatchCheckPool, type BatchCheckPoolOptions } from "./ops/services/batch-check/pool.ts";

export interface AppOptions {
  config: Config;
  database: Database;
  /** The courier's calendar day; tests pin it. */
  today?: () => string;
  logger?: boolean;
  /** Where log lines go instead of stdout (the redaction tests read them). */
  logStream?: LogDestination;
  /** How often the webhook sender looks for due rows (default 1 s). */
  webhookPollMs?: number;
  /** The webhooks' host name lookup and connection (tests: a name that answers differently each time, a watched connect). */
  webhookNetwork?: { resolve?: Resolver; connect?: PinnedConnect };
  /** How often an idle event stream sends a keep-alive and checks its console session (default 15 s). */
  eventKeepaliveMs?: number;
  /** The PDF render pool's size, queue and time bound (tests give a worker that waits on a latch). */
  renderPool?: RenderPoolOptions;
  /** The orders batch's check worker (tests read every batch there with inThreadBelowBytes 0). */
  batchCheck?: BatchCheckPoolOptions;
}

const HealthBody = z.object({ ok: z.literal(true), engine: z.enum(["pglite", "postgres"]) });

/** JSON bodies are small: a signature SVG travels as multipart with its own limit. */
const JSON_BODY_LIMIT = 256 * 1024;

export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const { config, database } = options;
  const today = options.today ?? (() => calendarDate(new Date(), config.serviceTimeZone));
  const app = Fastify({
    // Redaction and serializers: no patient data, tokens or bodies in the logs (server/http/logging.ts).
    logger: options.logger === false ? false : loggerOptions(config.logLevel, options.logStream),
    // A hop count as proxy-addr's function: hop 0 is the socket's address (the balancer), the client is the first hop not trusted.
    trustProxy: typeof config.trustProxy === "number" ? trustHops(config.trustProxy) : config.trustProxy,
    bodyLimit: JSON_BODY_LIMIT,
    return503OnClosing: true,
    // The router's own refusals (a malformed or overlong URL) in the product's error shape too.
    frameworkErrors: (error, _request, reply) => {
      const tooLong = error.code === "FST_ERR_MAX_PARAM_LENGTH";
      // The reply here is typed for no route in particular.
      (reply as unknown as FastifyReply)
        .status(tooLong ? 414 : 400)
        .send({ error: "invalid_request", message: tooLong ? "The address is too long." : "The address is not valid." });
    },
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  // Bodies are JSON or multipart forms: a text/plain body is 415 like any other type the API does not read (issue 25).
  app.removeContentTypeParser("text/plain");
  installErrorHandling(app);
  installPromptClose(app);

  const page = webAppPage(config.webRoot);
  const consolePage = consoleAppPage(config.webRoot);
  // One policy for both pages: the courier's inline script by its hash (the console's page has none).
  const inlineScripts = [page, consolePage].flatMap((html) => (html ? inlineScriptHashes(html) : []));
  await installSecurityHeaders(app, { braintree: config.braintree !== null, inlineScripts, mapTileOrigin: config.mapTiles?.origin ?? null });
  await app.register(cookie);
  await app.register(rateLimit, { global: false });
  await app.register(swagger, openApiOptions());

  // First of the API's request hooks: a call shed for load costs no session lookup.
  installLoadShedding(app, {
    concurrency: config.maxConcurrentRequests ?? (database.engine === "pglite" ? 8 : 64),
    maxWaitMs: config.requestQueueMs,
    maxQueue: 500,
  });
  installInteractiveFirst(app);
  installAcceptCheck(app);
  const sessions = createSessionStore(database.db, {
    idleMinutes: config.sessionIdleMinutes,
    absoluteHours: config.sessionAbsoluteHours,
  });
  installAuth(app, sessions);
  const staffSessions = createStaffSessionStore(database.db, {
    idleMinutes: config.sessionIdleMinutes,
    absoluteHours: config.sessionAbsoluteHours,
  });
  // The operations API's Bearer keys (issue 15); OPS_API_KEY is kept as a hash before anything is served.
  if (config.opsApiKey) await ensureEnvironmentKey(database.db, config.opsApiKey);
  installOpsAuth(app, { db: database.db, enabled: config.opsApiKey !== null, requestsPerMinute: config.opsRequestsPerMinute, staffSessions });
  // Dead sessions are refused at once; their rows go at start and then hourly (docs/security.md "Retention").
  const purgeSessions = () =>
    Promise.all([sessions.purgeExpired(), staffSessions.purgeExpired(), purgeLoginAttempts(database.db), purgeDispatchEvents(database.db)]).catch((error: unknown) => app.log.warn({ err: error }, "session purge failed"));
  const sessionPurge = setInterval(purgeSessions, 3_600_000).unref();
  app.addHook("onReady", async () => void (await purgeSessions()));
  app.addHook("onClose", async () => clearInterval(sessionPurge));
  installIdempotency(app, { db: database.db, leaseSeconds: config.idempotencyLeaseSeconds });
  installPatientViewAudit(app, {
    db: database.db,
    // The courier's session, an operations API key or a console session (staff): all are views of patient data.
    viewerOf: (request) =>
      request.session
        ? { courierId: request.session.courier.id, apiKeyId: null }
        : request.opsCaller
          ? { courierId: null, apiKeyId: request.opsCaller.keyId, staffId: request.opsCaller.staff?.id ?? null }
          : null,
  });
  // Last of the onSend hooks: idempotency and the audit read the plain JSON first.
  installJsonCompression(app);

  // Each process sends the outbox's due webhooks while it listens (server/services/webhooks/sender.ts).
  let webhookSender: WebhookSender | null = null;
  app.addHook("onReady", async () => {
    webhookSender = startWebhookSender({
      db: database.db,
      log: app.log,
      allowPrivate: config.webhookAllowPrivate,
      retryScale: config.webhookRetryScale,
      pollMs: options.webhookPollMs,
      resolve: options.webhookNetwork?.resolve,
      connect: options.webhookNetwork?.connect,
    });
  });
  app.addHook("onClose", async () => void (await webhookSender?.stop()));
  app.decorate("webhookSender", { drain: () => webhookSender?.drain() ?? Promise.resolve() });

  const { paymentGateway, loginLimits, hasher } = await registerRoutes(app, { config, database, sessions, today });
  // The console's login shares the courier's limits and bounded hashing (issue 27); its device cookie has the console login's path.
  await app.register(
    staffSessionRoutes({
      db: database.db,
      sessions: staffSessions,
      loginLimits,
      hasher,
      devices: deviceCookies(await serverSecret(database.db, "device_cookie"), "/api/ops/v1/sessions"),
      timeZone: config.serviceTimeZone,
    }),
  );
  // Card holds a crash left without their answer recorded are released, at start and every minute (docs/security.md "Payments").
  let paymentRecovery: PaymentRecovery | null = null;
  app.addHook("onReady", async () => {
    paymentRecovery = startPaymentRecovery({ db: database.db, gateway: paymentGateway, log: app.log });
  });
  app.addHook("onClose", async () => void (await paymentRecovery?.stop()));
  // PDFs are drawn in worker threads, never on the event loop (docs/security.md "Images and PDFs").
  const renderPool = new RenderPool({ ...options.renderPool, onFailure: (reason) => app.log.error({ reason }, "PDF render failed") });
  app.addHook("onClose", async () => renderPool.close());
  // An orders batch's body is parsed and checked in a worker thread, not on the couriers' event loop (issue 25).
  const batchCheck = new BatchCheckPool({
    ...options.batchCheck,
    onFailure: (reason) => {
      app.log.error({ reason }, "orders batch check: read on the server's thread instead");
      options.batchCheck?.onFailure?.(reason);
    },
  });
  app.addHook("onClose", async () => batchCheck.close());
  // The console's live stream (issue 27): one hub per process, listening for every process's commits.
  const eventHub = new EventHub(database.db, database.listen, (error) => app.log.error({ err: error }, "live events: a read failed"));
  await eventHub.start();
  app.addHook("onClose", async () => eventHub.close());
  const sessionEnds = new StaffStreamEnds(staffSessions, database.listen, (error) => app.log.error({ err: error }, "live events: a session check failed"));
  await sessionEnds.start();
  app.addHook("onClose", async () => sessionEnds.close());
  await app.register(
    opsEventRoutes({ hub: eventHub, sessionEnds, maxStreams: config.maxEventStreams, keepaliveMs: options.eventKeepaliveMs ?? 15_000 }),
  );
  await registerOpsRoutes(app, {
    renderPool,
    batchCheck,
    db: database.db,
    today,
    gateway: paymentGateway,
    timeZone: config.serviceTimeZone,
    webhookAllowPrivate: config.webhookAllowPrivate,
    webhookResolve: options.webhookNetwork?.resolve,
    routing: config.routing,
  });
  app.get(
    "/api/health",
    { config: { public: true }, schema: { response: { 200: HealthBody, 406: ErrorBody } } },
    async () => ({ ok: true as const, engine: database.engine }),
  );

  if (page) await serveWebApp(app, config.webRoot, page, consolePage && config.mapTiles ? consolePageWithTiles(consolePage, config.mapTiles) : null);
  return app;
}

function trustHops(count: number): (address: string, hop: number) => boolean {
  return (_address, hop) => hop < count;
}

/** The built index.html, when there is a web app to serve. */
function webAppPage(webRoot: string): string | null {
  const indexHtml = path.join(webRoot, "index.html");
  return existsSync(indexHtml) ? readFileSync(indexHtml, "utf8") : null;
}

/** The built dispatch console's page (dispatch.html, issue 27), when the build has one. */
function consoleAppPage(webRoot: string): string | null {
  const dispatchHtml = path.join(webRoot, "dispatch.html");
  return existsSync(dispatchHtml) ? readFileSync(dispatchHtml, "utf8") : null;
}

/** The built web app from the same origin; any non-API path is the single-page app, /dispatch and below the console's. */
async function serveWebApp(app: FastifyInstance, webRoot: string, indexHtml: string, /** The console's page naming a map tile server (MAP_TILE_URL), else the file as built. */ consoleHtml: string | null): Promise<void> {
  // preCompressed: the build writes .br/.gz copies (vite.config.ts); sent when the browser accepts them.
  await app.register(fastifyStatic, { root: webRoot, wildcard: false, index: false, preCompressed: true });
  if (existsSync(path.join(webRoot, "dispatch.html"))) {
    // The dispatch console (issue 27): its own page, never the courier's, for /dispatch and every path below it.
    const consolePage = (_request: FastifyRequest, reply: FastifyReply) =>
      consoleHtml
        ? reply.header("cache-control", "no-cache").type("text/html; charset=utf-8").send(consoleHtml)
        : reply.header("cache-control", "no-cache").sendFile("dispatch.html", { cacheControl: false });
    app.get("/dispatch", { config: { public: true }, schema: { hide: true } }, consolePage);
    app.get("/dispatch/*", { config: { public: true }, schema: { hide: true } }, consolePage);
  }
  const preloadsFor = routePreloads(webRoot);
  const pageWith = pageVariants(indexHtml, webRoot);
  app.get("/*", { config: { public: true }, schema: { hide: true } }, (request, reply) => {
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
