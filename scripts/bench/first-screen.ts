import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import lighthouse from "lighthouse";
import { chromium } from "playwright-core";
import type { ItineraryResponse } from "../../domain/contract/itinerary.ts";
import { apiCall, logIn } from "./lib/api.ts";
import { INITIAL_JS_BUDGET_KIB, kib, measureInitialBundle } from "./lib/bundle.ts";
import { describeMachine, machineLine, median, today, type MachineDescription } from "./lib/machine.ts";
import { productionBuild } from "./lib/build.ts";
import { table, verdict } from "./lib/report.ts";
import { freePort, startBenchServer } from "./lib/server.ts";

/**
 * First screen (issue 9): Lighthouse 12 with its default mobile settings
 * (Moto G Power form factor, simulated slow 4G and 4× CPU) against the
 * production build served by the real server, for the login screen,
 * /pharmacies, the check-in screen and a delivery step, logged in as the
 * demo courier; plus the first screen's JavaScript from dist/.
 */

export const CHROMIUM = process.env.CHROMIUM_PATH || "/usr/bin/chromium";
export const CHROMIUM_ARGS = [
  "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
  "--disable-background-networking", "--disable-component-update", "--disable-sync",
];

const PERFORMANCE_BUDGET = 0.95;
const ACCESSIBILITY_BUDGET = 1;

export interface AuditMiss {
  id: string;
  title: string;
  score: number | null;
  displayValue?: string;
}

export interface PageResult {
  name: string;
  path: string;
  performance: number[];
  accessibility: number[];
  /** Medians over the runs. */
  performanceMedian: number;
  accessibilityMedian: number;
  metrics: Record<string, number>;
  /** Lighthouse's measure of the machine's speed during the runs (below ~1000 its simulation is unreliable). */
  benchmarkIndex: number[];
  /** Audits below full marks in the median run (weighted ones of both categories). */
  failingAudits: { performance: AuditMiss[]; accessibility: AuditMiss[] };
  met: boolean;
}

export interface FirstScreenResult {
  date: string;
  machine: MachineDescription;
  loadAverageEnd: number;
  lighthouse: string;
  runsPerPage: number;
  pages: PageResult[];
  initialJs: { gzipKiB: number; rawKiB: number; cssGzipKiB: number; budgetKiB: number; chunks: { file: string; gzipKiB: number; packages: string[] }[]; onDemandInInitial: { library: string; file: string }[]; met: boolean };
}

interface DemoTargets {
  riversideId: number;
  greenwayId: number;
  greenwayOrderId: number;
}

/** The demo courier's pending visit confirmed (screens are not redirected), and the ids the paths need. */
async function prepareDemoCourier(url: string): Promise<{ cookie: string; targets: DemoTargets }> {
  const courier = await logIn(url, "courier@example.com");
  const day = await apiCall<ItineraryResponse>(url, courier, "GET", "/api/courier/itinerary");
  const pending = day.pharmacy_visits.filter((visit) => visit.confirmed === null);
  if (pending.length) {
    await apiCall(url, courier, "POST", `/api/couriers/${courier.id}/pharmacy_visits/confirm`, {
      pharmacy_visits: pending.map((visit) => ({ id: visit.id, confirmed: true })),
    });
  }
  const pharmacy = (name: string) => day.pharmacy_visits.find((visit) => visit.pharmacy.name.startsWith(name))!.pharmacy;
  const riverside = pharmacy("Riverside");
  const greenway = pharmacy("Greenway");
  const order = day.orders.find((o) => o.pharmacy.id === greenway.id && o.status.name === "picked_up");
  if (!order) throw new Error("The demo day has no picked-up Greenway order");
  return { cookie: courier.cookie, targets: { riversideId: riverside.id, greenwayId: greenway.id, greenwayOrderId: order.id } };
}

const WEIGHTLESS = new Set(["notApplicable", "manual", "informative"]);

type Lhr = NonNullable<Awaited<ReturnType<typeof lighthouse>>>["lhr"];

function misses(lhr: Lhr, category: "performance" | "accessibility"): AuditMiss[] {
  return lhr.categories[category]!.auditRefs
    .filter((ref) => ref.weight > 0)
    .map((ref) => lhr.audits[ref.id]!)
    .filter((audit) => !WEIGHTLESS.has(audit.scoreDisplayMode) && audit.score !== null && audit.score < 1)
    .map((audit) => ({ id: audit.id, title: audit.title, score: audit.score, ...(audit.displayValue ? { displayValue: audit.displayValue } : {}) }));
}

