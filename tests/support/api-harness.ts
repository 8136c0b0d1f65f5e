import type { FastifyInstance, LightMyRequestResponse } from "fastify";
import { afterAll, beforeAll, describe } from "vitest";
import { API_MEDIA_TYPE } from "../../domain/contract/common.ts";
import { buildApp } from "../../server/app.ts";
import { loadConfig, type Config } from "../../server/config.ts";
import type { Database } from "../../server/db/client.ts";
import { databaseTargets } from "./databases.ts";
import { TEST_DAY } from "./demo-day.ts";

export { TEST_DAY };
export const DEMO_PASSWORD = "deliver-safely";

type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

export interface RequestOptions {
  /** Send the session's CSRF token (default true for a logged-in client). */
  csrf?: boolean;
  headers?: Record<string, string>;
}

export interface ApiClient {
  courierId: number;
  csrfToken: string;
  cookie: string;
  request(method: Method, url: string, body?: unknown, options?: RequestOptions): Promise<LightMyRequestResponse>;
  get(url: string, options?: RequestOptions): Promise<LightMyRequestResponse>;
  post(url: string, body?: unknown, options?: RequestOptions): Promise<LightMyRequestResponse>;
  put(url: string, body?: unknown, options?: RequestOptions): Promise<LightMyRequestResponse>;
  delete(url: string, body?: unknown, options?: RequestOptions): Promise<LightMyRequestResponse>;
}

export interface ApiContext {
  app: FastifyInstance;
  database: Database;
  /** Logs in a demo courier ("courier@example.com" unless told). */
  login(email?: string): Promise<ApiClient>;
  /** An unauthenticated request. */
  anonymous(method: Method, url: string, body?: unknown, headers?: Record<string, string>): Promise<LightMyRequestResponse>;
}

export function sessionCookie(response: LightMyRequestResponse): string {
  const cookie = response.cookies.find((c) => c.name === "rxc_session");
  if (!cookie) throw new Error("no session cookie set");
  return `rxc_session=${cookie.value}`;
}

/** Starts the courier API on a database that holds the demo day (DatabaseTarget.openDemoDay). */
export async function startApi(database: Database, overrides: Partial<Config> = {}): Promise<ApiContext> {
  const config = { ...loadConfig({}), webRoot: "/nonexistent", loginAttemptsPerMinute: 1000, loginAttemptsPerAddressPerMinute: 1000, ...overrides };
  const app = await buildApp({ config, database, today: () => TEST_DAY, logger: false });
  await app.ready();

  const send = (method: Method, url: string, body: unknown, headers: Record<string, string>) =>
    app.inject({
      method,
      url,
      headers: { accept: API_MEDIA_TYPE, ...(body !== undefined ? { "content-type": "application/json" } : {}), ...headers },
      ...(body !== undefined ? { payload: typeof body === "string" ? body : JSON.stringify(body) } : {}),
    });

  return {
    app,
    database,
    anonymous: (method, url, body, headers = {}) => send(method, url, body, headers),
    async login(email = "courier@example.com") {
      const response = await send("POST", "/api/sessions", { email, password: DEMO_PASSWORD }, {});
      if (response.statusCode !== 200) throw new Error(`login failed: ${response.statusCode} ${response.body}`);
      const { courier, csrf_token } = response.json() as { courier: { id: number }; csrf_token: string };
      const cookie = sessionCookie(response);
      const request: ApiClient["request"] = (method, url, body, options = {}) =>
        send(method, url, body, {
          cookie,
          ...(options.csrf === false ? {} : { "x-csrf-token": csrf_token }),
          ...options.headers,
        });
      return {
        courierId: courier.id,
        csrfToken: csrf_token,
        cookie,
        request,
        get: (url, options) => request("GET", url, undefined, options),
        post: (url, body, options) => request("POST", url, body ?? {}, options),
        put: (url, body, options) => request("PUT", url, body ?? {}, options),
        delete: (url, body, options) => request("DELETE", url, body, options),
      };
    },
  };
}

/**
 * Runs a suite once per database engine, each on its own copy of the demo day.
 * The suite receives a getter because the app only exists once beforeAll ran.
 */
export function describeApi(title: string, suite: (api: () => ApiContext) => void, config: Partial<Config> = {}): void {
  for (const target of databaseTargets()) {
    describe(`${title} [${target.name}]`, () => {
      let context: ApiContext | undefined;
      beforeAll(async () => {
        context = await startApi(await target.openDemoDay(), config);
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
