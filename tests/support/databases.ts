import { randomBytes } from "node:crypto";
import pg from "pg";
import { openDatabase, type Database } from "../../server/db/client.ts";

export interface DatabaseTarget {
  name: "pglite" | "postgres";
  open(): Promise<Database>;
}

/**
 * API tests run against embedded PGlite always, and against PostgreSQL too
 * when TEST_DATABASE_URL is set. Each test file gets a database of its own.
 */
export function databaseTargets(): DatabaseTarget[] {
  const targets: DatabaseTarget[] = [{ name: "pglite", open: () => openDatabase({}) }];
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (adminUrl) targets.push({ name: "postgres", open: () => openThrowawayPostgres(adminUrl) });
  return targets;
}

export async function openThrowawayPostgres(adminUrl: string): Promise<Database> {
  const name = `rxc_test_${randomBytes(6).toString("hex")}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const database = await openDatabase({ databaseUrl: url.toString(), poolSize: 10 });
  return {
    ...database,
    async close() {
      await database.close();
      const dropper = new pg.Client({ connectionString: adminUrl });
      await dropper.connect();
      await dropper.query(`drop database if exists ${name} with (force)`);
      await dropper.end();
    },
  };
}
