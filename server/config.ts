import path from "node:path";
import { mapTilesFrom, type MapTilesConfig } from "./http/map-tiles.ts";
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
  /**
   * Which X-Forwarded-* hops to trust (docs/security.md "Client address"): false,
   * a hop count (TRUST_PROXY=true is one hop: the balancer in front), or the
   * balancers' addresses/CIDRs. The client is the right-most address not trusted.
   */
  trustProxy: false | number | string[];
  /** Failed logins per email and minute from browsers without its device cookie, from any address, counted in the database. */
  loginAttemptsPerMinute: number;
  /** Failed logins per client address and minute (browsers without a device cookie), whatever the email. */
  loginAttemptsPerAddressPerMinute: number;
  /** Failed logins per device cookie and minute (LOGIN_ATTEMPTS_PER_DEVICE_PER_MINUTE). */
  loginAttemptsPerDevicePerMinute: number;
  /** API calls served at once (MAX_CONCURRENT_REQUESTS); unset: 8 on the embedded database, 64 on PostgreSQL. */
  maxConcurrentRequests: number | undefined;
  /** Live event streams open at once per process (MAX_EVENT_STREAMS, issue 27): they hold no request slot. */
  maxEventStreams: number;
  /** How long a call may wait for a serving slot before it is refused with 503 + Retry-After (REQUEST_QUEUE_MS). */
  requestQueueMs: number;
  /** Password hashes at once; more wait in a bounded queue, then 503 (server/auth/password-hashing.ts). */
  passwordHashConcurrency: number;
  /** Client error reports accepted per address and minute (POST /api/client_errors). */
  clientErrorsPerMinute: number;
  /** Load the demo day into an empty database at start (DEMO_DATA=false in production: its couriers have a published password). */
  demoData: boolean;
  /** How long an Idempotency-Key stays claimed by a request that never finished (its process died) before a retry may run it. */
  idempotencyLeaseSeconds: number;
  logLevel: string;
  /** Real Braintree when all three credentials are set; the local sandbox gateway otherwise (docs/payments.md). */
  braintree: BraintreeConfig | null;
  /** Webhook endpoints on private or loopback addresses are accepted (WEBHOOK_ALLOW_PRIVATE=true: tests and the demo only). */
  webhookAllowPrivate: boolean;
  /** Multiplies the webhook retry schedule (WEBHOOK_RETRY_SCALE); tests shrink it, production leaves it at 1. */
  webhookRetryScale: number;
  /** The first dispatch key of the operations API (OPS_API_KEY); without it every ops call is 401 (docs/operations.md). */
  opsApiKey: string | null;
  /** Operations API calls accepted per key and minute before 429 (OPS_REQUESTS_PER_MINUTE). */
  opsRequestsPerMinute: number;
  /** The day planner's travel and stop times (issue 28, docs/operations.md "Planning a day"). */
  routing: RoutingConfig;
  /** Issue 27: a tile server under the console's map (MAP_TILE_URL); null: the map draws without tiles. */
  mapTiles: MapTilesConfig | null;
}

export interface RoutingConfig {
  /** Straight-line distance × this = the road distance (ROUTING_DETOUR_FACTOR, default 1.3). */
  detourFactor: number;
  /** Average driving speed, km/h (ROUTING_SPEED_KMH, default 30). */
  speedKmh: number;
  /** Minutes spent at a pharmacy per pickup stop (ROUTING_PICKUP_MINUTES, default 5). */
  pickupMinutes: number;
  /** Minutes spent at a patient's door (ROUTING_DELIVERY_MINUTES, default 3). */
  deliveryMinutes: number;
  /** An OSRM server whose /table service gives road durations and distances (OSRM_URL); null: straight lines. */
  osrmUrl: string | null;
}

/** A shorter OPS_API_KEY could be guessed; the server refuses to start with one. */
export const OPS_API_KEY_MIN_LENGTH = 32;

/** Thrown by loadConfig when the environment cannot be run with; main.ts prints the message and exits. */
export class ConfigError extends Error {}

function opsApiKeyFrom(value: string | undefined): string | null {
  if (value === undefined || value === "") return null;
  if (value.length < OPS_API_KEY_MIN_LENGTH || /\s/.test(value)) {
    throw new ConfigError(
      `OPS_API_KEY must be at least ${OPS_API_KEY_MIN_LENGTH} characters with no spaces (it has ${value.length}). ` +
        "Make one with: node -e \"console.log(require('crypto').randomBytes(32).toString('base64url'))\"",
    );
  }
  return value;
}

function intFrom(value: string | undefined, fallback: number): number {
  const parsed = value == null || value === "" ? NaN : Number(value);
  return Number.isInteger(parsed) && parsed > 0 ? parsed : fallback;
}

