import { eq } from "drizzle-orm";
import type { FastifyInstance, LightMyRequestResponse } from "fastify";
import { afterAll, beforeAll, describe, expect } from "vitest";
import { WebhookCreateResponse } from "../../domain/contract/ops-webhooks.ts";
import { buildApp, type AppOptions } from "../../server/app.ts";
import { loadConfig } from "../../server/config.ts";
import type { Database } from "../../server/db/client.ts";
import { apiKeys } from "../../server/db/schema.ts";
import { DEMO_PASSWORD, sessionCookie, TEST_DAY } from "./api-harness.ts";
import { databaseTargets } from "./databases.ts";

/** The dispatch key the ops tests start the server with (OPS_API_KEY). */
export const TEST_OPS_KEY = "test-dispatch-key-0123456789abcdefghijklmnop";

type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

export interface OpsContext {
  app: FastifyInstance;
  database: Database;
  /** The id of the OPS_API_KEY row (the demo day's own key comes first). */
  dispatchKeyId: number;
  /** A call to the operations API with a Bearer key (the dispatch key unless told; null for none). */
  ops(method: Method, url: string, body?: unknown, key?: string | null, headers?: Record<string, string>): Promise<LightMyRequestResponse>;
  /** Any call with no key and no cookie. */
  raw(method: Method, url: string, body?: unknown, headers?: Record<string, string>): Promise<LightMyRequestResponse>;
  /** Logs a courier in; the cookie and CSRF token of the session. */
  loginCourier(email: string, password?: string): Promise<{ cookie: string; csrf: string; courierId: number }>;
}

/** Starts the server with OPS_API_KEY on a database that holds the demo day (DatabaseTarget.openDemoDay). */
export async function startOps(database: Database, env: Record<string, string> = {}, appOptions: Partial<AppOptions> = {}): Promise<OpsContext> {
  const config = { ...loadConfig({ OPS_API_KEY: TEST_OPS_KEY, ...env }), webRoot: "/nonexistent", loginAttemptsPerMinute: 1000 };
  const app = await buildApp({ config, database, today: () => TEST_DAY, logger: false, ...appOptions });
  await app.ready();
  const [dispatchKey] = await database.db.select({ id: apiKeys.id }).from(apiKeys).where(eq(apiKeys.source, "environment"));
  const raw: OpsContext["raw"] = (method, url, body, headers = {}) =>
    app.inject({
      method,
      url,
      headers: { ...(body !== undefined ? { "content-type": "application/json" } : {}), ...headers },
      ...(body !== undefined ? { payload: typeof body === "string" ? body : JSON.stringify(body) } : {}),
    });
  return {
    app,
    database,
    dispatchKeyId: dispatchKey?.id ?? -1,
    raw,
    ops: (method, url, body, key = TEST_OPS_KEY, headers = {}) =>
      raw(method, url, body, { ...(key ? { authorization: `Bearer ${key}` } : {}), ...headers }),
    async loginCourier(email, password = DEMO_PASSWORD) {
      const response = await raw("POST", "/api/sessions", { email, password });
      if (response.statusCode !== 200) throw new Error(`login failed: ${response.statusCode} ${response.body}`);
      const body = response.json() as { csrf_token: string; courier: { id: number } };
      return { cookie: sessionCookie(response), csrf: body.csrf_token, courierId: body.courier.id };
    },
  };
}

/** Runs an ops suite once per database engine, each on its own copy of the demo day, with OPS_API_KEY set. */
export function describeOps(title: string, suite: (ctx: () => OpsContext) => void, env: Record<string, string> = {}): void {
  for (const target of databaseTargets()) {
    describe(`${title} [${target.name}]`, () => {
      let context: OpsContext | undefined;
      beforeAll(async () => {
        context = await startOps(await target.openDemoDay(), env);
      });
      afterAll(async () => {
        await context?.app.close();
        await context?.database.close();
      });
      suite(() => {
        if (!context) throw new Error("API not started");
        return context;
      });
    });
  }
}

/** A pharmacy body that passes validation; override what a test is about. */
export function pharmacyBody(overrides: Record<string, unknown> = {}) {
  return {
    name: "Harbor Pharmacy",
    phone_number: "2155550999",
    address: { street_address: "10 Dock St", city: "Philadelphia", state_abbreviation: "PA", zipcode: "19106", latitude: 39.946, longitude: -75.142 },
    payment_methods: [
      { type: "cash", allowed: true },
      { type: "check", allowed: false },
      { type: "card", allowed: true },
    ],
    allow_pod_copay_collection: true,
    routing_enabled: false,
    dob_verification_enabled: false,
    pod_recipient_config: null,
    can_skip_copay_collection: false,
    can_skip_signature: true,
    ...overrides,
  };
}

/** An order body that passes validation for a pharmacy. */
export function orderBody(pharmacyId: number, externalId: string, overrides: Record<string, unknown> = {}) {
  return {
    pharmacy_id: pharmacyId,
    external_id: externalId,
    patient_first_name: "Ada",
    patient_last_name: "Lovelace",
    phone_number: "2155550123",
    address: { street_address: "5 Elfreth's Alley", city: "Philadelphia", state_abbreviation: "PA", zipcode: "19106", latitude: 39.9526, longitude: -75.1425 },
    rx_numbers: ["RX-1"],
    copay: "12.50",
    service_date: TEST_DAY,
    ...overrides,
  };
}

/** A webhook subscription made through the API (with the dispatch key, or `key`): its answer, secret included. */
export async function subscribe(ctx: OpsContext, url: string, events: string[], key?: string) {
  const response = await ctx.ops("POST", "/api/ops/v1/webhooks", { url, events }, key);
  expect(response.statusCode, response.body).toBe(201);
  return WebhookCreateResponse.parse(response.json());
}
