import { calendarDate } from "../../../domain/dates.ts";
import { describeMachine, machineLine, round, today, type MachineDescription } from "../lib/machine.ts";
import { table, verdict } from "../lib/report.ts";
import { startBenchServer } from "../lib/server.ts";
import { measureCosts, type EndpointCost } from "./cost.ts";
import { READS, type Endpoint } from "./courier-day.ts";
import { FLEET, type DatasetSize } from "./dataset.ts";
import { prepareDatabase, type Engine } from "./databases.ts";
import { courierDays, runHello, runPaced, runSaturation, type HelloResult, type RunResult } from "./run.ts";

/**
 * API under load (issue 9): the fleet's database on PGlite and on
 * PostgreSQL, the real server, and 200 couriers each with its own session
 * replaying the courier-day mix. Per engine: a paced run (the budget: each
 * courier at its peak pace), a saturated run (the throughput), and what
 * each kind of call costs in CPU; once, a bare Fastify hello-world under
 * the same connections, for the ratio.
 */

export const READ_BUDGET_MS = 50;
export const DELIVERY_BUDGET_MS = 150;

export interface LoadOptions {
  engines: Engine[];
  couriers: number;
  /** Mean pause between one courier's calls in the paced run. */
  meanThinkMs: number;
  /** The paced run's first moments (couriers connecting, the database pool growing), reported apart. */
  rampUpMs: number;
  pacedMs: number;
  saturationMs: number;
  helloMs: number;
  costCouriers: number;
  costCalls: number;
  size: DatasetSize;
  log?: (line: string) => void;
}

export const FULL_LOAD: Omit<LoadOptions, "engines"> = {
  couriers: 200,
  meanThinkMs: 1000,
  rampUpMs: 5_000,
  pacedMs: 30_000,
  saturationMs: 15_000,
  helloMs: 15_000,
  costCouriers: 20,
  costCalls: 10,
  size: FLEET,
};

export interface EngineResult {
  engine: Engine;
  dataset: { rows: Record<string, number>; seconds: number };
  loginSeconds: number;
  paced: RunResult;
  saturation: RunResult;
  costs: EndpointCost[];
  budget: { readsP99: number; deliveryP99: number; errors: number; met: boolean } | null;
}

export interface LoadResult {
  date: string;
  machine: MachineDescription;
  loadAverageEnd: number;
  options: Omit<LoadOptions, "log" | "engines">;
  engines: EngineResult[];
  hello: HelloResult | null;
}

function budgetOf(run: RunResult): EngineResult["budget"] {
  const reads = READS.map((endpoint) => run.byEndpoint[endpoint]?.p99 ?? 0);
  const readsP99 = Math.max(...reads);
  const deliveryP99 = run.byEndpoint.delivery?.p99 ?? 0;
  return { readsP99, deliveryP99, errors: run.errors, met: readsP99 <= READ_BUDGET_MS && deliveryP99 <= DELIVERY_BUDGET_MS && run.errors === 0 };
}

export async function runLoad(options: LoadOptions): Promise<LoadResult> {
  const log = options.log ?? console.log;
  const machine = describeMachine();
  const serviceDate = calendarDate(new Date(), "America/New_York");
  const engines: EngineResult[] = [];
  let hello: HelloResult | null = null;
  for (const engine of options.engines) {
    log(`  ${engine}: generating the fleet's database…`);
    const database = await prepareDatabase(engine, serviceDate, options.size);
    log(`  ${engine}: ${JSON.stringify(database.dataset.rows)} in ${database.dataset.seconds} s`);
    const server = await startBenchServer(database.server);
    try {
      const loginStarted = performance.now();
      const days = await courierDays(server.url, database.dataset.emails, options.couriers);
      const loginSeconds = round((performance.now() - loginStarted) / 1000, 1);
      // Warm the server (JIT, pool) with couriers the measured runs do not use.
      const spare = database.dataset.emails.slice(options.couriers + options.costCouriers * 4);
      const warm = await courierDays(server.url, spare, Math.min(20, spare.length));
      await runPaced(server.url, warm, { durationMs: 3000, meanThinkMs: 0 });

      log(`  ${engine}: paced run, ${options.couriers} couriers, ${options.pacedMs / 1000} s…`);
      const paced = await runPaced(server.url, days, { durationMs: options.pacedMs, meanThinkMs: options.meanThinkMs, rampUpMs: options.rampUpMs });
      log(`  ${engine}: ${paced.perSecond} calls/s, p99 ${paced.p99} ms, ${paced.errors} errors (${paced.shed} shed, ${paced.over10s} over 10 s)`);
      log(`  ${engine}: saturated run, ${options.saturationMs / 1000} s…`);
      const saturation = await runSaturation(server.url, days, { durationMs: options.saturationMs });
      log(`  ${engine}: ${saturation.perSecond} calls/s, p50 ${saturation.p50} ms, ${saturation.errors} errors (${saturation.shed} shed with 503 + Retry-After, ${saturation.over10s} calls over 10 s)`);
      if (engine === "postgres" || options.engines.length === 1) {
        log(`  hello-world, ${options.couriers} connections, ${options.helloMs / 1000} s…`);
        hello = await runHello(options.couriers, options.helloMs);
      }
      log(`  ${engine}: CPU per call…`);
      const costs = await measureCosts({
        url: server.url,
        serverPid: server.pid,
        databaseUrl: "databaseUrl" in database.server ? database.server.databaseUrl : null,
        emails: database.dataset.emails,
        firstCourier: options.couriers,
        couriers: options.costCouriers,
        callsPerCourier: options.costCalls,
      });
      engines.push({
        engine,
        dataset: { rows: database.dataset.rows, seconds: database.dataset.seconds },
        loginSeconds,
        paced,
        saturation,
        costs,
        budget: engine === "postgres" ? budgetOf(paced) : null,
      });
    } finally {
      await server.stop();
      await database.drop();
    }
  }
  const { log: _log, engines: _engines, ...kept } = options;
  return { date: today(), machine, loadAverageEnd: describeMachine().loadAverage, options: kept, engines, hello };
}