/**
 * TRUST_PROXY: "false" or unset, "true" (one hop), a hop count ("2": a CDN in
 * front of the balancer), or a comma-separated list of balancer addresses or
 * CIDRs. Never "trust everything": the left of X-Forwarded-For is the client's to write.
 */
export function trustProxyFrom(value: string | undefined): false | number | string[] {
  const text = (value ?? "").trim();
  if (text === "" || text === "false" || text === "0") return false;
  if (text === "true") return 1;
  if (/^\d{1,2}$/.test(text)) return Number(text);
  const addresses = text.split(",").map((part) => part.trim()).filter(Boolean);
  for (const address of addresses) {
    if (!/^[0-9a-fA-F:.]+(\/\d{1,3})?$/.test(address)) throw new Error(`TRUST_PROXY: "${address}" is not an address, a CIDR, a hop count, true or false.`);
  }
  return addresses;
}

/** A positive number from the environment (decimals allowed); unset or blank is the default, anything else refuses to start. */
function positiveFrom(name: string, value: string | undefined, fallback: number, { min = 0, allowZero = false } = {}): number {
  if (value == null || value.trim() === "") return fallback;
  const parsed = Number(value);
  if (!Number.isFinite(parsed) || parsed < min || (!allowZero && parsed === 0)) {
    throw new ConfigError(`${name} must be a number${min > 0 ? ` of at least ${min}` : allowZero ? " of 0 or more" : " above 0"} (it is "${value}").`);
  }
  return parsed;
}

function osrmUrlFrom(value: string | undefined): string | null {
  if (value == null || value.trim() === "") return null;
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    throw new ConfigError(`OSRM_URL must be an http(s) URL such as http://osrm.internal:5000 (it is "${value}").`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new ConfigError(`OSRM_URL must be an http(s) URL (it is "${value}").`);
  return url.toString().replace(/\/+$/, "");
}

export function routingConfigFrom(env: NodeJS.ProcessEnv): RoutingConfig {
  return {
    detourFactor: positiveFrom("ROUTING_DETOUR_FACTOR", env.ROUTING_DETOUR_FACTOR, 1.3, { min: 1 }),
    speedKmh: positiveFrom("ROUTING_SPEED_KMH", env.ROUTING_SPEED_KMH, 30),
    pickupMinutes: positiveFrom("ROUTING_PICKUP_MINUTES", env.ROUTING_PICKUP_MINUTES, 5, { allowZero: true }),
    deliveryMinutes: positiveFrom("ROUTING_DELIVERY_MINUTES", env.ROUTING_DELIVERY_MINUTES, 3, { allowZero: true }),
    osrmUrl: osrmUrlFrom(env.OSRM_URL),
  };
}

function scaleFrom(value: string | undefined): number {
  const parsed = value == null || value === "" ? NaN : Number(value);
  return Number.isFinite(parsed) && parsed > 0 && parsed <= 1 ? parsed : 1;
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
    trustProxy: trustProxyFrom(env.TRUST_PROXY),
    loginAttemptsPerMinute: intFrom(env.LOGIN_ATTEMPTS_PER_MINUTE, 10),
    loginAttemptsPerAddressPerMinute: intFrom(env.LOGIN_ATTEMPTS_PER_ADDRESS_PER_MINUTE, 30),
    loginAttemptsPerDevicePerMinute: intFrom(env.LOGIN_ATTEMPTS_PER_DEVICE_PER_MINUTE, 10),
    passwordHashConcurrency: intFrom(env.PASSWORD_HASH_CONCURRENCY, 2),
    maxConcurrentRequests: env.MAX_CONCURRENT_REQUESTS ? intFrom(env.MAX_CONCURRENT_REQUESTS, 8) : undefined,
    maxEventStreams: intFrom(env.MAX_EVENT_STREAMS, 200),
    requestQueueMs: intFrom(env.REQUEST_QUEUE_MS, 2_000),
    clientErrorsPerMinute: intFrom(env.CLIENT_ERRORS_PER_MINUTE, 30),
    idempotencyLeaseSeconds: intFrom(env.IDEMPOTENCY_LEASE_SECONDS, 60),
    demoData: env.DEMO_DATA !== "false",
    logLevel: env.LOG_LEVEL || "info",
    braintree: braintreeConfigFrom(env),
    webhookAllowPrivate: env.WEBHOOK_ALLOW_PRIVATE === "true",
    webhookRetryScale: scaleFrom(env.WEBHOOK_RETRY_SCALE),
    opsApiKey: opsApiKeyFrom(env.OPS_API_KEY),
    opsRequestsPerMinute: intFrom(env.OPS_REQUESTS_PER_MINUTE, 600),
    routing: routingConfigFrom(env),
    mapTiles: mapTilesFrom(env, (message) => {
      throw new ConfigError(message);
    }),
  };
}
