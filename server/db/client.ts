import { mkdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres";
import { migrate as migratePg } from "drizzle-orm/node-postgres/migrator";
import { PgTransaction, type PgDatabase, type PgQueryResultHKT } from "drizzle-orm/pg-core";
import pg from "pg";
import { pgliteListen, postgresListen, type Listen } from "./notifications.ts";
import * as schema from "./schema.ts";
import { TurnTakingPGlite } from "./turn-taking-pglite.ts";

export type Schema = typeof schema;
/** The one database type the services see, whichever engine is underneath. */
export type Db = PgDatabase<PgQueryResultHKT, Schema>;

/** The database or a transaction open on it: what a query or a service step runs on. */
export type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0] | Db;

/**
 * A service step that is one unit of work: given the database it opens its own transaction;
 * given a transaction already open (the seed's, a plan's application) it joins it, so a caller
 * composes several steps into one. Routes never open transactions themselves.
 */
export function inTransaction<A extends unknown[], R>(work: (tx: Tx, ...args: A) => Promise<R>): (db: Tx, ...args: A) => Promise<R> {
  return (db, ...args) => (db instanceof PgTransaction ? work(db, ...args) : db.transaction((tx) => work(tx, ...args)));
}

export interface Database {
  db: Db;
  engine: "pglite" | "postgres";
  /** LISTEN for NOTIFY on a channel (server/db/notifications.ts): the live event stream's wake-up (issue 27). */
  listen: Listen;
  close(): Promise<void>;
}

const migrationsFolder = path.join(path.dirname(fileURLToPath(import.meta.url)), "migrations");

/** Any session holding this lock runs migrations; the others wait (several API processes may start at once). */
const MIGRATION_LOCK_ID = 4_242_001;

export interface OpenOptions {
  databaseUrl?: string;
  dataDir?: string;
  poolSize?: number;
  /**
   * Embedded only: start from a PGlite dumpDataDir() tarball instead of an empty
   * cluster (the API tests clone one migrated database this way). Migrations
   * still run: on a migrated copy they find nothing to do.
   */
  loadDataDir?: Blob;
}

export async function openDatabase(options: OpenOptions): Promise<Database> {
  if (options.databaseUrl) {
    const max = options.poolSize ?? 20;
    const pool = new pg.Pool({
      connectionString: options.databaseUrl,
      max,
      // Opening a PostgreSQL connection forks a backend whose caches start cold: a
      // pool that let its connections go after pg's default 10 idle seconds paid
      // that again at every burst of couriers (the p99 stalls in docs/benchmarks.md).
      // Half the pool stays open; the rest closes after a quiet minute.
      min: Math.ceil(max / 2),
      idleTimeoutMillis: 60_000,
    });
    // An idle connection that PostgreSQL drops (a restart, a failover, an administrator) is an
    // 'error' on the pool; unheard, Node ends the process. The pool discards that connection and
    // opens another on the next query, so a warning is all it needs.
    pool.on("error", (error) => {
      process.emitWarning(`PostgreSQL closed an idle pooled connection: ${error.message}`, { code: "RXC_PG_IDLE_CLOSED" });
    });
    const db = drizzlePg(pool, { schema }) as unknown as Db;
    const client = await pool.connect();
    try {
      await client.query("select pg_advisory_lock($1)", [MIGRATION_LOCK_ID]);
      await migratePg(drizzlePg(client, { schema }), { migrationsFolder });
    } finally {
      await client.query("select pg_advisory_unlock($1)", [MIGRATION_LOCK_ID]).catch(() => undefined);
      client.release();
    }
    return { db, engine: "postgres", listen: postgresListen(options.databaseUrl), close: () => pool.end() };
  }
  if (options.dataDir) mkdirSync(options.dataDir, { recursive: true });
  const client = new TurnTakingPGlite({
    ...(options.dataDir ? { dataDir: options.dataDir } : {}),
    ...(options.loadDataDir ? { loadDataDir: options.loadDataDir } : {}),
  });
  const db = drizzlePglite(client, { schema });
  await migratePglite(db, { migrationsFolder });
  return { db: db as unknown as Db, engine: "pglite", listen: pgliteListen(client), close: () => client.close() };
}
