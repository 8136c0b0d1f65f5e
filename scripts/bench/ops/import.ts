import { calendarDate } from "../../../domain/dates.ts";
import { describeMachine, machineLine, round, today, type MachineDescription } from "../lib/machine.ts";
import { table } from "../lib/report.ts";
import { startBenchServer } from "../lib/server.ts";
import { prepareDatabase } from "../load/databases.ts";
import { FLEET } from "../load/dataset.ts";
import { courierDays, runPaced } from "../load/run.ts";
import { BENCH_OPS_KEY, importOrdersApart, MIX_HEADER, mixFigures, mixRow, type ImportRun, type MixFigures } from "./common.ts";

/**
 * Issue 15's import figure: 10,000 orders through POST /api/ops/v1/orders/batch
 * (1000 a batch, one batch after another) into the fleet's PostgreSQL database
 * while the courier mix runs, against the same mix without it measured just
 * before on the same server; then the same import alone.
 */

export interface ImportOptions {
  couriers: number;
  meanThinkMs: number;
  rampUpMs: number;
  baselineMs: number;
  orders: number;
  batchSize: number;
  log?: (line: string) => void;
}

/** 50,000 orders: at thousands a second, 10,000 were imported in about 2 s, too few mix calls for the p99 beside the import to mean anything. */
export const FULL_IMPORT: ImportOptions = { couriers: 50, meanThinkMs: 1000, rampUpMs: 5_000, baselineMs: 20_000, orders: 50_000, batchSize: 1000 };

export interface ImportResult {
  date: string;
  machine: MachineDescription;
  loadAverageEnd: number;
  options: Omit<ImportOptions, "log">;
  baseline: MixFigures;
  during: MixFigures;
  underMix: ImportRun;
  alone: ImportRun;
}

export async function runImportBench(options: ImportOptions): Promise<ImportResult> {
  const log = options.log ?? console.log;
  const machine = describeMachine();
  const serviceDate = calendarDate(new Date(), "America/New_York");
  log("  postgres: generating the fleet's database…");
  const database = await prepareDatabase("postgres", serviceDate, FLEET);
  const server = await startBenchServer({ ...database.server, env: { OPS_API_KEY: BENCH_OPS_KEY } });
  try {
    const days = await courierDays(server.url, database.dataset.emails, options.couriers);
    const warm = await courierDays(server.url, database.dataset.emails.slice(options.couriers + 50), 20);
    await runPaced(server.url, warm, { durationMs: 3000, meanThinkMs: 0 });
    const pharmacyIds = Array.from({ length: FLEET.pharmacies }, (_, i) => i + 1);
    const batch = { pharmacyIds, serviceDate, total: options.orders, batchSize: options.batchSize };

    log(`  baseline: the courier mix alone, ${options.couriers} couriers, ${options.baselineMs / 1000} s…`);
    const baselineRun = await runPaced(server.url, days, { durationMs: options.baselineMs, meanThinkMs: options.meanThinkMs, rampUpMs: options.rampUpMs });
    const baseline = mixFigures(baselineRun);
    log(`  baseline: ${baseline.perSecond} calls/s, p99 ${baseline.p99} ms, ${baseline.errors} errors`);

    log(`  import of ${options.orders} orders while the mix runs…`);
    let imported: ImportRun | null = null;
    let importError: unknown = null;
    // The mix ramps up first; the import starts as the measured part does, and the mix stops when it ends.
    const importing = new Promise((resolve) => setTimeout(resolve, options.rampUpMs))
      .then(() => importOrdersApart(server.url, { ...batch, prefix: "BENCH-MIX", seed: 1 }))
      .then((run) => (imported = run))
      .catch((error: unknown) => (importError = error));
    const duringRun = await runPaced(server.url, days, {
      durationMs: 10 * 60_000,
      meanThinkMs: options.meanThinkMs,
      rampUpMs: options.rampUpMs,
      stopWhen: () => imported !== null || importError !== null,
    });
    await importing;
    if (importError) throw importError;
    const underMix = imported as unknown as ImportRun;
    const during = mixFigures(duringRun);
    log(`  import: ${underMix.ordersPerSecond} orders/s (${underMix.created} created, ${underMix.rejected} rejected); mix p99 ${during.p99} ms`);

    log(`  import of ${options.orders} orders alone…`);
    const alone = await importOrdersApart(server.url, { ...batch, prefix: "BENCH-ALONE", seed: 100_000 });
    log(`  import alone: ${alone.ordersPerSecond} orders/s`);
    const { log: _log, ...kept } = options;
    return { date: today(), machine, loadAverageEnd: describeMachine().loadAverage, options: kept, baseline, during, underMix, alone };
  } finally {
    await server.stop();
    await database.drop();
  }
}

