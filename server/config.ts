import path from "node:path";
import { braintreeConfigFrom, type BraintreeConfig } from "./payments/braintree-config.ts";

export interface Config {
  host: string;
  port: number;
  /** Embedded PGlite folder, used when databaseUrl is not set. */
  dataDir: string;
  databaseUrl: string | undefined;
  /** The courier's calendar day is taken in this zone. */
  serviceTimeZone: string;
  supportPhone: string;
  /** Where the built web app lives; served from the same origin as the API. */
  webRoot: string;
  sessionIdleMinutes: number;
  sessionAbsoluteHours: number;
  /** Trust X-Forwarded-* from the load balancer in front (docs/deployment.md). */
  trustProxy: boolean;
  loginAttemptsPerMinute: number;
  /** Client error reports accepted per address and minute (POST /api/client_errors). */
  clientErrorsPerMinute: number;
  /** Load the demo day into an empty database at start (DEMO_DATA=false in production: its couriers have a published password). */
  demoData: boolean;
  /** How long an Idempotency-Key stays claimed by a request that never finished (its process died) before a retry may run it. */
  idempotencyLeaseSeconds: number;
  logLevel: string;
  /** Real Braintree when all three credentials are set; the local sandbox gateway otherwise (docs/payments.md). */
  braintree: BraintreeConfig | null;
}

function intFrom(value: string | undefined, fallback: number): number {
  const parsed = value == null || value === "" ? NaN : Number(value);
  return Number.isInteger(parsed) && parsed > 0 ? parsed : fallback;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  return {
    host: env.HOST || "127.0.0.1",
    port: intFrom(env.PORT, 3000),
    dataDir: path.resolve(env.DATA_DIR || "./data"),
    databaseUrl: env.DATABASE_URL || undefined,
    serviceTimeZone: env.SERVICE_TIME_ZONE || "America/New_York",
    supportPhone: env.SUPPORT_PHONE || "18005550199",
    webRoot: path.resolve(env.WEB_ROOT || "./dist"),
    sessionIdleMinutes: intFrom(env.SESSION_IDLE_MINUTES, 8 * 60),
    sessionAbsoluteHours: intFrom(env.SESSION_ABSOLUTE_HOURS, 16),
    trustProxy: env.TRUST_PROXY === "true",
    loginAttemptsPerMinute: intFrom(env.LOGIN_ATTEMPTS_PER_MINUTE, 10),
    clientErrorsPerMinute: intFrom(env.CLIENT_ERRORS_PER_MINUTE, 30),
    idempotencyLeaseSeconds: intFrom(env.IDEMPOTENCY_LEASE_SECONDS, 60),
    demoData: env.DEMO_DATA !== "false",
    logLevel: env.LOG_LEVEL || "info",
    braintree: braintreeConfigFrom(env),
  };
}
