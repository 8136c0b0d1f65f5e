import { readFileSync } from "node:fs";
import { count, eq, sql } from "drizzle-orm";
import { afterAll, describe, expect, inject, it } from "vitest";
import type { Database } from "../../server/db/client.ts";
import { demoOrders } from "../../server/seed/demo-data.ts";
import { orders } from "../../server/db/schema.ts";
import { databaseTargets } from "../support/databases.ts";
import { TEST_DAY } from "../support/demo-day.ts";
import { adminQuery } from "../support/postgres-admin.ts";

/**
 * The API tests start from copies of one migrated, seeded database
 * (tests/support/database-templates.ts). A copy must be the demo day exactly
 * as migrated and seeded, and each test file's copy its own.
 */
const journal = JSON.parse(readFileSync(new URL("../../server/db/migrations/meta/_journal.json", import.meta.url), "utf8")) as { entries: unknown[] };

async function rows<Row>(database: Database, query: ReturnType<typeof sql>): Promise<Row[]> {
  return ((await database.db.execute(query)) as unknown as { rows: Row[] }).rows;
}

for (const target of databaseTargets()) {
  describe(`test databases [${target.name}]`, () => {
    const opened: Database[] = [];
    const open = async () => {
      const database = await target.openDemoDay();
      opened.push(database);
      return database;
    };
    afterAll(async () => {
      for (const database of opened) await database.close();
    });

    it("holds the demo day, every migration applied once", async () => {
      const database = await open();
      const [day] = await database.db.select({ n: count() }).from(orders).where(eq(orders.serviceDate, TEST_DAY));
      expect(day!.n).toBe(demoOrders.length);
      const applied = await rows<{ n: number }>(database, sql`select count(*)::int as n from drizzle.__drizzle_migrations`);
      expect(applied[0]!.n).toBe(journal.entries.length);
    });

    it("gives each opener a database of its own", async () => {
      const [first, second] = [await open(), await open()];
      await first.db.delete(orders).where(eq(orders.externalId, "demo-1"));
      const [left] = await first.db.select({ n: count() }).from(orders);
      const [kept] = await second.db.select({ n: count() }).from(orders);
      expect(left!.n).toBe(demoOrders.length - 1);
      expect(kept!.n).toBe(demoOrders.length);
      // A copy opened after the change still starts from the template, not from another copy.
      const [fresh] = await (await open()).db.select({ n: count() }).from(orders);
      expect(fresh!.n).toBe(demoOrders.length);
    });

    it.runIf(target.name === "postgres")("drops its PostgreSQL copy on close, and nobody can connect to the template", async () => {
      const adminUrl = process.env.TEST_DATABASE_URL!;
      const { runId, postgresTemplate } = inject("databaseTemplates");
      const database = await target.openDemoDay();
      const [{ name }] = (await rows<{ name: string }>(database, sql`select current_database() as name`)) as [{ name: string }];
      expect(name.startsWith(`rxc_test_${runId}_`)).toBe(true);
      await database.close();
      expect(await adminQuery(adminUrl, "select 1 from pg_database where datname = $1", [name])).toEqual([]);
      expect(await adminQuery(adminUrl, "select datallowconn from pg_database where datname = $1", [postgresTemplate])).toEqual([{ datallowconn: false }]);
    });
  });
}
