/**
 * Diagnostic, not part of npm run bench (issue 25, docs/decisions/0027): where
 * the courier mix's extra latency beside an import comes from. Prints, for a
 * baseline and an import under the mix: the mix's p50/p99 as the load
 * generator sees them and as the server logged them, the load generator's and
 * the server's event-loop delay, CPU by process (server, PostgreSQL backends
 * of the bench database, load generator, importer; the server's main thread,
 * which answers the couriers, as server-main too), then an import alone with
 * its CPU per 1000 orders.
 *
 *   node --import tsx scripts/bench/ops/import-diag.ts
 *   DIAG_ORDERS=30000 DIAG_BASE_MS=15000  sizes
 *   DIAG_APART=1   the importer in its own process (as the bench runs it)
 *   DIAG_SPLIT=1   the import sent to a second server process on the same database
 *   DIAG_PROF=1    the server with --cpu-prof into /tmp/imp/prof
 *   DIAG_EXPLAIN=1 auto_explain on the bench database (statements over 15 ms into PostgreSQL's log)
 * It also prints the couriers' calls by route as the server timed them, and
 * the bench database's table statistics (scans, analyze) after each part.
 */
import { mkdirSync, readdirSync, readFileSync } from "node:fs";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { calendarDate } from "../../../domain/dates.ts";
import { startBenchServer } from "../lib/server.ts";
import { prepareDatabase } from "../load/databases.ts";
import { FLEET } from "../load/dataset.ts";
import { courierDays, runPaced } from "../load/run.ts";
import { BENCH_OPS_KEY, importOrders, importOrdersApart, mixFigures } from "./common.ts";
import { percentile } from "../lib/machine.ts";
import pg from "pg";

const importer = process.env.DIAG_APART === "1" ? importOrdersApart : importOrders;

