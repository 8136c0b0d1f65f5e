/**
 * Diagnostic, not part of npm run bench (issue 25): every statement of an
 * orders batch's transaction with its plan, buffers, WAL and trigger times,
 * as PostgreSQL's auto_explain logs them (log_analyze) on a throwaway fleet
 * database, while a few batches are imported with nothing else running.
 * Reads PostgreSQL's log file, so it needs to run where that file is.
 *
 *   node --import tsx scripts/bench/ops/batch-explain.ts [orders=3000]
 */
import { readFileSync, statSync } from "node:fs";
import pg from "pg";
import { calendarDate } from "../../../domain/dates.ts";
import { startBenchServer } from "../lib/server.ts";
import { prepareDatabase } from "../load/databases.ts";
import { FLEET } from "../load/dataset.ts";
import { BENCH_OPS_KEY, importOrders } from "./common.ts";

const LOG = process.env.PG_LOG ?? "/var/log/postgresql/postgresql-15-main.log";
const orders = Number(process.argv[2] ?? 3000);
const serviceDate = calendarDate(new Date(), "America/New_York");
const database = await prepareDatabase("postgres", serviceDate, FLEET);
const url = "databaseUrl" in database.server ? database.server.databaseUrl : "";
const name = new URL(url).pathname.slice(1);
const client = new pg.Client({ connectionString: url });
await client.connect();
for (const [key, value] of Object.entries({
  session_preload_libraries: "auto_explain",
  "auto_explain.log_min_duration": "0",
  log_min_duration_statement: process.env.STATEMENTS === "1" ? "0" : "-1",
  "auto_explain.log_analyze": "on",
  "auto_explain.log_buffers": "on",
  "auto_explain.log_wal": "on",
  "auto_explain.log_triggers": "on",
  "auto_explain.log_nested_statements": process.env.NESTED === "1" ? "on" : "off",
})) await client.query(`alter database ${name} set ${key} = '${value}'`);
await client.end();
const from = statSync(LOG).size;
const server = await startBenchServer({ ...database.server, env: { OPS_API_KEY: BENCH_OPS_KEY } });
try {
  const pharmacyIds = Array.from({ length: FLEET.pharmacies }, (_, i) => i + 1);
  const run = await importOrders(server.url, { pharmacyIds, serviceDate, total: orders, batchSize: 1000, prefix: "EXPLAIN", seed: 7 });
  console.log(`imported ${run.created} in ${run.batchMs.join(", ")} ms; transactions ${run.transactionMs?.join(", ")} ms`);
} finally {
  await server.stop();
  await database.drop();
}
const text = readFileSync(LOG, "utf8").slice(from);
console.log(text.split("\n").filter((line) => !line.includes("Query Text: select \"id\", \"name\"")).join("\n"));