const ORDER: Endpoint[] = ["itinerary", "routing", "copay", "pickup", "delivery", "delivery_failed"];

function budgetCell(endpoint: Endpoint, p99: number, engine: Engine): string {
  if (engine !== "postgres") return "—";
  if (READS.includes(endpoint)) return `≤ ${READ_BUDGET_MS} ms: ${verdict(p99 <= READ_BUDGET_MS)}`;
  if (endpoint === "delivery") return `≤ ${DELIVERY_BUDGET_MS} ms: ${verdict(p99 <= DELIVERY_BUDGET_MS)}`;
  return "none set";
}

function runTable(run: RunResult, engine: Engine, withBudget: boolean): string {
  const rows = ORDER.filter((endpoint) => run.byEndpoint[endpoint]).map((endpoint) => {
    const stats = run.byEndpoint[endpoint]!;
    return [stats.label, stats.perSecond, stats.p50, stats.p99, stats.max, stats.errors, ...(withBudget ? [budgetCell(endpoint, stats.p99, engine)] : [])];
  });
  rows.push(["**all calls**", run.perSecond, run.p50, run.p99, "", run.errors, ...(withBudget ? [""] : [])]);
  return table(["Endpoint", "calls/s", "p50 ms", "p99 ms", "max ms", "errors", ...(withBudget ? ["p99 budget"] : [])], rows);
}

