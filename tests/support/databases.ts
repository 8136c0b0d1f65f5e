import { randomBytes } from "node:crypto";
import { openAsBlob } from "node:fs";
import { inject } from "vitest";
import { openDatabase, type Database } from "../../server/db/client.ts";
import { cloneDatabase, databaseUrl, dropDatabase } from "./postgres-admin.ts";

/** What the API project's globalSetup (database-templates.ts) hands the test files. */
export interface DatabaseTemplates {
  /** Names this run's PostgreSQL copies (rxc_test_<runId>_…), so its teardown finds any left behind. */
  runId: string;
  /** PGlite's dumpDataDir() tarball of the migrated, seeded database. */
  pgliteDump: string;
  /** The migrated, seeded PostgreSQL database every copy is made from; null without TEST_DATABASE_URL. */
  postgresTemplate: string | null;
}

declare module "vitest" {
  export interface ProvidedContext {
    databaseTemplates: DatabaseTemplates;
  }
}

export interface DatabaseTarget {
  name: "pglite" | "postgres";
  /** A database of the test file's own, migrated and holding the demo day (TEST_DAY). */
  openDemoDay(): Promise<Database>;
}

/**
 * API tests run against embedded PGlite always, and against PostgreSQL too
 * when TEST_DATABASE_URL is set. Each test file gets a database of its own:
 * a copy of the template the globalSetup migrated and seeded once.
 */
export function databaseTargets(): DatabaseTarget[] {
  const targets: DatabaseTarget[] = [{ name: "pglite", openDemoDay: openPgliteCopy }];
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (adminUrl) targets.push({ name: "postgres", openDemoDay: () => openThrowawayPostgres(adminUrl) });
  return targets;
}

function templates(): DatabaseTemplates {
  const provided = inject("databaseTemplates");
  if (!provided) throw new Error("no template databases: the api project's globalSetup (tests/support/database-templates.ts) makes them");
  return provided;
}

/** openDatabase still runs the migrations on the copy: they find nothing to do, as on a server restart. */
async function openPgliteCopy(): Promise<Database> {
  return openDatabase({ loadDataDir: await openAsBlob(templates().pgliteDump) });
}

/** A PostgreSQL database of its own, copied from the template and dropped on close. */
export async function openThrowawayPostgres(adminUrl: string): Promise<Database> {
  const { runId, postgresTemplate } = templates();
  if (!postgresTemplate) throw new Error("TEST_DATABASE_URL was not set when the globalSetup made the templates");
  const name = `rxc_test_${runId}_${randomBytes(4).toString("hex")}`;
  await cloneDatabase(adminUrl, postgresTemplate, name);
  const database = await openDatabase({ databaseUrl: databaseUrl(adminUrl, name), poolSize: 10 });
  return {
    ...database,
    async close() {
      await database.close();
      await dropDatabase(adminUrl, name);
    },
  };
}
