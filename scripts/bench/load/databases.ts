import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import pg from "pg";
import { openDatabase } from "../../../server/db/client.ts";
import { generateDataset, type Dataset, type DatasetSize } from "./dataset.ts";

/** Where the benchmark may create (and drop) throwaway databases. */
export const ADMIN_URL = process.env.BENCH_DATABASE_URL || process.env.TEST_DATABASE_URL || "postgres://postgres@127.0.0.1:5432/test";

export type Engine = "pglite" | "postgres";

export interface PreparedDatabase {
  engine: Engine;
  /** What the server is started with. */
  server: { databaseUrl: string } | { dataDir: string };
  dataset: Dataset;
  /** Deletes the database (PGlite folder or PostgreSQL database). */
  drop(): Promise<void>;
}

/** A fresh database of the given engine with the dataset loaded for serviceDate. */
export async function prepareDatabase(engine: Engine, serviceDate: string, size: DatasetSize): Promise<PreparedDatabase> {
  if (engine === "pglite") {
    const dataDir = mkdtempSync(path.join(tmpdir(), "rxc-bench-pglite-"));
    try {
      const database = await openDatabase({ dataDir });
      const dataset = await generateDataset(database.db, serviceDate, size);
      await database.close();
      return { engine, server: { dataDir }, dataset, drop: async () => rmSync(dataDir, { recursive: true, force: true }) };
    } catch (error) {
      rmSync(dataDir, { recursive: true, force: true });
      throw error;
    }
  }
  const name = `rxc_bench_${randomBytes(5).toString("hex")}`;
  const admin = async (query: string) => {
    const client = new pg.Client({ connectionString: ADMIN_URL });
    await client.connect();
    try {
      await client.query(query);
    } finally {
      await client.end();
    }
  };
  await admin(`create database ${name}`);
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  const drop = () => admin(`drop database if exists ${name} with (force)`);
  try {
    const database = await openDatabase({ databaseUrl: url.toString(), poolSize: 4 });
    const dataset = await generateDataset(database.db, serviceDate, size);
    // The loader's writes flushed now, not by a checkpoint during the measured run.
    await database.db.execute(sql`checkpoint`);
    await database.close();
    return { engine, server: { databaseUrl: url.toString() }, dataset, drop };
  } catch (error) {
    await drop();
    throw error;
  }
}
