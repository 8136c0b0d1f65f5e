/**
 * Diagnostic, not part of npm run bench (issue 25): CPU per 1000 imported
 * orders, nothing else running, for builds told apart by environment
 * variables, alternated on one throwaway fleet database (a server started
 * afresh for each run): the server's main thread (the one that answers
 * couriers), the whole server process, and PostgreSQL's backends of the bench
 * database. CPU time, unlike wall clock, holds on a busy host.
 *
 *   node --import tsx scripts/bench/ops/import-cpu.ts 'A:AB_FORCE=A' 'B:' [rounds=3] [orders=10000]
 */
import { readdirSync, readFileSync } from "node:fs";
import { calendarDate } from "../../../domain/dates.ts";
import { startBenchServer } from "../lib/server.ts";
import { prepareDatabase } from "../load/databases.ts";
import { FLEET } from "../load/dataset.ts";
import { BENCH_OPS_KEY, importOrdersApart } from "./common.ts";

const ways = process.argv.slice(2).filter((arg) => arg.includes(":")).map((arg) => {
  const [name, ...assignments] = arg.split(":");
  const env = Object.fromEntries(assignments.join(":").split(",").filter(Boolean).map((pair) => pair.split("=") as [string, string]));
  return { name: name!, env };
});
const [rounds = 3, orders = 10000] = process.argv.slice(2).filter((arg) => !arg.includes(":")).map(Number);
const ticks = (file: string) => {
  const stat = readFileSync(file, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return Number(fields[11]) + Number(fields[12]);
};
const cpu = (serverPid: number, database: string) => {
  let pg = 0;
  for (const pid of readdirSync("/proc").filter((d) => /^\d+$/.test(d))) {
    try {
      if (readFileSync(`/proc/${pid}/cmdline`, "utf8").includes(` ${database} `)) pg += ticks(`/proc/${pid}/stat`);
    } catch {
      // ended meanwhile
    }
  }
  return { main: ticks(`/proc/${serverPid}/task/${serverPid}/stat`), server: ticks(`/proc/${serverPid}/stat`), pg };
};
const serviceDate = calendarDate(new Date(), "America/New_York");
const database = await prepareDatabase("postgres", serviceDate, FLEET);
const name = "databaseUrl" in database.server ? new URL(database.server.databaseUrl).pathname.slice(1) : "";
const pharmacyIds = Array.from({ length: FLEET.pharmacies }, (_, i) => i + 1);
const results = new Map<string, string[]>();
try {
  let seed = 1;
  for (let round = 0; round < rounds; round++) {
    for (const way of ways) {
      const server = await startBenchServer({ ...database.server, env: { OPS_API_KEY: BENCH_OPS_KEY, ...way.env } });
      try {
        // A first batch warms the worker and the prepared statements; not counted.
        await importOrdersApart(server.url, { pharmacyIds, serviceDate, total: 1000, batchSize: 1000, prefix: `CPU-W${seed}`, seed: (seed += 1000) });
        const before = cpu(server.pid, name);
        const run = await importOrdersApart(server.url, { pharmacyIds, serviceDate, total: orders, batchSize: 1000, prefix: `CPU-${seed}`, seed: (seed += orders) });
        // The events' reads after the last commit.
        await new Promise((resolve) => setTimeout(resolve, 300));
        const after = cpu(server.pid, name);
        const per = (key: "main" | "server" | "pg") => (((after[key] - before[key]) * 10) / (orders / 1000)).toFixed(0);
        const line = `main ${per("main")} server ${per("server")} pg ${per("pg")} ms/1000 (${run.ordersPerSecond}/s)`;
        results.set(way.name, [...(results.get(way.name) ?? []), line]);
        console.log(`${way.name} round ${round + 1}: ${line}`);
      } finally {
        await server.stop();
      }
    }
  }
} finally {
  await database.drop();
}
