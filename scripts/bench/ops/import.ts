import { calendarDate } from "../../../domain/dates.ts";
import { describeMachine, machineLine, round, today, type MachineDescription } from "../lib/machine.ts";
import { table } from "../lib/report.ts";
import { startBenchServer } from "../lib/server.ts";
import { prepareDatabase } from "../load/databases.ts";
import { FLEET } from "../load/dataset.ts";
import { courierDays, PhaseClock, runPaced } from "../load/run.ts";
import { BENCH_OPS_KEY, MIX_HEADER, mixFigures, mixRow, ratio, startImporter, type ImportRun, type MixFigures } from "./common.ts";

/**
 * Issue 15's import figure: orders through POST /api/ops/v1/orders/batch
 * (1000 a batch, one batch after another) into the fleet's PostgreSQL database
 * while the courier mix runs, against the same mix without it on the same
 * server; then the same import alone.
 *
 * The mix runs throughout and the import runs in rounds, windows of the mix
 * alone and of the import alternating (issue 25): on a shared host the
 * machine's own pace drifts by more than the import's effect between one
 * baseline and one import measured after it, and alternating puts that drift
 * in both figures alike. Each call counts in the window it was sent in; the
 * second around each change of window is not counted (a call sent in the last
 * moment of a baseline would meet the import), and a call sent while the import
 * runs counts for it however late it ends. The windows of one kind are pooled:
 * one p99 over all their calls.
 */

export interface ImportOptions {
  couriers: number;
  meanThinkMs: number;
  rampUpMs: number;
  /** Each window of the mix alone; one before each round of the import and one after the last. */
  baselineMs: number;
  /** Orders in all; each round imports orders / rounds. */
  orders: number;
  rounds: number;
  /** Not counted, before and after each round of the import. */
  settleMs: number;
  /** Imported after the ramp-up, followed by a second ramp-up, before anything is counted. */
  warmUpOrders: number;
  batchSize: number;
  log?: (line: string) => void;
  /** Diagnostics (import-stalls.ts): every courier call, and every batch of the counted rounds as [sent, answered]. */
  onCall?: Parameters<typeof runPaced>[2]["onCall"];
  onBatches?: (round: number, spans: readonly [number, number][]) => void;
}

/** 50,000 orders in 5 rounds, 6 windows of 5 s alone: about 30 s of each, ~1,500 calls a side at 50 calls/s; 5,000 orders to warm up. */
export const FULL_IMPORT: ImportOptions = { couriers: 50, meanThinkMs: 1000, rampUpMs: 5_000, baselineMs: 5_000, orders: 50_000, rounds: 5, settleMs: 1_000, warmUpOrders: 5_000, batchSize: 1000 };

