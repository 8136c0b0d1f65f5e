import type { FastifyInstance } from "fastify";
import { deviceCookies } from "../auth/device-cookie.ts";
import { DEFAULT_HASHING_BOUNDS, PasswordHasher } from "../auth/password-hashing.ts";
import { serverSecret } from "../auth/server-secrets.ts";
import type { SessionStore } from "../auth/session-store.ts";
import type { Config } from "../config.ts";
import type { Database } from "../db/client.ts";
import type { LoginLimits } from "../auth/login-limits.ts";
import { clientErrorRoutes } from "../http/client-errors.ts";
import { addonRoutes } from "./addons.ts";
import { courierPasswordRoutes } from "./courier-password.ts";
import { deliveryRoutes } from "./deliveries.ts";
import { itineraryRoutes } from "./itinerary.ts";
import { createPaymentGateway } from "../payments/index.ts";
import type { PaymentGateway } from "../payments/gateway.ts";
import { openApiRoutes } from "./openapi.ts";
import { orderRoutes } from "./orders.ts";
import { paymentRoutes } from "./payments.ts";
import { pharmacyVisitRoutes } from "./pharmacy-visits.ts";
import { returnRoutes } from "./returns.ts";
import { routingRoutes } from "./routing.ts";
import { sessionRoutes } from "./sessions.ts";

export interface RouteDeps {
  config: Config;
  database: Database;
  sessions: SessionStore;
  /** The courier's calendar day ("YYYY-MM-DD"). */
  today: () => string;
}

/** Every feature's routes, registered in one place. */
export async function registerRoutes(app: FastifyInstance, deps: RouteDeps): Promise<{ paymentGateway: PaymentGateway; loginLimits: LoginLimits; hasher: PasswordHasher }> {
  const db = deps.database.db;
  const loginLimits = {
    perAccountPerMinute: deps.config.loginAttemptsPerMinute,
    perAddressPerMinute: deps.config.loginAttemptsPerAddressPerMinute,
    perDevicePerMinute: deps.config.loginAttemptsPerDevicePerMinute,
  };
  const hasher = new PasswordHasher({ ...DEFAULT_HASHING_BOUNDS, concurrency: deps.config.passwordHashConcurrency });
  const devices = deviceCookies(await serverSecret(db, "device_cookie"));
  await app.register(sessionRoutes({ db, sessions: deps.sessions, loginLimits, hasher, devices }));
  await app.register(courierPasswordRoutes({ db, loginLimits, hasher }));
  await app.register(itineraryRoutes({ db, today: deps.today, supportPhone: deps.config.supportPhone }));
  // One gateway per process, shared by every route that needs it (the sandbox keeps its nonces in memory).
  const paymentGateway = createPaymentGateway(deps.config);
  await app.register(paymentRoutes({ db, gateway: paymentGateway }));
  await app.register(deliveryRoutes({ db, today: deps.today, gateway: paymentGateway }));
  await app.register(orderRoutes({ db }));
  await app.register(addonRoutes({ db, today: deps.today }));
  await app.register(pharmacyVisitRoutes({ db }));
  await app.register(returnRoutes({ db, today: deps.today }));
  await app.register(routingRoutes({ db, today: deps.today }));
  await app.register(clientErrorRoutes({ reportsPerMinute: deps.config.clientErrorsPerMinute }));
  await app.register(openApiRoutes);
  // The console's login (the app registers it with the ops API) shares these limits and this bounded hashing.
  return { paymentGateway, loginLimits, hasher };
}
