/**
 * Routing benchmark (issue 7): the optimiser's quality and speed, measured
 * rather than asserted in a test (timings depend on the machine).
 *
 *   npx tsx scripts/bench/routing.ts            # full run, writes docs/
 *   ROUTING_BENCH_REFERENCE_MS=2000 npx tsx scripts/bench/routing.ts   # quick look, writes nothing
 *
 * 1. Exactness: random rounds of 5–12 stops, the production planner against
 *    Held–Karp on the same great-circle matrix.
 * 2. 150 stops: the production planner's time (every run, including the
 *    distance matrix) and its gap to the best path a multi-start run of the
 *    same local search finds in ROUTING_BENCH_REFERENCE_MS (default one
 *    minute) per instance.
 * 3. TSPLIB berlin52 and eil51: the closed-tour core against the proven optima.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { haversineMatrix, routeLength, symmetricMatrix, type DistanceMatrix, type LatLng } from "../../server/services/routing/distance.ts";
import { heldKarp } from "../../server/services/routing/held-karp.ts";
import { optimiseTour } from "../../server/services/routing/iterated-local-search.ts";
import { optimisePath } from "../../server/services/routing/open-path.ts";
import { planDrivingOrder } from "../../server/services/routing/plan-route.ts";
import { randomInt, seededRandom, type Random } from "../../server/services/routing/prng.ts";
import { describeMachine, machineLine, median, round } from "./lib/machine.ts";
import { recordResult, ROOT, writeSection } from "./lib/report.ts";
import { berlin52, berlin52OptimalTour, eil51, euc2d, type TsplibInstance } from "./routing-tsplib.ts";

const REFERENCE_MS = Number(process.env.ROUTING_BENCH_REFERENCE_MS ?? 60_000);
const LARGE_INSTANCES = Number(process.env.ROUTING_BENCH_LARGE_INSTANCES ?? 5);
const SMALL_PER_SIZE = 25;
const TIMED_RUNS = 5;
const FULL_RUN = REFERENCE_MS >= 60_000;

/** A city-sized box (about 22 × 17 km around Philadelphia): a plausible delivery area. */
function randomPoint(random: Random): LatLng {
  return { latitude: 39.87 + random() * 0.2, longitude: -75.28 + random() * 0.2 };
}


/** The production call: pharmacy first, stops as given; its path length on the same matrix. */
function plan(points: LatLng[], options: { timeLimitMs?: number } = {}): { order: number[]; length: number; ms: number; cpuMs: number } {
  const [pharmacy, ...stops] = points;
  const cpu = process.cpuUsage();
  const started = performance.now();
  const ids = planDrivingOrder(pharmacy!, stops.map((p, i) => ({ id: i + 1, ...p })), options);
  const ms = performance.now() - started;
  const used = process.cpuUsage(cpu);
  const order = [0, ...ids];
  return { order, length: routeLength(haversineMatrix(points), order, false), ms, cpuMs: (used.user + used.system) / 1000 };
}

function checkPath(order: number[], size: number): void {
  if (order[0] !== 0 || order.length !== size || new Set(order).size !== size) throw new Error(`Not a path from the pharmacy: ${order.join(",")}`);
}

function exactness() {
  const random = seededRandom(20261121);
  const rows: { stops: number; instances: number; matched: number; worstGapPct: number }[] = [];
  for (let stops = 5; stops <= 12; stops++) {
    let matched = 0;
    let worst = 0;
    for (let i = 0; i < SMALL_PER_SIZE; i++) {
      const points = Array.from({ length: stops + 1 }, () => randomPoint(random));
      // The search itself, with its production defaults: the server answers
      // rounds of up to 11 stops with Held–Karp, so plan() would prove nothing here.
      const matrix = haversineMatrix(points);
      const { order, length } = optimisePath(matrix);
      checkPath(order, stops + 1);
      const optimum = heldKarp(matrix, { closed: false }).length;
      const gap = length / optimum - 1;
      if (gap <= 1e-9) matched++;
      worst = Math.max(worst, gap);
    }
    rows.push({ stops, instances: SMALL_PER_SIZE, matched, worstGapPct: round(worst * 100, 4) });
    console.log(`  ${stops} stops: ${matched}/${SMALL_PER_SIZE} optimal, worst gap ${(worst * 100).toFixed(4)}%`);
  }
  const instances = rows.reduce((sum, row) => sum + row.instances, 0);
  const matched = rows.reduce((sum, row) => sum + row.matched, 0);
  return { instances, matched, worstGapPct: Math.max(...rows.map((row) => row.worstGapPct)), bySize: rows };
}

