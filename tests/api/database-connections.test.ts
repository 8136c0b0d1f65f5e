import { sql } from "drizzle-orm";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../../server/db/client.ts";
import { openThrowawayPostgres } from "../support/databases.ts";

const adminUrl = process.env.TEST_DATABASE_URL;

describe.skipIf(!adminUrl)("PostgreSQL dropping the pool's idle connections (a restart, a failover)", () => {
  let database: Database;
  beforeAll(async () => {
    database = await openThrowawayPostgres(adminUrl!);
  });
  afterAll(async () => {
    await database?.close();
  });

  it("neither ends the process nor fails the next query", async () => {
    await database.db.execute(sql`select 1`);
    const { rows } = (await database.db.execute(sql`select current_database() as name`)) as unknown as { rows: { name: string }[] };
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    const terminated = await admin.query("select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()", [rows[0]!.name]);
    await admin.end();
    expect(terminated.rowCount).toBeGreaterThan(0);

    // Vitest fails the run on an unhandled 'error' event; give the pool time to hear the termination.
    await new Promise((resolve) => setTimeout(resolve, 200));
    const answer = (await database.db.execute(sql`select 2 as two`)) as unknown as { rows: { two: number }[] };
    expect(answer.rows[0]!.two).toBe(2);
  });
});
