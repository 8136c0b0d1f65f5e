import { spawn } from "node:child_process";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../../server/db/client.ts";
import { openPostgres, throwawayPostgres } from "./http-courier.ts";
import { removeDataDir, startServer, type RunningServer } from "./support.ts";

/**
 * Two real API processes on one PostgreSQL (docs/deployment.md) receiving the
 * same order from a pharmacy system at the same moment, as a retry after a
 * lost answer sent through the load balancer would: one order, one 201, one
 * 200 with the same order (issue 15).
 */
const adminUrl = process.env.TEST_DATABASE_URL;
const KEY = "e2e-dispatch-key-abcdefghijklmnopqrstuvwxyz0123";

describe.skipIf(!adminUrl)("ops API on two processes sharing one PostgreSQL (needs TEST_DATABASE_URL)", () => {
  let target: Awaited<ReturnType<typeof throwawayPostgres>>;
  let a: RunningServer;
  let b: RunningServer;
  let database: Database;

  beforeAll(async () => {
    target = await throwawayPostgres(adminUrl!);
    // Both at once: OPS_API_KEY is stored once whichever process gets there first.
    [a, b] = await Promise.all([
      startServer({ DATABASE_URL: target.url, OPS_API_KEY: KEY }),
      startServer({ DATABASE_URL: target.url, OPS_API_KEY: KEY }),
    ]);
    database = await openPostgres(target.url);
  }, 120_000);
  afterAll(async () => {
    await database?.close();
    for (const server of [a, b]) {
      if (!server) continue;
      await server.stop();
      removeDataDir(server);
    }
    await target?.drop();
  });

  const post = (server: RunningServer, path: string, body: unknown) =>
    fetch(`${server.url}/api/ops/v1${path}`, {
      method: "POST",
      headers: { authorization: `Bearer ${KEY}`, "content-type": "application/json" },
      body: JSON.stringify(body),
    });

  it("creates the same external_id sent to both at once exactly once", async () => {
    // The key from OPS_API_KEY (the demo day's own key, revoked at once, is another row).
    const rows = (await database.db.execute(sql`select count(*)::int as n from api_keys where source = 'environment'`)) as unknown as { rows: { n: number }[] };
    expect(rows.rows[0]!.n).toBe(1);
    for (let round = 0; round < 20; round++) {
      const body = {
        pharmacy_id: 1,
        external_id: `RACE-${round}`,
        patient_first_name: "Race",
        patient_last_name: `Number ${round}`,
        phone_number: "2155550100",
        address: { street_address: "1 Race St", city: "Philadelphia", state_abbreviation: "PA", zipcode: "19106" },
        rx_numbers: [`RX-${round}`],
      };
      const responses = await Promise.all([post(a, "/orders", body), post(b, "/orders", body)]);
      const statuses = responses.map((response) => response.status).sort();
      expect(statuses).toEqual([200, 201]);
      const ids = await Promise.all(responses.map(async (response) => ((await response.json()) as { order: { id: number } }).order.id));
      expect(ids[0]).toBe(ids[1]);
    }
    const counted = (await database.db.execute(
      sql`select external_id, count(*)::int as n from orders where external_id like 'RACE-%' group by external_id`,
    )) as unknown as { rows: { n: number }[] };
    expect(counted.rows).toHaveLength(20);
    expect(counted.rows.every((row) => row.n === 1)).toBe(true);
  }, 120_000);
});

describe("OPS_API_KEY too short", () => {
  it("the server refuses to start and says why", async () => {
    const child = spawn(process.execPath, ["--import", "tsx", "server/main.ts"], {
      env: { ...process.env, OPS_API_KEY: "short-key", PORT: "0", DATA_DIR: "/nonexistent-rxc", DATABASE_URL: "" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
    expect(code).toBe(1);
    expect(stderr).toContain("OPS_API_KEY must be at least 32 characters");
    expect(stderr).not.toContain("short-key");
  }, 60_000);
});