function shuffled(size: number, random: Random): number[] {
  const order = Array.from({ length: size }, (_, i) => i);
  for (let i = size - 1; i > 1; i--) {
    const j = 1 + randomInt(random, i); // node 0, the pharmacy, stays first
    [order[i], order[j]] = [order[j]!, order[i]!];
  }
  return order;
}

/** The yardstick: the same local search restarted from random paths with long runs, best kept, for `budgetMs`. */
function multiStart(matrix: DistanceMatrix, budgetMs: number, seed: number): { length: number; runs: number } {
  const random = seededRandom(seed);
  const started = performance.now();
  let best = Infinity;
  let runs = 0;
  do {
    const result = optimisePath(matrix, {
      seed: seed + runs,
      initialOrder: shuffled(matrix.size, random),
      iterations: 50 * matrix.size,
      timeLimitMs: Infinity,
    });
    best = Math.min(best, result.length);
    runs++;
  } while (performance.now() - started < budgetMs);
  return { length: best, runs };
}

function large() {
  const rows: {
    seed: number;
    lengthM: number;
    referenceM: number;
    gapPct: number;
    worstTimedRunGapPct: number;
    referenceRuns: number;
    msMedian: number;
    msWorst: number;
    cpuMsMedian: number;
    cpuMsWorst: number;
    timedOutRuns: number;
  }[] = [];
  const times: number[] = [];
  const cpuTimes: number[] = [];
  for (let k = 0; k < LARGE_INSTANCES; k++) {
    const seed = 1000 + k;
    const random = seededRandom(seed);
    const points = Array.from({ length: 151 }, () => randomPoint(random));
    plan(points); // warm the JIT so the timings are of the steady state
    const runs = Array.from({ length: TIMED_RUNS }, () => plan(points));
    for (const run of runs) checkPath(run.order, 151);
    // The optimiser's answer is deterministic; only its time guard, on an
    // overloaded machine, can cut a run short and change it.
    const mine = plan(points, { timeLimitMs: Infinity });
    const timedOutRuns = runs.filter((run) => run.order.join() !== mine.order.join()).length;
    const ms = runs.map((run) => run.ms);
    const cpuMs = runs.map((run) => run.cpuMs);
    times.push(...ms);
    cpuTimes.push(...cpuMs);
    const reference = multiStart(haversineMatrix(points), REFERENCE_MS, seed);
    const gap = mine.length / reference.length - 1;
    const worstTimedGap = Math.max(...runs.map((run) => run.length / reference.length - 1));
    rows.push({
      seed,
      lengthM: round(mine.length, 1),
      referenceM: round(reference.length, 1),
      gapPct: round(gap * 100, 3),
      worstTimedRunGapPct: round(worstTimedGap * 100, 3),
      referenceRuns: reference.runs,
      msMedian: round(median(ms), 1),
      msWorst: round(Math.max(...ms), 1),
      cpuMsMedian: round(median(cpuMs), 1),
      cpuMsWorst: round(Math.max(...cpuMs), 1),
      timedOutRuns,
    });
    console.log(
      `  seed ${seed}: ${(mine.length / 1000).toFixed(2)} km vs ${(reference.length / 1000).toFixed(2)} km (${reference.runs} runs)` +
        ` gap ${(gap * 100).toFixed(3)}%, wall ${median(ms).toFixed(1)}/${Math.max(...ms).toFixed(1)} ms, CPU ${median(cpuMs).toFixed(1)}/${Math.max(...cpuMs).toFixed(1)} ms (median/worst)` +
        (timedOutRuns ? `, ${timedOutRuns} run(s) changed by the time guard (worst gap ${(worstTimedGap * 100).toFixed(3)}%)` : ""),
    );
  }
  return {
    stops: 150,
    instances: LARGE_INSTANCES,
    referenceBudgetMs: REFERENCE_MS,
    worstGapPct: Math.max(...rows.map((row) => row.gapPct)),
    worstTimedRunGapPct: Math.max(...rows.map((row) => row.worstTimedRunGapPct)),
    msMedian: round(median(times), 1),
    msWorst: round(Math.max(...times), 1),
    cpuMsMedian: round(median(cpuTimes), 1),
    cpuMsWorst: round(Math.max(...cpuTimes), 1),
    byInstance: rows,
  };
}

