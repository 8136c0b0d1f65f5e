import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../../server/db/client.ts";
import { call, logIn, openPostgres, pickUpAll, recordsOf, submissionsFor, throwawayPostgres, type Courier } from "./http-courier.ts";
import { removeDataDir, startServer, type RunningServer } from "./support.ts";

/**
 * docs/deployment.md: several API processes behind a load balancer on one
 * PostgreSQL. Two real server processes on two ports share one throwaway
 * database, started at the same moment as a rollout would: a session made
 * on one is valid on the other (and a logout on one ends it on both), an
 * idempotent retry sent to the other replays the first answer, and a
 * delivery sent to both at once is recorded once.
 */

const adminUrl = process.env.TEST_DATABASE_URL;
if (!adminUrl) console.warn("multi-process test skipped: set TEST_DATABASE_URL to a PostgreSQL URL (it needs a database both processes share)");

describe.skipIf(!adminUrl)("two API processes on one PostgreSQL (needs TEST_DATABASE_URL)", () => {
  let target: Awaited<ReturnType<typeof throwawayPostgres>>;
  let a: RunningServer;
  let b: RunningServer;
  let database: Database;

  beforeAll(async () => {
    target = await throwawayPostgres(adminUrl!);
    // Both at once on an empty database: migrations under the advisory lock, the demo day loaded once.
    [a, b] = await Promise.all([startServer({ DATABASE_URL: target.url }), startServer({ DATABASE_URL: target.url })]);
    database = await openPostgres(target.url);
  });
  afterAll(async () => {
    await database?.close();
    for (const server of [a, b]) {
      if (!server) continue;
      await server.stop();
      removeDataDir(server);
    }
    await target?.drop();
  });

  it("starts both on the same empty database and loads the demo day once", async () => {
    const result = await database.db.execute(sql`select count(*)::int as n from couriers`);
    const rows = (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as { n: number }[];
    expect(rows[0]!.n).toBe(2);
    for (const server of [a, b]) expect((await fetch(`${server.url}/api/health`)).status).toBe(200);
    expect(a.port).not.toBe(b.port);
  });

  it("a session made on one process is valid on the other; a logout on either ends it on both", async () => {
    const courier = await logIn(a.url);
    const onB = await call(b.url, courier, "GET", "/api/sessions/current");
    expect(onB.status).toBe(200);
    expect(JSON.parse(onB.body)).toMatchObject({ courier: { id: courier.courierId }, csrf_token: courier.csrf });
    // The CSRF token made on A guards mutations on B.
    expect((await call(b.url, { ...courier, csrf: "wrong" }, "DELETE", "/api/sessions/current")).status).toBe(403);

    expect((await call(b.url, courier, "DELETE", "/api/sessions/current")).status).toBe(204);
    expect((await call(a.url, courier, "GET", "/api/sessions/current")).status).toBe(401);
    expect((await call(b.url, courier, "GET", "/api/sessions/current")).status).toBe(401);
  });

  let courier: Courier;
  let submissions: ReturnType<typeof submissionsFor>;

  it("an idempotent retry sent to the other process replays the first answer; the delivery is recorded once", async () => {
    courier = await logIn(a.url);
    submissions = submissionsFor(await pickUpAll(a.url, courier));
    expect(submissions.length).toBeGreaterThan(10);
    const [first, second] = submissions;

    for (const submission of [first!, second!]) {
      const original = await submission.send(a.url, courier);
      expect(original.status, original.body).toBe(200);
      const retried = await submission.send(b.url, courier);
      expect(retried).toEqual({ ...original, replayed: true });
    }
    const records = await recordsOf(database, [first!.orderId, second!.orderId]);
    for (const record of records.values()) expect(record.deliveries).toHaveLength(1);
  });

  it("a delivery sent to both processes at once, with the same key or from two devices with their own keys, is recorded once", async () => {
    const sameKey = submissions.slice(2, 7);
    const ownKeys = submissions.slice(7, 12);

    for (const submission of sameKey) {
      const answers = await Promise.all([submission.send(a.url, courier), submission.send(b.url, courier)]);
      const statuses = answers.map((answer) => answer.status).sort();
      // The key's owner answers 200; the other process replays that answer or says it is still being processed.
      expect(statuses[0], JSON.stringify(answers)).toBe(200);
      const other = answers.find((answer) => !(answer.status === 200 && !answer.replayed)) ?? answers[1]!;
      expect(other.status === 200 ? other.replayed : other.body.includes("idempotency_in_progress"), JSON.stringify(answers)).toBe(true);
    }

    for (const submission of ownKeys) {
      // Two devices: the same submission, each with a key of its own.
      const [one, two] = await Promise.all([submission.send(a.url, courier, randomUUID()), submission.send(b.url, courier, randomUUID())]);
      const statuses = [one.status, two.status].sort();
      expect(statuses, `${one.body} | ${two.body}`).toEqual([200, 409]);
      expect(JSON.parse((one.status === 409 ? one : two).body)).toMatchObject({ error: "conflict" });
    }

    const records = await recordsOf(database, [...sameKey, ...ownKeys].map((s) => s.orderId));
    for (const submission of [...sameKey, ...ownKeys]) {
      const record = records.get(submission.orderId)!;
      expect(record.deliveries, `order ${submission.orderId}`).toHaveLength(1);
      expect(record.status).toBe(submission.outcome);
      expect(record.statusChanges).toEqual([submission.outcome]);
    }
  });
});