const METRICS = ["first-contentful-paint", "largest-contentful-paint", "total-blocking-time", "cumulative-layout-shift", "speed-index", "interactive"] as const;

export async function runFirstScreen(options: {
  runs: number;
  log?: (line: string) => void;
  /** Keep every run's whole Lighthouse report here (for the long tasks, the LCP breakdown, the request chains). */
  reportsDir?: string;
}): Promise<FirstScreenResult> {
  const log = options.log ?? console.log;
  const machine = describeMachine();
  const webRoot = productionBuild(log);
  const bundle = measureInitialBundle(webRoot);

  const dataDir = mkdtempSync(path.join(tmpdir(), "rxc-bench-lh-"));
  const server = await startBenchServer({ dataDir, env: { WEB_ROOT: webRoot } });
  const port = await freePort();
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: [...CHROMIUM_ARGS, `--remote-debugging-port=${port}`] });
  const pages: PageResult[] = [];
  let version = "";
  try {
    const { cookie, targets } = await prepareDemoCourier(server.url);
    const screens = [
      { name: "Login", path: "/login", cookie: null },
      { name: "Pharmacies", path: "/pharmacies", cookie },
      { name: "Check-in (Riverside)", path: `/pharmacies/${targets.riversideId}/verify_orders`, cookie },
      { name: "Delivery step: address (Greenway)", path: `/pharmacies/${targets.greenwayId}/deliver_orders/${targets.greenwayOrderId}/address`, cookie },
    ];
    for (const screen of screens) {
      const runs: Lhr[] = [];
      for (let run = 0; run < options.runs; run++) {
        let result: Awaited<ReturnType<typeof lighthouse>>;
        // Lighthouse now and then fails to record a trace (NO_NAVSTART, NO_FCP on a busy machine): such a run is made again, twice at most.
        for (let attempt = 1; ; attempt++) {
          result = await lighthouse(`${server.url}${screen.path}`, {
            port,
            output: "json",
            logLevel: "error",
            onlyCategories: ["performance", "accessibility"],
            // The session cookie on every request of the run (the document, the API calls, the chunks).
            extraHeaders: screen.cookie ? { Cookie: screen.cookie } : null,
          });
          if (!result) throw new Error(`Lighthouse returned nothing for ${screen.path}`);
          if (!result.lhr.runtimeError) break;
          if (attempt === 3) throw new Error(`Lighthouse on ${screen.path}: ${result.lhr.runtimeError.message}`);
          log(`  ${screen.name}: ${result.lhr.runtimeError.code}, running again`);
        }
        const landed = new URL(result.lhr.finalDisplayedUrl).pathname;
        if (landed !== screen.path) throw new Error(`${screen.path} ended on ${landed}: the screen redirected`);
        version = result.lhr.lighthouseVersion;
        runs.push(result.lhr);
        if (options.reportsDir) {
          mkdirSync(options.reportsDir, { recursive: true });
          const file = path.join(options.reportsDir, `${screen.name.replace(/\W+/g, "-").toLowerCase()}-${run + 1}.json`);
          writeFileSync(file, JSON.stringify(result.lhr));
        }
        log(`  ${screen.name}: performance ${result.lhr.categories.performance!.score}, accessibility ${result.lhr.categories.accessibility!.score}`);
      }
      const performance = runs.map((lhr) => lhr.categories.performance!.score ?? 0);
      const accessibility = runs.map((lhr) => lhr.categories.accessibility!.score ?? 0);
      const performanceMedian = median(performance);
      // The run whose score is the median tells which audits cost the points.
      const typical = runs[performance.indexOf(performanceMedian)] ?? runs[0]!;
      const metrics = Object.fromEntries(METRICS.map((id) => [id, Math.round((typical.audits[id]?.numericValue ?? NaN) * 1000) / 1000]));
      const accessibilityMedian = median(accessibility);
      pages.push({
        name: screen.name,
        path: screen.path,
        performance,
        accessibility,
        performanceMedian,
        accessibilityMedian,
        metrics,
        benchmarkIndex: runs.map((lhr) => Math.round(lhr.environment.benchmarkIndex)),
        failingAudits: { performance: misses(typical, "performance"), accessibility: misses(typical, "accessibility") },
        met: performanceMedian >= PERFORMANCE_BUDGET && accessibilityMedian >= ACCESSIBILITY_BUDGET,
      });
    }
  } finally {
    await browser.close();
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
  return {
    date: today(),
    machine,
    loadAverageEnd: describeMachine().loadAverage,
    lighthouse: version,
    runsPerPage: options.runs,
    pages,
    initialJs: {
      gzipKiB: kib(bundle.jsGzipBytes),
      rawKiB: kib(bundle.jsBytes),
      cssGzipKiB: kib(bundle.cssGzipBytes),
      budgetKiB: INITIAL_JS_BUDGET_KIB,
      chunks: bundle.chunks.map((chunk) => ({ file: chunk.file, gzipKiB: kib(chunk.gzipBytes), packages: chunk.packages })),
      onDemandInInitial: bundle.onDemandInInitial,
      met: kib(bundle.jsGzipBytes) <= INITIAL_JS_BUDGET_KIB && bundle.onDemandInInitial.length === 0,
    },
  };
}

