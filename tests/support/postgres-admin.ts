import { setTimeout as sleep } from "node:timers/promises";
import pg from "pg";

/** Runs one statement on the server TEST_DATABASE_URL names (CREATE/DROP DATABASE cannot run in a pool's transaction). */
export async function adminQuery<Row extends pg.QueryResultRow = pg.QueryResultRow>(adminUrl: string, text: string, values: unknown[] = []): Promise<Row[]> {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    return (await admin.query<Row>(text, values)).rows;
  } finally {
    await admin.end();
  }
}

/** The URL of another database on the same server. */
export function databaseUrl(adminUrl: string, name: string): string {
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/** PostgreSQL's "source database is being accessed by other users". */
const OBJECT_IN_USE = "55006";

/**
 * A copy of the template, made by PostgreSQL itself. The template refuses
 * connections, so no session can hold it; PostgreSQL still waits for a backend
 * that is leaving it (the one that migrated it, just closed) and may give up
 * after five seconds on a busy machine: that is retried, nothing else.
 */
export async function cloneDatabase(adminUrl: string, template: string, name: string): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await adminQuery(adminUrl, `create database ${name} template ${template}`);
      return;
    } catch (error) {
      if ((error as { code?: string }).code !== OBJECT_IN_USE || attempt === 5) throw error;
      await sleep(250 * attempt);
    }
  }
}

export async function dropDatabase(adminUrl: string, name: string): Promise<void> {
  await adminQuery(adminUrl, `drop database if exists ${name} with (force)`);
}
