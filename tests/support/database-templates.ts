import { createHash, randomBytes } from "node:crypto";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { PGlite } from "@electric-sql/pglite";
import type { TestProject } from "vitest/node";
import { openDatabase, type Database } from "../../server/db/client.ts";
import { seedDemo } from "../../server/seed/seed.ts";
import type { DatabaseTemplates } from "./databases.ts";
import { TEST_DAY } from "./demo-day.ts";
import { adminQuery, databaseUrl, dropDatabase } from "./postgres-admin.ts";

const migrationsFolder = fileURLToPath(new URL("../../server/db/migrations", import.meta.url));

/**
 * The API project's globalSetup, in vitest's main process: migrates and seeds
 * the demo day once per engine, and every test file then starts from a copy
 * (docs/decisions/0024-api-tests-start-from-copies-of-one-migrated-database.md). Booting,
 * migrating and seeding a database per file and engine was half the run.
 * Both templates are made by openDatabase from an empty database, so the
 * migrations themselves still run from scratch on each engine every run.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const runId = randomBytes(4).toString("hex");
  const directory = mkdtempSync(path.join(tmpdir(), "rxc-test-templates-"));
  const adminUrl = process.env.TEST_DATABASE_URL;
  // Named per run as well: two runs on one server must not drop or hold each other's template.
  const postgresTemplate = adminUrl ? `rxc_template_${migrationsHash()}_${runId}` : null;

  const teardown = async () => {
    rmSync(directory, { recursive: true, force: true });
    if (!adminUrl) return;
    // A file whose afterAll never ran (a failed beforeAll, a crashed worker) leaves its copy: this run's copies all go.
    const leftovers = await adminQuery<{ datname: string }>(adminUrl, "select datname from pg_database where starts_with(datname, $1)", [`rxc_test_${runId}_`]);
    for (const { datname } of leftovers) await dropDatabase(adminUrl, datname);
    if (postgresTemplate) await dropDatabase(adminUrl, postgresTemplate);
  };

  try {
    const [pgliteDump] = await Promise.all([
      pgliteTemplate(path.join(directory, "pglite-demo-day.tar")),
      adminUrl && postgresTemplate ? buildPostgresTemplate(adminUrl, postgresTemplate) : undefined,
    ]);
    const templates: DatabaseTemplates = { runId, pgliteDump, postgresTemplate };
    project.provide("databaseTemplates", templates);
  } catch (error) {
    await teardown();
    throw error;
  }
  return teardown;
}

/** PGlite's data directory as an uncompressed tarball: loading it skips initdb, the migrations and the seed. */
async function pgliteTemplate(file: string): Promise<string> {
  const database = await openDatabase({});
  try {
    await seedDemo(database.db, TEST_DAY);
    // Uncompressed: 40 MB in the temp directory, and a little faster to load than gzip's 5 MB.
    const dump = await pgliteClient(database).dumpDataDir("none");
    writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
    return file;
  } finally {
    await database.close();
  }
}

async function buildPostgresTemplate(adminUrl: string, name: string): Promise<void> {
  await adminQuery(adminUrl, `create database ${name}`);
  const database = await openDatabase({ databaseUrl: databaseUrl(adminUrl, name), poolSize: 2 });
  try {
    await seedDemo(database.db, TEST_DAY);
  } finally {
    await database.close();
  }
  // CREATE DATABASE … TEMPLATE fails while any session is connected to the template: ours are
  // closed, and refusing connections keeps every other one out (autovacuum included).
  await adminQuery(adminUrl, `alter database ${name} with allow_connections false`);
}

function pgliteClient(database: Database): PGlite {
  const client = (database.db as unknown as { $client?: unknown }).$client;
  if (!(client instanceof PGlite)) throw new Error("the PGlite template was not opened on PGlite");
  return client;
}

/** Which migrations a template holds, in its name: a PostgreSQL identifier, so 10 hex digits. */
function migrationsHash(): string {
  const hash = createHash("sha256");
  const files = readdirSync(migrationsFolder, { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile());
  for (const file of files.map((entry) => path.join(entry.parentPath, entry.name)).sort()) {
    hash.update(path.relative(migrationsFolder, file)).update(readFileSync(file));
  }
  return hash.digest("hex").slice(0, 10);
}