const ms = (value: number | undefined) => (value === undefined || Number.isNaN(value) ? "—" : `${Math.round(value)} ms`);

export function firstScreenMarkdown(result: FirstScreenResult, notes: readonly string[] = []): string {
  const rows = result.pages.map((page) => [
    `${page.name} \`${page.path.replace(/\d+/g, ":id")}\``,
    `${page.performanceMedian.toFixed(2)} (${page.performance.map((s) => s.toFixed(2)).join(", ")})`,
    `${page.accessibilityMedian.toFixed(2)}`,
    ms(page.metrics["first-contentful-paint"]),
    ms(page.metrics["largest-contentful-paint"]),
    ms(page.metrics["total-blocking-time"]),
    String(page.metrics["cumulative-layout-shift"] ?? "—"),
    verdict(page.met),
  ]);
  const failing = result.pages.flatMap((page) =>
    [...page.failingAudits.performance, ...page.failingAudits.accessibility].map(
      (audit) => `- ${page.name}: ${audit.title} (\`${audit.id}\`, score ${audit.score}${audit.displayValue ? `, ${audit.displayValue}` : ""})`,
    ),
  );
  const js = result.initialJs;
  return [
    `Run ${result.date} on ${machineLine(result.machine)}; 1-minute load average ${result.machine.loadAverage} at the start, ${result.loadAverageEnd} at the end.`,
    `Lighthouse ${result.lighthouse}, default mobile settings (simulated slow 4G, 4× CPU slowdown), Debian Chromium headless, against \`npm run build\` served by the real server (server/main.ts, embedded database with the demo day).`,
    `Logged in as the demo courier with the pending visit confirmed; the session cookie is sent as an extra header. ${result.runsPerPage} run(s) per screen, the median counts. ` +
      `Lighthouse's benchmark index of the machine during the runs: ${Math.min(...result.pages.flatMap((p) => p.benchmarkIndex))}–${Math.max(...result.pages.flatMap((p) => p.benchmarkIndex))} (its simulation scales the main-thread time it observes, so a busy machine lowers the scores).`,
    "",
    "Budgets: performance ≥ 0.95 and accessibility = 1.00 on each screen.",
    "",
    table(["Screen", "Performance (runs)", "Accessibility", "FCP", "LCP", "TBT", "CLS", "Budget"], rows),
    "",
    failing.length ? "Audits below full marks (median run):" : "No weighted audit below full marks.",
    ...failing,
    "",
    `Initial JavaScript (login and /pharmacies load the same entry): **${js.gzipKiB} KiB gzip** (${js.rawKiB} KiB raw, level-9 gzip, 1 KiB = 1024 bytes) against ${js.budgetKiB} KiB — ${verdict(js.met)}; ${js.cssGzipKiB > 0 ? `CSS ${js.cssGzipKiB} KiB gzip` : "the stylesheet is inside index.html"}.`,
    `braintree-web, signature_pad, imask in the initial chunks: ${js.onDemandInInitial.length ? js.onDemandInInitial.map((hit) => `${hit.library} in ${hit.file}`).join(", ") : "none"} (tests/unit/bundle-budget.test.ts fails \`npm test\` otherwise).`,
    "",
    table(
      ["Initial chunk", "gzip KiB", "Packages (source map)"],
      js.chunks.map((chunk) => [chunk.file.replace(/-[\w-]{8}\.js$/, ".js"), chunk.gzipKiB, chunk.packages.join(", ") || "app code"]),
    ),
    ...(notes.length ? ["", "### Findings and fixes", "", ...notes] : []),
  ].join("\n");
}