export function loadMarkdown(result: LoadResult, notes: readonly string[] = []): string {
  const o = result.options;
  const lines = [
    `Run ${result.date} on ${machineLine(result.machine)}; 1-minute load average ${result.machine.loadAverage} at the start, ${result.loadAverageEnd} at the end. The server, PostgreSQL 15 and the load generator share the machine's cores.`,
    "",
    `Dataset (scripts/bench/load/dataset.ts): ${o.size.couriers} couriers, ${o.size.pharmacies} pharmacies, ${o.size.ordersToday.toLocaleString("en-US")} orders for today (mid-morning: 45% to pick up, 5% verified, 40% in the bag, 10% delivered or attempted; 2% add-ons on offer) and ${o.size.historyDays} earlier day(s) of delivered orders, with their visits and deliveries.`,
    `The server is \`server/main.ts\` as \`npm start\` runs it, logging at \`info\` to a discarded stdout. ${o.couriers} couriers log in through the API (each its own session) and replay the courier-day mix (scripts/bench/load/courier-day.ts): of every nine calls one loads the day, two assert a copay, two pick up, two deliver (a completion with a ${10} KB signature as the app's multipart form with an Idempotency-Key, a contactless drop-off where the pharmacy asks for one, or a failed attempt where only a card could pay) and two ask for the driving order of what is left; a call with nothing left to do becomes a day load.`,
    `- **Paced** (the budget): each courier on its own keep-alive connection, one call at a time, pausing a random ${o.meanThinkMs / 1000} s on average (exponential) between calls: a courier tapping once a second is faster than any courier at a counter or a door, so this is the fleet's peak with a margin. ${o.pacedMs / 1000} s measured after ${o.rampUpMs / 1000} s of ramp-up (all couriers connecting at once and the server's database pool growing from idle), whose figures are given apart.`,
    `- **Saturated**: no pauses (autocannon, one connection per courier, pipelining 1): ${o.couriers} calls always in flight. It measures throughput; its latency is queueing (about ${o.couriers} ÷ throughput). ${o.saturationMs / 1000} s. autocannon reads answers as text, so it asks for them uncompressed; the paced runs and the CPU figures send a browser's Accept-Encoding and decompress.`,
    `- **Hello-world**: a bare Fastify server answering {hello: "world"} in its own process, autocannon with the same ${o.couriers} connections for ${o.helloMs / 1000} s, right after the PostgreSQL saturated run.`,
    `- **CPU per call**: ${o.costCouriers} couriers × ${o.costCalls} calls of one kind with no pause; CPU seconds of the server process (and of the PostgreSQL backends of its pool) ÷ calls. Much less disturbed by a busy machine than latency.`,
    "",
    `Budgets (PostgreSQL, paced, ${o.couriers} couriers): p99 ≤ ${READ_BUDGET_MS} ms for reads (day, routing), ≤ ${DELIVERY_BUDGET_MS} ms for a delivery submission, zero errors.`,
  ];
  for (const engine of result.engines) {
    const name = engine.engine === "postgres" ? "PostgreSQL" : "PGlite (embedded)";
    lines.push("", `### ${name}`, "");
    if (engine.budget) {
      lines.push(
        `Budget: reads p99 ${engine.budget.readsP99} ms, delivery p99 ${engine.budget.deliveryP99} ms, ${engine.budget.errors} errors — **${engine.budget.met ? "met" : "missed"}**.`,
        "",
      );
    }
    const ramp = engine.paced.rampUp;
    const slow = Object.entries(engine.paced.slowBySecond);
    lines.push(
      `Paced, ${engine.paced.couriers} couriers, ${engine.paced.seconds} s, ${engine.paced.requests} calls:`,
      "",
      runTable(engine.paced, engine.engine, true),
      "",
      (ramp ? `Ramp-up (the first ${ramp.seconds} s, not in the table): ${ramp.requests} calls, p50 ${ramp.p50} ms, p99 ${ramp.p99} ms, max ${ramp.max} ms, ${ramp.errors} errors. ` : "") +
        `Calls over 100 ms by second of the measured run: ${slow.length ? slow.map(([second, n]) => `${second} s: ${n}`).join(", ") : "none"}.`,
      "",
    );
    lines.push(`Saturated, ${engine.saturation.couriers} couriers, ${engine.saturation.seconds} s, ${engine.saturation.requests} calls:`, "", runTable(engine.saturation, engine.engine, false), "");
    // Issue 14 finding 10: past the bounded wait, calls are refused fast instead of held. Runs recorded before it have no count.
    if ((engine.saturation as Partial<RunResult>).shed !== undefined) lines.push(
      `Load shedding: ${engine.saturation.shed} calls refused with 503 + Retry-After (the app retries them), ${engine.saturation.over10s} calls answered after more than 10 s (paced run: ${engine.paced.shed} shed, ${engine.paced.over10s} over 10 s).`,
      "",
    );
    if (result.hello && (engine.engine === "postgres" || result.engines.length === 1)) {
      const h = result.hello;
      lines.push(
        `Hello-world on the same machine in the same run: ${h.perSecond} calls/s, p50 ${h.p50} ms, p99 ${h.p99} ms (${h.errors} errors). ` +
          `The courier mix runs at **${round((engine.saturation.perSecond / h.perSecond) * 100, 1)}%** of its throughput; its median call takes ${round(engine.saturation.p50 / Math.max(1, h.p50), 1)}× as long under the same ${h.connections} connections.`,
        "",
      );
    }
    lines.push(
      "CPU per call:",
      "",
      table(
        ["Call", "calls", "server CPU ms", "PostgreSQL CPU ms"],
        engine.costs.map((cost) => [cost.action, cost.requests, cost.serverCpuMs, cost.postgresCpuMs ?? "in the server (embedded)"]),
      ),
      "",
      `Errors: ${engine.paced.errors + engine.saturation.errors}${Object.keys({ ...engine.paced.errorKinds, ...engine.saturation.errorKinds }).length ? ` (${JSON.stringify({ ...engine.paced.errorKinds, ...engine.saturation.errorKinds })}; ${[...engine.paced.errorSamples, ...engine.saturation.errorSamples].slice(0, 3).join(" | ")})` : ""}. ` +
        `Dataset generated in ${engine.dataset.seconds} s; ${o.couriers} logins took ${engine.loginSeconds} s (argon2). Calls replaced by a day load (nothing left to do): ${engine.paced.substitutions + engine.saturation.substitutions}.`,
    );
  }
  if (notes.length) lines.push("", "### Findings and fixes", "", ...notes);
  return lines.join("\n");
}

