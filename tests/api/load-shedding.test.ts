import type { FastifyInstance } from "fastify";
import { afterAll, expect, it } from "vitest";
import { API_MEDIA_TYPE } from "../../domain/contract/common.ts";
import { buildApp } from "../../server/app.ts";
import { loadConfig } from "../../server/config.ts";
import { describeApi, TEST_DAY } from "../support/api-harness.ts";

/**
 * Issue 14 finding 10: under more load than the database can serve, calls past
 * a bounded wait are refused fast with 503 and Retry-After (the app's offline
 * queue retries them) instead of being held for ten seconds and more.
 */
describeApi("load shedding", (api) => {
  const apps: FastifyInstance[] = [];
  afterAll(async () => {
    await Promise.all(apps.map((app) => app.close()));
  });

  it("finding 10: 60 concurrent day loads past two serving slots and a 300 ms line: the rest is a fast 503 with Retry-After", async () => {
    const config = { ...loadConfig({ MAX_CONCURRENT_REQUESTS: "2", REQUEST_QUEUE_MS: "300" }), webRoot: "/nonexistent", loginAttemptsPerMinute: 1000 };
    const app = await buildApp({ config, database: api().database, today: () => TEST_DAY, logger: false });
    apps.push(app);
    await app.ready();
    const client = await api().login();

    const answers = await Promise.all(
      Array.from({ length: 60 }, async () => {
        const started = performance.now();
        const response = await app.inject({ method: "GET", url: "/api/courier/itinerary", headers: { accept: API_MEDIA_TYPE, cookie: client.cookie } });
        return { status: response.statusCode, ms: performance.now() - started, retryAfter: response.headers["retry-after"], body: response.json() as unknown };
      }),
    );
    const shed = answers.filter((answer) => answer.status === 503);
    const served = answers.filter((answer) => answer.status === 200);
    console.log(
      `60 concurrent day loads, 2 slots, 300 ms line: ${served.length} served, ${shed.length} shed; ` +
        `slowest shed ${Math.round(Math.max(...shed.map((a) => a.ms)))} ms, slowest served ${Math.round(Math.max(...served.map((a) => a.ms)))} ms`,
    );
    expect(served.length + shed.length).toBe(60);
    expect(served.length).toBeGreaterThan(0);
    expect(shed.length).toBeGreaterThan(0);
    for (const answer of shed) {
      expect(answer.retryAfter).toBe("1");
      expect(answer.body).toEqual({ error: "busy", message: "The server is busy. Please try again in a moment." });
    }
    // A shed call is refused within its wait (plus the time the event loop was busy), never held for seconds.
    expect(Math.max(...shed.map((answer) => answer.ms))).toBeLessThan(3_000);

    // Once the burst is over, the server serves again; health is never shed.
    expect((await app.inject({ method: "GET", url: "/api/courier/itinerary", headers: { accept: API_MEDIA_TYPE, cookie: client.cookie } })).statusCode).toBe(200);
    expect((await app.inject({ method: "GET", url: "/api/health" })).statusCode).toBe(200);
  });
});