function tsplib(instance: TsplibInstance) {
  const matrix = symmetricMatrix(instance.coordinates.length, (i, j) => euc2d(instance.coordinates[i]!, instance.coordinates[j]!));
  const started = performance.now();
  const result = optimiseTour(matrix);
  const ms = performance.now() - started;
  if (new Set(result.tour).size !== matrix.size) throw new Error(`${instance.name}: not a tour`);
  const gap = result.length / instance.optimum - 1;
  console.log(`  ${instance.name}: ${result.length} vs optimum ${instance.optimum}, gap ${(gap * 100).toFixed(3)}%, ${ms.toFixed(1)} ms`);
  return { name: instance.name, nodes: matrix.size, optimum: instance.optimum, length: result.length, gapPct: round(gap * 100, 3), ms: round(ms, 1) };
}

function checkTsplibData(): void {
  const coordinates = berlin52.coordinates;
  const tour = berlin52OptimalTour.map((node) => node - 1);
  const matrix = symmetricMatrix(coordinates.length, (i, j) => euc2d(coordinates[i]!, coordinates[j]!));
  const length = routeLength(matrix, tour, true);
  if (length !== berlin52.optimum || eil51.coordinates.length !== 51) throw new Error("The embedded TSPLIB data is damaged.");
}

function markdown(report: ReturnType<typeof buildReport>): string {
  const { machine, exact, large: big, tsplib: standard } = report;
  const lines = [
    `Run ${report.date} with \`npm run bench:routing\` (scripts/bench/routing.ts) on ${machineLine(machine)} (the optimiser uses one core);` +
      ` 1-minute load average ${machine.loadAverage} at the start and ${report.loadAverageAtEnd} at the end.`,
    "The optimiser: farthest insertion, 2-opt + Or-opt with neighbour lists, then iterated local search with double-bridge kicks, seeded (server/services/routing/); rounds of up to 11 stops are answered exactly by Held–Karp.",
    "Rounds are open paths from the pharmacy on great-circle distances; random stops are uniform in a 22 × 17 km box.",
    "",
    "| Check | Budget | Result |",
    "|---|---|---|",
    `| The search on random rounds of 5–12 stops vs Held–Karp (the server itself answers up to 11 stops with Held–Karp) | exact | ${exact.matched}/${exact.instances} optimal, worst gap ${exact.worstGapPct}% |`,
    `| 150 stops, gap to ${big.referenceBudgetMs / 1000} s multi-start of the same search (${big.instances} instances) | ≤ 1% | worst ${big.worstGapPct}%${big.worstTimedRunGapPct > big.worstGapPct ? ` (a run the time guard cut short: ${big.worstTimedRunGapPct}%)` : ""} |`,
    `| 150 stops, CPU time per route incl. distance matrix (${big.instances} × ${TIMED_RUNS} runs, one core) | < 200 ms | median ${big.cpuMsMedian} ms, worst ${big.cpuMsWorst} ms |`,
    `| 150 stops, wall time per route on the shared machine (load above) | < 200 ms | median ${big.msMedian} ms, worst ${big.msWorst} ms |`,
    ...standard.map((t) => `| TSPLIB ${t.name} (closed tour, ${t.nodes} nodes), gap to optimum ${t.optimum} | — | ${t.length} (${t.gapPct}%), ${t.ms} ms |`),
    "",
    "| 150-stop instance | Route (m) | Multi-start best (m) | Restarts | Gap | CPU ms median / worst | Wall ms median / worst | Runs whose answer the time guard changed (their worst gap) |",
    "|---|---|---|---|---|---|---|---|",
    ...big.byInstance.map(
      (r) =>
        `| seed ${r.seed} | ${r.lengthM} | ${r.referenceM} | ${r.referenceRuns} | ${r.gapPct}% | ${r.cpuMsMedian} / ${r.cpuMsWorst} | ${r.msMedian} / ${r.msWorst} | ${r.timedOutRuns} of ${TIMED_RUNS}${r.timedOutRuns ? ` (${r.worstTimedRunGapPct}%)` : ""} |`,
    ),
    "",
    "Tuning notes, before → after (measured while writing the optimiser on 8–32 random 150-stop rounds against 6–15 s multi-start runs; CPU times, since the machine was shared):",
    "- The kick-and-repair loop copied arrays with TypedArray.set and built a closure per move; profiling put a third of the time there. Plain loops: about 17 → 7 µs per round.",
    "- \"Keep the kick if not longer\" alone stalled on about one round in eight, 0.5–0.9% above the multi-start best however long it ran. A forced step out of the valley after 10·n rounds without a new best: worst gap on the tuning set 0.83% → 0.01%.",
    "- Or-opt moves rebuilt the whole tour and every round re-measured it (O(n) each). Or-opt as two or three 2-opt exchanges, the kick as three reversals, the length kept move by move (a kept tour is still measured exactly): 80 → 57 ms CPU per 150-stop route, quality unchanged within noise (32 rounds: mean gap 0.08% → 0.10%, worst 0.61% → 0.73%).",
    "- Every search ran at least 3000 rounds: 4–10 ms of CPU for a 4-stop round, a third of the API's CPU in the load benchmark. Now 64·n rounds (floor 500), and rounds of up to 11 stops go to Held–Karp (about a millisecond); the search still matched Held–Karp on 440 random rounds of 5–15 stops at 64·n.",
    "- The 150 ms time guard started when the search did, after the distance matrix: at a load average of 15 on 2 cores the worst wall time was 200.9 ms (CPU 62.7 ms). It now counts the whole call.",
    "",
    "The JSON copy is docs/benchmarks/routing.json (and the \"routing\" entry of docs/benchmarks/latest.json).",
    "",
  ];
  return lines.join("\n");
}