const ORDERS = Number(process.env.DIAG_ORDERS ?? 30000);
const BASE_MS = Number(process.env.DIAG_BASE_MS ?? 15000);
const PROF = process.env.DIAG_PROF === "1";
mkdirSync("/tmp/imp", { recursive: true });
const logFile = "/tmp/imp/server.log";
const serviceDate = calendarDate(new Date(), "America/New_York");
const database = await prepareDatabase("postgres", serviceDate, FLEET);
const dbUrl = "databaseUrl" in database.server ? database.server.databaseUrl : "";
const dbName = new URL(dbUrl).pathname.slice(1);
const pgq = async (query: string) => {
  const client = new pg.Client({ connectionString: dbUrl });
  await client.connect();
  try {
    return (await client.query(query)).rows;
  } finally {
    await client.end();
  }
};
if (process.env.DIAG_EXPLAIN === "1") {
  // Per database, so only this bench's sessions load it: statements over 15 ms with their plans into PostgreSQL's log.
  await pgq(`alter database ${dbName} set session_preload_libraries = 'auto_explain'`);
  await pgq(`alter database ${dbName} set auto_explain.log_min_duration = '15ms'`);
}
const tableStats = async (label: string) => {
  const rows = await pgq(
    "select relname, n_live_tup, seq_scan, seq_tup_read, idx_scan, n_mod_since_analyze, last_analyze, last_autoanalyze, last_autovacuum from pg_stat_user_tables where relname in ('orders','audit_log','dispatch_events','webhook_messages','pharmacy_visits','planned_stops','plans') order by relname",
  );
  console.log(`tables ${label}: ${rows.map((r) => `${r.relname} live ${r.n_live_tup} seq ${r.seq_scan}/${r.seq_tup_read} idx ${r.idx_scan} mod ${r.n_mod_since_analyze} an ${r.last_analyze ?? r.last_autoanalyze ?? "-"} vac ${r.last_autovacuum ?? "-"}`).join("; ")}`);
};
const server = await startBenchServer({ ...database.server, env: { OPS_API_KEY: BENCH_OPS_KEY }, logFile, probe: true, nodeArgs: PROF ? ["--cpu-prof", "--cpu-prof-dir=/tmp/imp/prof"] : [] });
const importServer = process.env.DIAG_SPLIT === "1" ? await startBenchServer({ ...database.server, env: { OPS_API_KEY: BENCH_OPS_KEY } }) : server;
const lag = monitorEventLoopDelay({ resolution: 5 });
const cpu = () => {
  const out = new Map<string, number>();
  for (const pid of readdirSync("/proc").filter((d) => /^\d+$/.test(d))) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      const ticks = Number(fields[11]) + Number(fields[12]);
      const comm = stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")"));
      const who = Number(pid) === server.pid ? "server" : Number(pid) === process.pid ? "bench" : comm.startsWith("postgres") ? (readFileSync(`/proc/${pid}/cmdline`, "utf8").includes("rxc_bench") ? "pg-bench" : readFileSync(`/proc/${pid}/cmdline`, "utf8").includes("postgres: postgres") ? "pg-other-db" : "pg-shared") : "other:" + comm;
      out.set(who, (out.get(who) ?? 0) + ticks);
      if (who === "server") {
        // The thread that answers the couriers, apart from the process's other threads (GC helpers, the probe, the batch check worker).
        const main = readFileSync(`/proc/${pid}/task/${pid}/stat`, "utf8");
        const mainFields = main.slice(main.lastIndexOf(")") + 2).split(" ");
        out.set("server-main", (out.get("server-main") ?? 0) + Number(mainFields[11]) + Number(mainFields[12]));
      }
    } catch {
      // the process ended meanwhile
    }
  }
  return out;
};
const cpuDiff = (a: Map<string, number>, b: Map<string, number>, seconds: number) => [...b].map(([k, v]) => [k, (v - (a.get(k) ?? 0)) / seconds] as const).filter(([, v]) => v > 1).sort((x, y) => y[1] - x[1]).map(([k, v]) => `${k} ${v.toFixed(0)}%`).join(", ");
const ms = (n: number) => Math.round(n / 1e5) / 10;
try {
  const days = await courierDays(server.url, database.dataset.emails, 50);
  const warm = await courierDays(server.url, database.dataset.emails.slice(100), 20);
  await runPaced(server.url, warm, { durationMs: 3000, meanThinkMs: 0 });
  const pharmacyIds = Array.from({ length: FLEET.pharmacies }, (_, i) => i + 1);
  await tableStats("before");
  const t0 = Date.now();
  lag.enable();
  const c0 = cpu();
  const base = mixFigures(await runPaced(server.url, days, { durationMs: BASE_MS, meanThinkMs: 1000, rampUpMs: 5000 }));
  lag.disable();
  console.log(`cpu baseline: ${cpuDiff(c0, cpu(), (Date.now() - t0) / 1000)}`);
  console.log(`baseline p50 ${base.p50} p99 ${base.p99} calls ${base.calls}; bench loop lag p99 ${ms(lag.percentile(99))} max ${ms(lag.max)}`);
  lag.reset();
  const t1 = Date.now();
  let done = false;
  let importStart = 0;
  const importing = new Promise((r) => setTimeout(r, 5000)).then(() => { importStart = Date.now(); return importer(importServer.url, { pharmacyIds, serviceDate, total: ORDERS, batchSize: 1000, prefix: "DIAG", seed: 1 }); }).then((run) => { done = true; return run; });
  const during = runPaced(server.url, days, { durationMs: 600000, meanThinkMs: 1000, rampUpMs: 5000, stopWhen: () => done });
  await new Promise((r) => setTimeout(r, 5000));
  lag.enable();
  const c1 = cpu(); const tc1 = Date.now();
  const run = await importing;
  await tableStats("after the import under the mix");
  console.log(`cpu import: ${cpuDiff(c1, cpu(), (Date.now() - tc1) / 1000)}`);
  lag.disable();
  const importEnd = Date.now();
  const dur = mixFigures(await during);
  const sorted = [...run.batchMs].sort((a, b) => a - b);
  console.log(`import ${run.ordersPerSecond}/s batch median ${sorted[sorted.length >> 1]} worst ${sorted.at(-1)}; during p50 ${dur.p50} p99 ${dur.p99} (${(dur.p99 / base.p99).toFixed(2)}x) calls ${dur.calls}; bench loop lag p99 ${ms(lag.percentile(99))} max ${ms(lag.max)} mean ${ms(lag.mean)}`);
  {
    const c = cpu(); const t = Date.now();
    const alone = await importer(importServer.url, { pharmacyIds, serviceDate, total: ORDERS, batchSize: 1000, prefix: "DIAG-ALONE", seed: 500000 });
    const secs = (Date.now() - t) / 1000;
    const d = cpu();
    console.log(`alone ${alone.ordersPerSecond}/s; cpu ms per 1000 orders: ${[...d].map(([k, v]) => [k, ((v - (c.get(k) ?? 0)) * 10) / (ORDERS / 1000)] as const).filter(([k, v]) => v > 5 && !k.startsWith("other")).map(([k, v]) => `${k} ${v.toFixed(0)}`).join(", ")} (wall ${(secs * 1000 / (ORDERS / 1000)).toFixed(0)} ms)`);
  }
  const lines = readFileSync(logFile, "utf8").split("\n").filter(Boolean).map((l) => JSON.parse(l));
  const routeOf = new Map<string, string>();
  for (const l of lines) if (l.req?.route) routeOf.set(l.reqId, l.req.route);
  const serverSide = (from: number, to: number) => lines.filter((l) => l.responseTime != null && l.time >= from && l.time <= to && !String(routeOf.get(l.reqId)).includes("/ops/")).map((l) => l.responseTime as number);
  const a = serverSide(t0 + 5000, t1), b = serverSide(importStart, importEnd);
  console.log(`server-side courier baseline n ${a.length} p50 ${percentile(a, 50).toFixed(1)} p99 ${percentile(a, 99).toFixed(1)}; during n ${b.length} p50 ${percentile(b, 50).toFixed(1)} p99 ${percentile(b, 99).toFixed(1)}`);
  const loop = (from: number, to: number) => server.memory.filter((m) => m.at >= from && m.at <= to).map((m) => `${m.loop.maxMs.toFixed(0)}/${m.loop.p99Ms.toFixed(0)}`).join(" ");
  const byRoute = (from: number, to: number) => {
    const out = new Map<string, number[]>();
    for (const l of lines) {
      if (l.responseTime == null || l.time < from || l.time > to) continue;
      const route = String(routeOf.get(l.reqId));
      if (route.includes("/ops/")) continue;
      out.set(route, [...(out.get(route) ?? []), l.responseTime as number]);
    }
    return out;
  };
  const routesBase = byRoute(t0 + 5000, t1), routesDuring = byRoute(importStart, importEnd);
  for (const [route, during] of routesDuring) {
    const base = routesBase.get(route) ?? [];
    console.log(`  ${route}: baseline n ${base.length} p50 ${percentile(base, 50).toFixed(1)} p90 ${percentile(base, 90).toFixed(1)} p99 ${percentile(base, 99).toFixed(1)}; during n ${during.length} p50 ${percentile(during, 50).toFixed(1)} p90 ${percentile(during, 90).toFixed(1)} p99 ${percentile(during, 99).toFixed(1)}`);
  }
  await tableStats("at the end");
  console.log(`server loop max/p99 per s, baseline: ${loop(t0 + 5000, t1)}`);
  console.log(`server loop max/p99 per s, import: ${loop(importStart, importEnd)}`);
} finally {
  await server.stop();
  if (importServer !== server) await importServer.stop();
  await database.drop();
}
