import { sql } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import type { Database } from "../../server/db/client.ts";
import {
  deliveryOrdersOf,
  logIn,
  openPglite,
  openPostgres,
  pickUpAll,
  recordsOf,
  retryUntilAnswered,
  submissionsFor,
  throwawayPostgres,
  type Answer,
  type Courier,
  type Submission,
} from "./http-courier.ts";
import { removeDataDir, startServer, type RunningServer } from "./support.ts";

/**
 * docs/security.md "Faults": the server process is killed (SIGKILL, no
 * goodbye) in the middle of a burst of delivery submissions, each with its
 * Idempotency-Key, and started again on the same data. Right after the
 * crash no order is half-updated (its status, its delivery rows and its
 * audit trail agree) and every acknowledged submission is recorded exactly
 * once; the device's retries with the same keys replay the acknowledged
 * answers and complete the rest, and every order ends recorded exactly once.
 */

/** The lease after which a key claimed by the killed process may run again; short so the test does not wait a minute. */
const LEASE_SECONDS = "2";
const KILL_AFTER_ACKS = 5;
const CONCURRENCY = 4;

interface Burst {
  acked: Map<number, Answer>;
  unanswered: number;
}

/** Sends the submissions CONCURRENCY at a time and kills the server once KILL_AFTER_ACKS have been acknowledged. */
async function burstAndKill(server: RunningServer, courier: Courier, submissions: Submission[]): Promise<Burst> {
  const acked = new Map<number, Answer>();
  const exited = new Promise((resolve) => server.process.once("exit", resolve));
  let killed = false;
  let next = 0;
  let unanswered = 0;
  const worker = async () => {
    while (!killed && next < submissions.length) {
      const submission = submissions[next++]!;
      try {
        const answer = await submission.send(server.url, courier);
        expect(answer.status, answer.body).toBe(200);
        acked.set(submission.orderId, answer);
      } catch (error) {
        if (!killed) throw error;
        unanswered++;
      }
      if (acked.size >= KILL_AFTER_ACKS && !killed) {
        killed = true;
        server.process.kill("SIGKILL");
      }
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  await exited;
  return { acked, unanswered };
}

/** Status, delivery rows and audit trail agree; an acknowledged submission is recorded once, under the id it was given. */
async function expectConsistent(database: Database, submissions: Submission[], acked: Map<number, Answer>, settled: boolean) {
  const records = await recordsOf(database, submissions.map((s) => s.orderId));
  for (const submission of submissions) {
    const record = records.get(submission.orderId)!;
    const recorded = record.deliveries.length > 0;
    if (recorded) {
      expect(record, `order ${submission.orderId}`).toEqual({
        orderId: submission.orderId,
        status: submission.outcome,
        deliveries: [submission.outcome === "delivered" ? "completed" : "failed"],
        statusChanges: [submission.outcome],
      });
    } else {
      expect(settled, `order ${submission.orderId} has no delivery after the retries`).toBe(false);
      expect(record, `order ${submission.orderId}`).toEqual({ orderId: submission.orderId, status: "picked_up", deliveries: [], statusChanges: [] });
    }
    const ack = acked.get(submission.orderId);
    if (ack) {
      expect(recorded, `acknowledged order ${submission.orderId}`).toBe(true);
      const { delivery } = JSON.parse(ack.body) as { delivery: { id: number; order_ids: number[] } };
      expect(await deliveryOrdersOf(database, delivery.id)).toEqual([submission.orderId]);
    }
  }
  return records;
}

async function inProgressKeys(database: Database): Promise<number> {
  const result = await database.db.execute(sql`select count(*)::int as n from idempotency_keys where state = 'in_progress'`);
  const rows = (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as { n: number }[];
  return rows[0]!.n;
}

interface Engine {
  env: Record<string, string>;
  /** The database the server used, opened from the test (the server is down when this is called). */
  open(dataDir: string): Promise<Database>;
}

async function killMidBurstAndRecover(engine: Engine) {
  let server = await startServer({ ...engine.env, IDEMPOTENCY_LEASE_SECONDS: LEASE_SECONDS });
  const { dataDir, port } = server;
  try {
    const courier = await logIn(server.url);
    const orders = await pickUpAll(server.url, courier);
    expect(orders.length).toBeGreaterThan(KILL_AFTER_ACKS + CONCURRENCY);
    const submissions = submissionsFor(orders);
    expect(new Set(submissions.map((s) => s.outcome))).toEqual(new Set(["delivered", "delivery_attempted"]));

    const { acked } = await burstAndKill(server, courier, submissions);
    expect(acked.size).toBeGreaterThanOrEqual(KILL_AFTER_ACKS);
    // Mid-burst: the queue still held submissions when the process died.
    expect(acked.size).toBeLessThan(submissions.length);

    // Straight after the crash, before any retry: nothing half-done, nothing acknowledged lost.
    let database = await engine.open(dataDir);
    const afterCrash = await expectConsistent(database, submissions, acked, false);
    await database.close();
    const recordedBeforeRetry = new Set([...afterCrash.values()].filter((r) => r.deliveries.length > 0).map((r) => r.orderId));

    server = await startServer({ ...engine.env, IDEMPOTENCY_LEASE_SECONDS: LEASE_SECONDS }, { dataDir, port });
    const tally = { replayed: 0, ranAgain: 0, recordedButUnacknowledged: 0 };
    // The session lives in the database: the device's cookie still works.
    for (const submission of submissions) {
      const answer = await retryUntilAnswered(submission, server.url, courier);
      const first = acked.get(submission.orderId);
      if (first) {
        expect(answer, `retry of acknowledged order ${submission.orderId}`).toEqual({ ...first, replayed: true });
        tally.replayed++;
      } else if (recordedBeforeRetry.has(submission.orderId)) {
        // Recorded by the killed process after all, but its answer never left: the retry finds that delivery by its key.
        expect(answer.status, answer.body).toBe(200);
        expect(JSON.parse(answer.body)).toMatchObject({ delivery: { order_ids: [submission.orderId] } });
        tally.recordedButUnacknowledged++;
      } else {
        expect(answer.status, answer.body).toBe(200);
        expect(JSON.parse(answer.body)).toMatchObject({ delivery: { order_ids: [submission.orderId] } });
        tally.ranAgain++;
      }
    }
    console.info(`faults: ${submissions.length} submissions, ${acked.size} acknowledged before SIGKILL; retries: ${JSON.stringify(tally)}`);
    // A second round of retries changes nothing: every key now has its stored answer.
    for (const submission of submissions.slice(0, 3)) expect((await submission.send(server.url, courier)).replayed).toBe(true);
    await server.stop();

    database = await engine.open(dataDir);
    await expectConsistent(database, submissions, acked, true);
    expect(await inProgressKeys(database)).toBe(0);
    await database.close();
  } finally {
    await server.stop("SIGKILL");
    removeDataDir(server);
  }
}

describe("SIGKILL in the middle of a burst of deliveries", () => {
  it("embedded PGlite: nothing acknowledged is lost or doubled, nothing half-updated, retries complete the rest", async () => {
    await killMidBurstAndRecover({ env: {}, open: (dataDir) => openPglite(dataDir) });
  });

  const adminUrl = process.env.TEST_DATABASE_URL;
  const cleanups: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const cleanUp of cleanups) await cleanUp();
  });
  it.skipIf(!adminUrl)("PostgreSQL (skipped unless TEST_DATABASE_URL is set): the same", async () => {
    const target = await throwawayPostgres(adminUrl!);
    cleanups.push(target.drop);
    await killMidBurstAndRecover({ env: { DATABASE_URL: target.url }, open: () => openPostgres(target.url) });
  });
});
