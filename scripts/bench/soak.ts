import { calendarDate } from "../../domain/dates.ts";
import { describeMachine, machineLine, round, today, type MachineDescription } from "./lib/machine.ts";
import { table, verdict } from "./lib/report.ts";
import { startBenchServer, type MemorySample } from "./lib/server.ts";
import { FLEET } from "./load/dataset.ts";
import { prepareDatabase } from "./load/databases.ts";
import { FULL_LOAD } from "./load/index.ts";
import { courierDays, runPaced, type RunResult } from "./load/run.ts";

/**
 * The soak (issue 10 "load held"): 60 s of the courier-day mix at 200
 * concurrent couriers on PostgreSQL, as the load benchmark's paced run,
 * with zero errors; the server's memory sampled every second from inside
 * (scripts/bench/lib/memory-probe.ts) and, after a full collection, before
 * and after the load: what the process keeps must not grow past the bounds.
 */

/** What the server may keep after a minute of load beyond what it kept before (after a full collection each time). */
export const RETAINED_HEAP_BOUND_MIB = 16;
/** Resident memory may grow this much (allocator pools, JIT code, pg buffers settle in the first minute). */
export const RSS_BOUND_MIB = 96;

const MIB = 1024 * 1024;
const mib = (bytes: number) => round(bytes / MIB, 1);

export interface SoakResult {
  date: string;
  machine: MachineDescription;
  loadAverageEnd: number;
  seconds: number;
  couriers: number;
  run: RunResult;
  before: MemorySample;
  after: MemorySample;
  /** One sample every 5 s during the load (MiB). */
  timeline: { second: number; rssMiB: number; heapUsedMiB: number }[];
  peakRssMiB: number;
  retainedGrowthMiB: number;
  rssGrowthMiB: number;
  met: boolean;
}

export async function runSoak(options: { seconds: number; log?: (line: string) => void }): Promise<SoakResult> {
  const log = options.log ?? console.log;
  const machine = describeMachine();
  const database = await prepareDatabase("postgres", calendarDate(new Date(), "America/New_York"), FLEET);
  const server = await startBenchServer({ ...database.server, probe: true, nodeArgs: ["--expose-gc"] });
  try {
    const days = await courierDays(server.url, database.dataset.emails, FULL_LOAD.couriers);
    // Warm up with other couriers, then the baseline: what the process keeps once it has served the mix.
    const warm = await courierDays(server.url, database.dataset.emails.slice(FULL_LOAD.couriers), 20);
    await runPaced(server.url, warm, { durationMs: 5000, meanThinkMs: 0 });
    const before = await server.collectedMemory();
    log(`  ${FULL_LOAD.couriers} couriers for ${options.seconds} s (heap kept ${mib(before.heapUsed)} MiB, RSS ${mib(before.rss)} MiB)…`);
    const started = Date.now();
    // Every error of the ramp-up counts too (runPaced adds them); its latencies are reported apart.
    const run = await runPaced(server.url, days, { durationMs: options.seconds * 1000, meanThinkMs: FULL_LOAD.meanThinkMs, rampUpMs: FULL_LOAD.rampUpMs });
    const during = server.memory.filter((sample) => sample.kind === "tick" && sample.at >= started);
    // Idle sessions and pools settle; then what is kept.
    await new Promise((resolve) => setTimeout(resolve, 2000));
    const after = await server.collectedMemory();
    const timeline = during
      .filter((_, i) => i % 5 === 4)
      .map((sample) => ({ second: Math.round((sample.at - started) / 1000), rssMiB: mib(sample.rss), heapUsedMiB: mib(sample.heapUsed) }));
    const retainedGrowthMiB = mib(after.heapUsed - before.heapUsed);
    const rssGrowthMiB = mib(after.rss - before.rss);
    log(`  ${run.perSecond} calls/s, ${run.errors} errors; heap kept ${retainedGrowthMiB >= 0 ? "+" : ""}${retainedGrowthMiB} MiB, RSS ${rssGrowthMiB >= 0 ? "+" : ""}${rssGrowthMiB} MiB`);
    return {
      date: today(),
      machine,
      loadAverageEnd: describeMachine().loadAverage,
      seconds: options.seconds,
      couriers: days.length,
      run,
      before,
      after,
      timeline,
      peakRssMiB: mib(Math.max(...during.map((sample) => sample.rss))),
      retainedGrowthMiB,
      rssGrowthMiB,
      met: run.errors === 0 && retainedGrowthMiB <= RETAINED_HEAP_BOUND_MIB && rssGrowthMiB <= RSS_BOUND_MIB,
    };
  } finally {
    await server.stop();
    await database.drop();
  }
}

export function soakMarkdown(result: SoakResult): string {
  const run = result.run;
  return [
    `Run ${result.date} with \`npm run bench -- --soak\` on ${machineLine(result.machine)}; 1-minute load average ${result.machine.loadAverage} at the start, ${result.loadAverageEnd} at the end.`,
    `${result.seconds} s of the courier-day mix at ${result.couriers} concurrent couriers on PostgreSQL (the fleet's database and the paced run of "API under load": each courier on its own session and connection, a call about every ${FULL_LOAD.meanThinkMs / 1000} s), after a ${FULL_LOAD.rampUpMs / 1000} s ramp-up whose errors count too. ` +
      "The server ran with `--expose-gc` and a probe (scripts/bench/lib/memory-probe.ts) sending `process.memoryUsage()` every second; the heap it keeps is read right after a full collection, once warmed up before the load and again 2 s after it.",
    "",
    `Bounds: zero errors; heap kept after the load at most ${RETAINED_HEAP_BOUND_MIB} MiB above before it; resident memory at most ${RSS_BOUND_MIB} MiB above. **${result.met ? "Held" : "Not held"}.**`,
    "",
    table(
      ["Measure", "Result", "Bound"],
      [
        ["Calls", `${run.requests} (${run.perSecond}/s), p50 ${run.p50} ms, p99 ${run.p99} ms`, "—"],
        ["Errors", String(run.errors) + (run.errors ? ` ${JSON.stringify(run.errorKinds)}` : ""), verdict(run.errors === 0)],
        ["Heap kept (after a full GC)", `${mib(result.before.heapUsed)} → ${mib(result.after.heapUsed)} MiB (${result.retainedGrowthMiB >= 0 ? "+" : ""}${result.retainedGrowthMiB})`, `≤ +${RETAINED_HEAP_BOUND_MIB} MiB: ${verdict(result.retainedGrowthMiB <= RETAINED_HEAP_BOUND_MIB)}`],
        ["Resident memory", `${mib(result.before.rss)} → ${mib(result.after.rss)} MiB (${result.rssGrowthMiB >= 0 ? "+" : ""}${result.rssGrowthMiB}); peak ${result.peakRssMiB} MiB`, `≤ +${RSS_BOUND_MIB} MiB: ${verdict(result.rssGrowthMiB <= RSS_BOUND_MIB)}`],
      ],
    ),
    "",
    `During the load (every 5 s): ${result.timeline.map((point) => `${point.second} s ${point.rssMiB}/${point.heapUsedMiB}`).join(" · ")} (RSS/heap used, MiB).`,
  ].join("\n");
}