export interface ImportResult {
  date: string;
  machine: MachineDescription;
  loadAverageEnd: number;
  options: Omit<ImportOptions, "log" | "onCall" | "onBatches">;
  baseline: MixFigures;
  during: MixFigures;
  /** Each window's own p99, in the order they ran (absent from runs before the windows alternated). */
  windows?: { baselineP99: number[]; importP99: number[] };
  underMix: ImportRun;
  alone: ImportRun;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The rounds' imports as one: their orders and time summed, every batch's figures. */
function together(runs: readonly ImportRun[]): ImportRun {
  const orders = runs.reduce((sum, run) => sum + run.orders, 0);
  const seconds = runs.reduce((sum, run) => sum + run.seconds, 0);
  return {
    orders,
    batchSize: runs[0]!.batchSize,
    seconds: round(seconds, 1),
    ordersPerSecond: round(orders / seconds, 1),
    created: runs.reduce((sum, run) => sum + run.created, 0),
    rejected: runs.reduce((sum, run) => sum + run.rejected, 0),
    batchMs: runs.flatMap((run) => run.batchMs),
    transactionMs: runs.flatMap((run) => run.transactionMs ?? []),
    rejections: runs.flatMap((run) => run.rejections).slice(0, 3),
  };
}

export async function runImportBench(options: ImportOptions): Promise<ImportResult> {
  const log = options.log ?? console.log;
  const machine = describeMachine();
  const serviceDate = calendarDate(new Date(), "America/New_York");
  log("  postgres: generating the fleet's database…");
  const database = await prepareDatabase("postgres", serviceDate, FLEET);
  const server = await startBenchServer({ ...database.server, env: { OPS_API_KEY: BENCH_OPS_KEY } });
  const importer = startImporter(server.url);
  try {
    const days = await courierDays(server.url, database.dataset.emails, options.couriers);
    const warm = await courierDays(server.url, database.dataset.emails.slice(options.couriers + 50), 20);
    await runPaced(server.url, warm, { durationMs: 3000, meanThinkMs: 0 });
    const pharmacyIds = Array.from({ length: FLEET.pharmacies }, (_, i) => i + 1);
    const perRound = Math.ceil(options.orders / options.rounds);

    log(`  ${options.couriers} couriers; ${options.rounds + 1} windows of ${options.baselineMs / 1000} s alone and ${options.rounds} imports of ${perRound} orders, alternating…`);
    const clock = new PhaseClock();
    let finished = false;
    const mix = runPaced(server.url, days, {
      durationMs: 30 * 60_000,
      meanThinkMs: options.meanThinkMs,
      rampUpMs: options.rampUpMs,
      stopWhen: () => finished,
      phases: clock,
      onCall: options.onCall,
    });
    const rounds: ImportRun[] = [];
    const windows = { baselineP99: [] as number[], importP99: [] as number[] };
    try {
      await sleep(options.rampUpMs);
      // A server that has run all day: the batch's path warmed too before anything counts (the first window alone
      // measured right after the ramp-up was the slowest of a run, ~1.5× the others, a cold start, not the import).
      clock.set("-warm-up");
      await importer.run({ pharmacyIds, serviceDate, prefix: "BENCH-WARM", total: options.warmUpOrders, batchSize: options.batchSize, seed: 900_000 });
      await sleep(options.rampUpMs);
      for (let round = 0; round <= options.rounds; round++) {
        clock.set(`baseline#${round}`);
        await sleep(options.baselineMs);
        clock.set("-settle");
        await sleep(options.settleMs);
        if (round === options.rounds) break;
        clock.set(`import#${round}`);
        const first = round * perRound;
        const total = Math.min(perRound, options.orders - first);
        const { batchSpans, ...run } = await importer.run({ pharmacyIds, serviceDate, prefix: `BENCH-MIX-${round}`, total, batchSize: options.batchSize, seed: 1 + first });
        options.onBatches?.(round, batchSpans ?? []);
        rounds.push(run);
        clock.set("-settle");
        await sleep(options.settleMs);
      }
    } finally {
      finished = true;
      clock.set(null);
    }
    const mixRun = await mix;
    const phase = (name: string) => {
      const run = mixRun.phases?.[name];
      if (!run) throw new Error(`no courier call was sent in ${name}`);
      return run;
    };
    for (let round = 0; round <= options.rounds; round++) {
      windows.baselineP99.push(phase(`baseline#${round}`).p99);
      if (round < options.rounds) windows.importP99.push(phase(`import#${round}`).p99);
    }
    const baseline = mixFigures(phase("baseline"));
    const during = mixFigures(phase("import"));
    const underMix = together(rounds);
    log(`  baseline: ${baseline.perSecond} calls/s, p99 ${baseline.p99} ms; import: ${underMix.ordersPerSecond} orders/s, mix p99 ${during.p99} ms (${ratio(during.p99, baseline.p99)})`);

    log(`  import of ${options.orders} orders alone…`);
    const { batchSpans: _spans, ...alone } = await importer.run({ pharmacyIds, serviceDate, prefix: "BENCH-ALONE", total: options.orders, batchSize: options.batchSize, seed: 100_000 });
    log(`  import alone: ${alone.ordersPerSecond} orders/s`);
    const { log: _log, onCall: _onCall, onBatches: _onBatches, ...kept } = options;
    return { date: today(), machine, loadAverageEnd: describeMachine().loadAverage, options: kept, baseline, during, windows, underMix, alone };
  } finally {
    importer.stop();
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
      (o.rounds
        ? `The courier mix (${o.couriers} couriers, paced as in "API under load": a call about every ${o.meanThinkMs / 1000} s each) runs throughout, after ${o.rampUpMs / 1000} s of ramp-up${o.warmUpOrders ? `, ${o.warmUpOrders.toLocaleString("en-US")} orders imported to warm the batch's path and ${o.rampUpMs / 1000} s more` : ""}, and the import runs in ${o.rounds} rounds of ${Math.ceil(o.orders / o.rounds).toLocaleString("en-US")} orders: ${o.rounds + 1} windows of ${o.baselineMs / 1000} s of the mix alone (the baseline) alternating with the ${o.rounds} imports, ${o.settleMs / 1000} s not counted around each import. ` +
          "Each courier call counts in the window it was sent in (a call sent while an import runs counts for the import however late it ends) and each side's windows are pooled, one p99 over all their calls: alternating puts the host's own drift, larger on a shared machine than the import's effect, in both sides alike. " +
          `Last, ${o.orders.toLocaleString("en-US")} more orders imported with nothing else running.`
        : `First the courier mix alone (${o.couriers} couriers, paced as in "API under load": a call about every ${o.meanThinkMs / 1000} s each) for ${o.baselineMs / 1000} s after ${o.rampUpMs / 1000} s of ramp-up: the baseline. ` +
          `Then the same couriers again, the import starting as the measured part does, and the mix measured until the import ends (a courier pausing then finishes the pause first: up to 5 s more). Last, ${o.orders.toLocaleString("en-US")} more orders imported with nothing else running.`),
    "",
    table(["Import", "orders", "s", "orders/s", "created", "rejected", "batch ms median / worst", "transaction ms median / worst"], [importRow("while the courier mix runs", result.underMix), importRow("alone", result.alone)]),
    "",
    table(MIX_HEADER, [mixRow("alone (baseline)", result.baseline, result.baseline), mixRow("while the import runs", result.during, result.baseline)]),
    "",
    `A batch's round trip is timed by the importer; its transaction by the server (the answer's \`Server-Timing\` header). Reads are the day and the driving order; ratios are against the baseline of the same run. Calls refused for load: ${result.baseline.shed} in the baseline, ${result.during.shed} during the import.` +
      (result.underMix.rejections.length ? ` Rejected rows, first: ${result.underMix.rejections.join(" | ")}.` : ""),
    `The mix during the import ran ${round(result.during.seconds, 1)} s; a p99 over fewer calls moves more from run to run.` +
      (result.windows
        ? ` Each window's own p99, ms, in the order they ran: alone ${result.windows.baselineP99.join(", ")} (${round(result.baseline.seconds, 1)} s in all); importing ${result.windows.importP99.join(", ")}.`
        : ""),
  ];
  if (notes.length) lines.push("", ...notes);
  return lines.join("\n");
}