export function importMarkdown(result: ImportResult, notes: readonly string[] = []): string {
  const o = result.options;
  const medianWorst = (list: readonly number[] | undefined) => {
    if (!list?.length) return "—";
    const sorted = [...list].sort((a, b) => a - b);
    return `${sorted[Math.floor(sorted.length / 2)]} / ${sorted[sorted.length - 1]}`;
  };
  const importRow = (name: string, run: ImportRun) => [
    name,
    run.orders.toLocaleString("en-US"),
    run.seconds,
    `**${run.ordersPerSecond}**`,
    run.created,
    run.rejected,
    medianWorst(run.batchMs),
    medianWorst(run.transactionMs),
  ];
  const lines = [
    `Run ${result.date} on ${machineLine(result.machine)}; 1-minute load average ${result.machine.loadAverage} at the start, ${result.loadAverageEnd} at the end. The server, PostgreSQL 15, the load generator and the importer (a process of its own) share the machine's cores.`,
    "",
    `The fleet's PostgreSQL database of "API under load" (a throwaway database; ${FLEET.ordersToday.toLocaleString("en-US")} orders today), the real server started with an OPS_API_KEY. ` +
      `${o.orders.toLocaleString("en-US")} orders (seeded, spread over the ${FLEET.pharmacies} pharmacies, about 40% with a copay, 5% controlled) go through \`POST /api/ops/v1/orders/batch\` with the dispatch key, ${o.batchSize} a batch, one batch after another as \`npm run ops -- orders import\` sends them. ` +
      `First the courier mix alone (${o.couriers} couriers, paced as in "API under load": a call about every ${o.meanThinkMs / 1000} s each) for ${o.baselineMs / 1000} s after ${o.rampUpMs / 1000} s of ramp-up: the baseline. ` +
      `Then the same couriers again, the import starting as the measured part does, and the mix measured until the import ends (a courier pausing then finishes the pause first: up to 5 s more). Last, ${o.orders.toLocaleString("en-US")} more orders imported with nothing else running.`,
    "",
    table(["Import", "orders", "s", "orders/s", "created", "rejected", "batch ms median / worst", "transaction ms median / worst"], [importRow("while the courier mix runs", result.underMix), importRow("alone", result.alone)]),
    "",
    table(MIX_HEADER, [mixRow("alone (baseline)", result.baseline, result.baseline), mixRow("while the import runs", result.during, result.baseline)]),
    "",
    `A batch's round trip is timed by the importer; its transaction by the server (the answer's \`Server-Timing\` header). Reads are the day and the driving order; ratios are against the baseline of the same run. Calls refused for load: ${result.baseline.shed} in the baseline, ${result.during.shed} during the import.` +
      (result.underMix.rejections.length ? ` Rejected rows, first: ${result.underMix.rejections.join(" | ")}.` : ""),
    `The mix during the import ran ${round(result.during.seconds, 1)} s; a p99 over fewer calls moves more from run to run.`,
  ];
  if (notes.length) lines.push("", ...notes);
  return lines.join("\n");
}