function buildReport(
  machine: ReturnType<typeof describeMachine>,
  exact: ReturnType<typeof exactness>,
  big: ReturnType<typeof large>,
  standard: ReturnType<typeof tsplib>[],
) {
  return {
    date: new Date().toISOString().slice(0, 10),
    // The machine may be shared: the load says how much of a core the wall-clock timings really had.
    machine,
    loadAverageAtEnd: round(os.loadavg()[0] ?? 0, 2),
    budgets: {
      exactUpTo12Stops: exact.matched === exact.instances,
      within1PctOn150: big.worstGapPct <= 1,
      under200MsCpuOn150: big.cpuMsWorst < 200,
      under200MsWallOn150: big.msWorst < 200,
    },
    exact,
    large: big,
    tsplib: standard,
  };
}
export type RoutingReport = ReturnType<typeof buildReport>;

function writeDocs(report: RoutingReport): void {
  const jsonPath = path.join(ROOT, "docs/benchmarks/routing.json");
  mkdirSync(path.dirname(jsonPath), { recursive: true });
  writeFileSync(jsonPath, `${JSON.stringify(report, null, 2)}\n`);
  recordResult("routing", report);
  writeSection("Routing", markdown(report));
}

/** Runs every check, prints as it goes, and (on a full run) writes docs/. */
export function runRoutingBenchmark(): RoutingReport {
  checkTsplibData();
  const machine = describeMachine();
  console.log(`Routing benchmark — ${machineLine(machine)}, load ${machine.loadAverage}`);
  console.log("Exactness (5–12 stops vs Held–Karp):");
  const exact = exactness();
  console.log(`150 stops (reference: ${REFERENCE_MS / 1000} s multi-start per instance):`);
  const big = large();
  console.log("TSPLIB:");
  const standard = [tsplib(berlin52), tsplib(eil51)];
  const report = buildReport(machine, exact, big, standard);

  const { budgets } = report;
  console.log(
    [
      `exact on ≤12: ${budgets.exactUpTo12Stops ? "met" : "MISSED"}`,
      `within 1% on 150: ${budgets.within1PctOn150 ? "met" : "MISSED"}`,
      `< 200 ms CPU on 150: ${budgets.under200MsCpuOn150 ? "met" : "MISSED"}`,
      `< 200 ms wall on 150: ${budgets.under200MsWallOn150 ? "met" : `missed on this machine (load ${report.loadAverageAtEnd})`}`,
    ].join("; "),
  );
  if (FULL_RUN) {
    writeDocs(report);
    console.log("Wrote docs/benchmarks.md (## Routing), docs/benchmarks/routing.json and docs/benchmarks/latest.json.");
  } else {
    console.log("Quick run (reference budget under a minute): docs not written.");
  }
  return report;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) runRoutingBenchmark();
