import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import lighthouse from "lighthouse";
import { throttling as LIGHTHOUSE_THROTTLING } from "lighthouse/core/config/constants.js";
import type { ItineraryResponse } from "../../domain/contract/itinerary.ts";
import { apiCall, logIn } from "./lib/api.ts";
import { barePageJsGzipBytes, buildBarePage, serveBarePage } from "./lib/bare-page.ts";
import { INITIAL_JS_BUDGET_KIB, kib, measureInitialBundle } from "./lib/bundle.ts";
import { describeMachine, machineLine, median, round, today, type MachineDescription } from "./lib/machine.ts";
import { productionBuild } from "./lib/build.ts";
import { browserOf, ensureBenchBrowser, launchBenchBrowser, type MeasuredIn } from "./lib/browser.ts";
import { makeBenchCertificate, startTlsBalancer, type TlsBalancer } from "./lib/tls-balancer.ts";
import { hostStallsText, probeHostStalls, stealMs, type HostStallsRecord } from "./lib/host-stalls.ts";
import { saveLanternTimings } from "./lib/lantern-timings.ts";
import { browserPid, untilQuiet } from "./lib/browser-quiet.ts";
import { BROWSER_GROUP_TEXT, putBrowserGroupFirst, type BrowserGroupStanding } from "./lib/browser-autogroup.ts";
import { keepRendererMainThreadsFirst, rendererMainThreadText, type RendererMainThreadStanding, type RendererWatch } from "./lib/renderer-main-thread.ts";
import { table, verdict } from "./lib/report.ts";
import { freePort, startBenchServer } from "./lib/server.ts";
import { pageAssets, QUIET_TIMING_ROUNDS, quietServerResponseMs, type TimedRequest } from "./lib/server-response.ts";
import { API_MEDIA_TYPE } from "../../domain/api-version.ts";

/**
 * First screen (issues 9 and 29): Lighthouse 12's mobile settings (simulated
 * slow 4G) with the CPU slowdown calibrated to this machine, so that the
 * emulated phone is the same whatever the guest: multiplier = the host's
 * benchmark index ÷ 264 for a low-tier phone (Moto G4 Power 2022, the
 * calibration score Chrome DevTools uses) and ÷ 1,000 for a mid-tier one
 * (Pixel 5). The index comes from calibration Lighthouse runs of the bare
 * page (lhr.environment.benchmarkIndex, the median of them), unless given.
 *
 * Every screen is measured in the same run as a bare reference page
 * (scripts/bench/bare-page/: React, React Router and XState from the
 * project's node_modules doing the least a login screen does), and the
 * budgets are held against it: absolute scores move with the host's load,
 * the ratio much less. Runs are interleaved (run 1 of every screen at both
 * settings, then run 2, …) so that a busy minute falls on all of them.
 */

/** Chrome DevTools' calibration scores: the benchmark index of each phone. */
export const PHONES = {
  low: { name: "low-tier phone (Moto G4 Power 2022)", benchmarkIndex: 264 },
  mid: { name: "mid-tier phone (Pixel 5)", benchmarkIndex: 1000 },
} as const;
export type Tier = keyof typeof PHONES;

/** The CPU slowdown that makes this host the phone: never below 1. */
export const cpuSlowdownFor = (hostIndex: number, tier: Tier): number => Math.max(1, round(hostIndex / PHONES[tier].benchmarkIndex, 2));

/** Budgets of issue 29, against the bare page measured in the same run. */
export const BUDGETS = {
  low: { scoreBelowBare: 0.05, tbtAboveBareMs: 200, loginMainThreadRatio: 1.5, loggedInMainThreadRatio: 2 },
  mid: { scoreBelowBare: 0.01 },
} as const;

const ACCESSIBILITY_BUDGET = 1;
/** Long enough to catch a guest that stalls (last seen: 240 stalls in 150 s), short beside the runs. */
const HOST_STALL_PROBE_SECONDS = 15;

type ScreenKey = "bare" | "login" | "pharmacies" | "checkin" | "delivery" | "returns";
export const SCREEN_KEYS: readonly ScreenKey[] = ["bare", "login", "pharmacies", "checkin", "delivery", "returns"];

export interface RunFigures {
  score: number;
  accessibility: number | null;
  fcpMs: number;
  lcpMs: number;
  tbtMs: number;
  cls: number;
  /** Lighthouse's main-thread work (mainthread-work-breakdown), scaled by the slowdown as its simulation does. */
  mainThreadMs: number;
  /** Its script evaluation part. */
  scriptEvaluationMs: number;
  /** The whole of it by Lighthouse's groups (mainthread-work-breakdown's items), ms each. */
  workByGroup: WorkByGroup;
  /**
   * The page's main-thread CPU time in the trace (its top-level tasks' thread
   * time, which leaves out the time the thread waited for a core), × the
   * slowdown: on a busy host much steadier than the wall-clock figures above.
   */
  mainThreadCpuMs: number;
  benchmarkIndex: number;
}

/** Lighthouse's groups of main-thread work (mainthread-work-breakdown), in the order the report shows them. */
export const WORK_GROUPS = ["scriptEvaluation", "styleLayout", "parseHTML", "scriptParseCompile", "garbageCollection", "paintCompositeRender", "other"] as const;
export type WorkGroup = (typeof WORK_GROUPS)[number];
export type WorkByGroup = Record<WorkGroup, number>;
const WORK_GROUP_NAMES: Record<WorkGroup, string> = {
  scriptEvaluation: "script evaluation",
  styleLayout: "style & layout",
  parseHTML: "HTML & CSS parse",
  scriptParseCompile: "script parse & compile",
  garbageCollection: "garbage collection",
  paintCompositeRender: "paint & composite",
  other: "other",
};

export interface ScreenTierResult {
  key: ScreenKey;
  name: string;
  path: string;
  tier: Tier;
  runs: RunFigures[];
  /** Each figure's median over the runs (each group of main-thread work its own median). */
  median: Omit<RunFigures, "accessibility" | "benchmarkIndex"> & { accessibility: number | null };
  /** Main-thread work ÷ the bare page's at the same setting (medians). */
  mainThreadRatio: number;
  /** Main-thread CPU time ÷ the bare page's (medians). */
  mainThreadCpuRatio: number;
  /** The long tasks and the scripts of the run closest to the median score (for the findings). */
  longTasks: { url: string; startMs: number; durationMs: number }[];
  scripts: { url: string; scriptingMs: number; parseCompileMs: number }[];
}

export interface BudgetCheck {
  screen: string;
  tier: Tier;
  rule: string;
  actual: string;
  limit: string;
  met: boolean;
}

export interface FirstScreenResult extends MeasuredIn {
  /** The app's and the bare page's servers ran below the browser's priority (decision 0042); runs recorded before have none. */
  serversBelowBrowser?: boolean;
  /** …under Linux's idle scheduling policy (SCHED_IDLE, decision 0045) rather than at nice 19; runs recorded before have none. */
  serversIdlePolicy?: boolean;
  /** Each page was loaded over TLS and HTTP/2 through a balancer in front of its server, as a phone reaches production (decision 0046); runs recorded before were plain HTTP/1.1 to the server. */
  throughTlsBalancer?: boolean;
  /** How the browser's scheduling group stood against the bench's session (decision 0047); runs recorded before have none (the browser's group then weighed the same as the bench's). */
  browserGroup?: BrowserGroupStanding;
  /** Whether each renderer's main thread ran first among the browser's threads (decision 0048); runs recorded before have none. */
  rendererMainThread?: RendererMainThreadStanding;
  /**
   * Before each measured load the browser was quiet (under 5% of a core for 0.5 s): what one page left running
   * (a service worker installing, storage being written) is not counted in the next. Runs recorded before have none.
   */
  quietBetweenRuns?: { medianWaitMs: number; maxWaitMs: number; notQuiet: number };
  /**
   * The server response time Lantern gave each origin's requests: each server's own, timed while the browser was quiet
   * (decision 0044), not the median Lantern observed during the load. Runs recorded before have none.
   */
  serverResponseMs?: { app: number; bare: number; requestsTimed: { app: number; bare: number } };
  /** Whether the host held this guest's CPUs: probed before the runs, and the steal time over them (runs recorded before have none). */
  hostStalls?: HostStallsRecord;
  version: 2;
  date: string;
  machine: MachineDescription;
  loadAverageEnd: number;
  lighthouse: string;
  runsPerPage: number;
  calibration: { source: string; samples: number[]; benchmarkIndex: number; cpuSlowdown: Record<Tier, number> };
  /** Lighthouse's benchmark index in every measured run: how much the host moved during the run. */
  benchmarkIndexDuringRuns: { min: number; median: number; max: number };
  barePageJsGzipKiB: number;
  results: ScreenTierResult[];
  budgets: BudgetCheck[];
  initialJs: { gzipKiB: number; rawKiB: number; cssGzipKiB: number; budgetKiB: number; chunks: { file: string; gzipKiB: number; packages: string[] }[]; onDemandInInitial: { library: string; file: string }[]; met: boolean };
}

interface DemoTargets {
  riversideId: number;
  greenwayId: number;
  greenwayOrderId: number;
  northsideId: number;
}

/**
 * The demo courier's pending visit confirmed (screens are not redirected),
 * Northside's day made ready to return (its four orders attempted or
 * cancelled, as tests/e2e/returns.test.ts does), and the ids the paths need.
 */
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
  const northside = pharmacy("Northside");
  const order = day.orders.find((o) => o.pharmacy.id === greenway.id && o.status.name === "picked_up");
  if (!order) throw new Error("The demo day has no picked-up Greenway order");
  const northsideOrder = (last: string) => {
    const found = day.orders.find((o) => o.pharmacy.id === northside.id && o.patient_last_name === last);
    if (!found) throw new Error(`The demo day has no Northside order for ${last}`);
    return found;
  };
  for (const last of ["Evans", "Coleman"]) await apiCall(url, courier, "POST", `/api/orders/${northsideOrder(last).id}/pickups`, {});
  for (const last of ["Diaz", "Freeman"]) await apiCall(url, courier, "POST", "/api/courier/cancellation", { order_id: northsideOrder(last).id });
  for (const last of ["Evans", "Coleman"]) {
    await apiCall(url, courier, "POST", "/api/courier/deliveries", {
      delivery: { failure_reason: "Patient Not Home", client_occurred_at: new Date().toISOString(), order_ids: [northsideOrder(last).id] },
    });
  }
  return {
    cookie: courier.cookie,
    targets: { riversideId: riverside.id, greenwayId: greenway.id, greenwayOrderId: order.id, northsideId: northside.id },
  };
}

/** The API calls index.html's inline script starts as the page loads, for a logged-in courier. */
const EARLY_API_CALLS = ["/api/sessions/current", "/api/courier/itinerary"];

/**
 * What the screens' loads request first, each request once: every screen's page and the scripts and stylesheets
 * it names, and (logged in) the API calls the page starts early.
 */
async function requestsOfLoads(screens: readonly Screen[]): Promise<TimedRequest[]> {
  const requests = new Map<string, TimedRequest>();
  for (const screen of screens) {
    const pageUrl = `${screen.server}${screen.path}`;
    const withCookie: Record<string, string> = screen.cookie ? { cookie: screen.cookie } : {};
    const headers = { accept: "text/html", ...withCookie };
    const response = await fetch(pageUrl, { headers });
    if (!response.ok) throw new Error(`${pageUrl}: ${response.status}`);
    requests.set(pageUrl, { url: pageUrl, headers });
    for (const asset of pageAssets(pageUrl, await response.text())) requests.set(asset, { url: asset, headers: withCookie });
    if (screen.cookie) {
      for (const call of EARLY_API_CALLS) requests.set(`${screen.server}${call}`, { url: `${screen.server}${call}`, headers: { accept: API_MEDIA_TYPE, cookie: screen.cookie } });
    }
  }
  return [...requests.values()];
}

type RunnerResult = NonNullable<Awaited<ReturnType<typeof lighthouse>>>;
type Lhr = RunnerResult["lhr"];

interface Screen {
  key: ScreenKey;
  name: string;
  /** The origin the browser loads: the balancer's. */
  base: string;
  /** The server behind it, whose own response time is timed (decision 0044). */
  server: string;
  path: string;
  cookie: string | null;
}

const numeric = (lhr: Lhr, id: string): number => lhr.audits[id]?.numericValue ?? Number.NaN;

interface TraceEvent {
  name: string;
  ph: string;
  pid: number;
  tid: number;
  tdur?: number;
  args?: { name?: string; data?: { url?: string } };
}

/**
 * Thread time (µs → ms) of the top-level tasks of the page's main thread: the renderer
 * main thread that loaded a page over http(s). Chromium's own WebUI renderer (the
 * "WebUI Top Renderer" process, its omnibox and tab strip, with chrome:// URLs) can
 * run more tasks than the page during a load, so the busiest thread is not the page's.
 */
export function mainThreadCpuTime(trace: { traceEvents: TraceEvent[] }): number {
  const threadKey = (event: TraceEvent) => `${event.pid}:${event.tid}`;
  const webUi = new Set(trace.traceEvents.filter((event) => event.name === "process_name" && event.args?.name?.startsWith("WebUI")).map((event) => event.pid));
  const mains = new Set(
    trace.traceEvents.filter((event) => event.name === "thread_name" && event.args?.name === "CrRendererMain" && !webUi.has(event.pid)).map(threadKey),
  );
  const pages = new Set(trace.traceEvents.filter((event) => mains.has(threadKey(event)) && /^https?:/.test(event.args?.data?.url ?? "")).map(threadKey));
  const byThread = new Map<string, number[]>();
  for (const event of trace.traceEvents) {
    if (event.ph !== "X" || event.name !== "RunTask" || !mains.has(threadKey(event))) continue;
    if (pages.size > 0 && !pages.has(threadKey(event))) continue;
    byThread.set(threadKey(event), [...(byThread.get(threadKey(event)) ?? []), event.tdur ?? 0]);
  }
  const busiest = [...byThread.values()].sort((a, b) => b.length - a.length)[0] ?? [];
  return busiest.reduce((sum, tdur) => sum + tdur, 0) / 1000;
}

function figures(lhr: Lhr, cpuMs = Number.NaN): RunFigures {
  const breakdown = (lhr.audits["mainthread-work-breakdown"]?.details as { items?: { group: string; duration: number }[] } | undefined)?.items ?? [];
  return {
    score: lhr.categories.performance!.score ?? 0,
    accessibility: lhr.categories.accessibility?.score ?? null,
    fcpMs: Math.round(numeric(lhr, "first-contentful-paint")),
    lcpMs: Math.round(numeric(lhr, "largest-contentful-paint")),
    tbtMs: Math.round(numeric(lhr, "total-blocking-time")),
    cls: round(numeric(lhr, "cumulative-layout-shift"), 3),
    mainThreadMs: Math.round(numeric(lhr, "mainthread-work-breakdown")),
    scriptEvaluationMs: Math.round(breakdown.find((item) => item.group === "scriptEvaluation")?.duration ?? 0),
    workByGroup: Object.fromEntries(WORK_GROUPS.map((group) => [group, Math.round(breakdown.find((item) => item.group === group)?.duration ?? 0)])) as WorkByGroup,
    mainThreadCpuMs: Math.round(cpuMs * lhr.configSettings.throttling.cpuSlowdownMultiplier!),
    benchmarkIndex: Math.round(lhr.environment.benchmarkIndex),
  };
}

const shortUrl = (url: string): string => {
  try {
    const { pathname } = new URL(url);
    return pathname.replace(/-[\w-]{8}\.js$/, ".js") || url;
  } catch {
    return url;
  }
};

function longTasks(lhr: Lhr): ScreenTierResult["longTasks"] {
  const items = (lhr.audits["long-tasks"]?.details as { items?: { url: string; startTime: number; duration: number }[] } | undefined)?.items ?? [];
  return items.slice(0, 8).map((item) => ({ url: shortUrl(item.url), startMs: Math.round(item.startTime), durationMs: Math.round(item.duration) }));
}

function scripts(lhr: Lhr): ScreenTierResult["scripts"] {
  const items = (lhr.audits["bootup-time"]?.details as { items?: { url: string; scripting: number; scriptParseCompile: number }[] } | undefined)?.items ?? [];
  return items.slice(0, 8).map((item) => ({ url: shortUrl(item.url), scriptingMs: Math.round(item.scripting), parseCompileMs: Math.round(item.scriptParseCompile) }));
}

export interface FirstScreenOptions {
  runs: number;
  /** A build made beforehand (`npx vite build --outDir …`), to compare two builds run after run; built from this tree otherwise. */
  webRoot?: string;
  log?: (line: string) => void;
  /** Keep every run's whole Lighthouse report here. */
  reportsDir?: string;
  /** Keep every run's Chromium trace here (open in Chrome DevTools' Performance panel). */
  tracesDir?: string;
  /** Keep what Lantern simulated of every run here: each request's and task's simulated start and end, per metric (lib/lantern-timings.ts). */
  lanternTimingsDir?: string;
  /** Record V8's sampling CPU profile in those traces too (a look at where script time goes; the profiler slows the page down, so never for figures that are kept). */
  cpuProfile?: boolean;
  /** The host's benchmark index, to compare builds at one setting across runs; calibrated otherwise. */
  benchmarkIndex?: number;
  /** Some screens only (the bare page is always measured). */
  screens?: readonly string[];
  tiers?: readonly Tier[];
}

export async function runFirstScreen(options: FirstScreenOptions): Promise<FirstScreenResult> {
  // Before any server starts: a failed install then leaves nothing running.
  ensureBenchBrowser();
  const log = options.log ?? console.log;
  const tiers = options.tiers ?? (["low", "mid"] as const);
  const machine = describeMachine();
  const webRoot = options.webRoot ?? productionBuild(log);
  const bundle = measureInitialBundle(webRoot);
  const bareRoot = await buildBarePage(log);
  // Before any server or browser starts, so only the host can make the probe late.
  const stalls = await probeHostStalls(HOST_STALL_PROBE_SECONDS);

  const dataDir = mkdtempSync(path.join(tmpdir(), "rxc-bench-lh-"));
  // The phone's browser has the host's cores first: the servers stand in for ones across the network (decision 0042).
  const server = await startBenchServer({ dataDir, env: { WEB_ROOT: webRoot }, belowBrowser: true });
  const bare = await serveBarePage(bareRoot);
  // Each page reaches its server as a phone reaches production: TLS and HTTP/2 through a balancer (decision 0046).
  const certificate = makeBenchCertificate();
  let appBalancer: TlsBalancer | undefined;
  let bareBalancer: TlsBalancer | undefined;
  const port = await freePort();
  const { browser, name: browserName } = await launchBenchBrowser([`--remote-debugging-port=${port}`, certificate.browserArg]);
  const browserProcess = browserPid(port);
  const quietWaits: { waitedMs: number; quiet: boolean }[] = [];
  let version = "";
  const collected = new Map<string, { screen: Screen; tier: Tier; runs: RunnerResult[]; cpuMs: number[] }>();
  let calibration: FirstScreenResult["calibration"];
  let serverResponse: NonNullable<FirstScreenResult["serverResponseMs"]>;
  let browserGroup: BrowserGroupStanding;
  let rendererWatch: RendererWatch | undefined;
  let rendererMainThread: RendererMainThreadStanding;
  let hostStalls: HostStallsRecord;
  try {
    // Above the bench's own session, where the servers, the balancers and Lighthouse's driver run (decision 0047).
    browserGroup = putBrowserGroupFirst(browserProcess);
    log(`  the browser's scheduling group: ${BROWSER_GROUP_TEXT[browserGroup]}`);
    // The page's main thread never waits behind the browser's other threads, as on a phone's eight cores (decision 0048).
    rendererWatch = keepRendererMainThreadsFirst(browserProcess);
    appBalancer = await startTlsBalancer(server.port, certificate);
    bareBalancer = await startTlsBalancer(bare.port, certificate);
    const { cookie, targets } = await prepareDemoCourier(server.url);
    const all: Screen[] = [
      { key: "bare", name: "Bare page (reference)", base: bareBalancer.url, server: bare.url, path: "/login", cookie: null },
      { key: "login", name: "Login", base: appBalancer.url, server: server.url, path: "/login", cookie: null },
      { key: "pharmacies", name: "Pharmacies", base: appBalancer.url, server: server.url, path: "/pharmacies", cookie },
      { key: "checkin", name: "Check-in (Riverside)", base: appBalancer.url, server: server.url, path: `/pharmacies/${targets.riversideId}/verify_orders`, cookie },
      { key: "delivery", name: "Delivery step: address (Greenway)", base: appBalancer.url, server: server.url, path: `/pharmacies/${targets.greenwayId}/deliver_orders/${targets.greenwayOrderId}/address`, cookie },
      { key: "returns", name: "Returns summary (Northside)", base: appBalancer.url, server: server.url, path: `/pharmacies/${targets.northsideId}/reconcile`, cookie },
    ];
    const screens = all.filter((screen) => screen.key === "bare" || !options.screens || options.screens.includes(screen.key));

    // Each server's own response time, timed before any load while the browser is quiet (decision 0044).
    await untilQuiet(browserProcess);
    const appRequests = await requestsOfLoads(all.filter((screen) => screen.key !== "bare"));
    const bareRequests = await requestsOfLoads(all.filter((screen) => screen.key === "bare"));
    serverResponse = {
      app: await quietServerResponseMs(appRequests),
      bare: await quietServerResponseMs(bareRequests),
      requestsTimed: { app: appRequests.length, bare: bareRequests.length },
    };
    log(`  server response time, timed quiet: the app's ${serverResponse.app} ms (${appRequests.length} requests × ${QUIET_TIMING_ROUNDS}), the bare page's ${serverResponse.bare} ms (${bareRequests.length} × ${QUIET_TIMING_ROUNDS})`);
    const byOrigin = [
      [new URL(appBalancer.url).origin, serverResponse.app],
      [new URL(bareBalancer.url).origin, serverResponse.bare],
    ] as const;
    const lanternServers = {
      serverResponseTimeByOrigin: Object.fromEntries(byOrigin),
      // Loopback: what Lantern observes of it anyway (network-rtt 0 ms); the throttling's 150 ms round trip is added to every request.
      additionalRttByOrigin: Object.fromEntries(byOrigin.map(([origin]) => [origin, 0])),
    };

    const runLighthouse = async (screen: Screen, cpuSlowdown: number, withAccessibility: boolean): Promise<RunnerResult> => {
      // Lighthouse now and then fails to record a trace (NO_NAVSTART, NO_FCP on a busy machine): such a run is made again, twice at most.
      for (let attempt = 1; ; attempt++) {
        const wait = await untilQuiet(browserProcess);
        quietWaits.push(wait);
        if (!wait.quiet) log(`  the browser was still busy after ${wait.waitedMs} ms: ${screen.path} measured anyway`);
        const result = await lighthouse(`${screen.base}${screen.path}`, {
          port,
          output: "json",
          logLevel: "error",
          onlyCategories: withAccessibility ? ["performance", "accessibility"] : ["performance"],
          throttlingMethod: "simulate",
          throttling: { ...LIGHTHOUSE_THROTTLING.mobileSlow4G, cpuSlowdownMultiplier: cpuSlowdown },
          // The session cookie on every request of the run (the document, the API calls, the chunks).
          extraHeaders: screen.cookie ? { Cookie: screen.cookie } : null,
          precomputedLanternData: lanternServers,
          ...(options.cpuProfile ? { additionalTraceCategories: "disabled-by-default-v8.cpu_profiler" } : {}),
        });
        if (!result) throw new Error(`Lighthouse returned nothing for ${screen.path}`);
        if (!result.lhr.runtimeError) {
          const landed = new URL(result.lhr.finalDisplayedUrl).pathname;
          if (landed !== screen.path) throw new Error(`${screen.path} ended on ${landed}: the screen redirected`);
          version = result.lhr.lighthouseVersion;
          return result;
        }
        if (attempt === 3) throw new Error(`Lighthouse on ${screen.path}: ${result.lhr.runtimeError.message}`);
        log(`  ${screen.name}: ${result.lhr.runtimeError.code}, running again`);
      }
    };

    if (options.benchmarkIndex) {
      calibration = { source: "given (--benchmark-index)", samples: [options.benchmarkIndex], benchmarkIndex: options.benchmarkIndex, cpuSlowdown: { low: 0, mid: 0 } };
    } else {
      // Three Lighthouse runs of the bare page at Lighthouse's default setting: their benchmark index, and a warm browser.
      const samples: number[] = [];
      for (let i = 0; i < 3; i++) samples.push(Math.round((await runLighthouse(screens[0]!, 4, false)).lhr.environment.benchmarkIndex));
      calibration = { source: "median of 3 calibration Lighthouse runs of the bare page (lhr.environment.benchmarkIndex)", samples, benchmarkIndex: median(samples), cpuSlowdown: { low: 0, mid: 0 } };
    }
    calibration.cpuSlowdown = { low: cpuSlowdownFor(calibration.benchmarkIndex, "low"), mid: cpuSlowdownFor(calibration.benchmarkIndex, "mid") };
    log(`  host benchmark index ${calibration.benchmarkIndex} (${calibration.samples.join(", ")}): CPU slowdown ${calibration.cpuSlowdown.low}× for the low-tier phone, ${calibration.cpuSlowdown.mid}× for the mid-tier one`);

    const stealBefore = stealMs();
    for (let run = 0; run < options.runs; run++) {
      for (const tier of tiers) {
        for (const screen of screens) {
          const result = await runLighthouse(screen, calibration.cpuSlowdown[tier], tier === "low");
          const key = `${screen.key}:${tier}`;
          const entry = collected.get(key) ?? { screen, tier, runs: [], cpuMs: [] };
          entry.runs.push(result);
          const trace = (result.artifacts as { Trace?: { traceEvents: TraceEvent[] } }).Trace;
          entry.cpuMs.push(trace ? mainThreadCpuTime(trace) : Number.NaN);
          collected.set(key, entry);
          const name = `${screen.key}-${tier}-${run + 1}`;
          if (options.reportsDir) {
            mkdirSync(options.reportsDir, { recursive: true });
            writeFileSync(path.join(options.reportsDir, `${name}.json`), JSON.stringify(result.lhr));
          }
          if (options.tracesDir) {
            mkdirSync(options.tracesDir, { recursive: true });
            if (trace) writeFileSync(path.join(options.tracesDir, `${name}.trace.json`), JSON.stringify(trace));
          }
          if (options.lanternTimingsDir) saveLanternTimings(options.lanternTimingsDir, name);
          const f = figures(result.lhr, entry.cpuMs.at(-1));
          log(`  ${screen.name} [${tier} ${calibration.cpuSlowdown[tier]}×, run ${run + 1}]: performance ${f.score}, TBT ${f.tbtMs} ms, LCP ${f.lcpMs} ms, main thread ${f.mainThreadMs} ms (CPU ${f.mainThreadCpuMs} ms; index ${f.benchmarkIndex})`);
          log(`    by kind: ${WORK_GROUPS.map((group) => `${group} ${f.workByGroup[group]}`).join(", ")} ms`);
          // Only the figures are kept: whole runner results hold the trace.
          entry.runs[entry.runs.length - 1] = { lhr: result.lhr } as RunnerResult;
        }
      }
    }
    rendererMainThread = rendererWatch.stop();
    // Every load opens a renderer: none found means the watch did not see them, and the figures are not what the report says.
    if (rendererMainThread !== "not permitted" && rendererMainThread.renderers === 0) throw new Error("no renderer's main thread was put first (decision 0048)");
    log(`  the page's main thread: ${rendererMainThreadText(rendererMainThread)}`);
    const stealAfter = stealMs();
    hostStalls = { ...stalls, stealDuringRunsMs: stealBefore === null || stealAfter === null ? null : stealAfter - stealBefore };
    log(`  ${hostStallsText(hostStalls)}`);
  } finally {
    try {
      rendererWatch?.stop();
    } catch {
      // Only to stop the watch when the run failed before reading it: the run's own error is the one reported.
    }
    await browser.close();
    await appBalancer?.stop();
    await bareBalancer?.stop();
    certificate.remove();
    await bare.stop();
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }

  const results: ScreenTierResult[] = [];
  for (const tier of tiers) {
    const bareEntry = collected.get(`bare:${tier}`)!;
    const bareRuns = bareEntry.runs.map((r, i) => figures(r.lhr, bareEntry.cpuMs[i]));
    const bareMainThread = median(bareRuns.map((r) => r.mainThreadMs));
    const bareCpu = median(bareRuns.map((r) => r.mainThreadCpuMs));
    for (const [, entry] of [...collected].filter(([, e]) => e.tier === tier)) {
      const runs = entry.runs.map((r, i) => figures(r.lhr, entry.cpuMs[i]));
      const m = (pick: (r: RunFigures) => number) => median(runs.map(pick));
      const scoreMedian = m((r) => r.score);
      const typical = entry.runs[runs.findIndex((r) => r.score === scoreMedian)] ?? entry.runs[0]!;
      const accessibility = runs.every((r) => r.accessibility === null) ? null : m((r) => r.accessibility ?? 0);
      const mainThreadMs = m((r) => r.mainThreadMs);
      results.push({
        key: entry.screen.key,
        name: entry.screen.name,
        path: entry.screen.path,
        tier,
        runs,
        median: { score: scoreMedian, accessibility, fcpMs: m((r) => r.fcpMs), lcpMs: m((r) => r.lcpMs), tbtMs: m((r) => r.tbtMs), cls: m((r) => r.cls), mainThreadMs, scriptEvaluationMs: m((r) => r.scriptEvaluationMs), workByGroup: medianWork(runs), mainThreadCpuMs: m((r) => r.mainThreadCpuMs) },
        mainThreadRatio: round(mainThreadMs / bareMainThread, 2),
        mainThreadCpuRatio: round(m((r) => r.mainThreadCpuMs) / bareCpu, 2),
        longTasks: longTasks(typical.lhr),
        scripts: scripts(typical.lhr),
      });
    }
  }
  const everyIndex = [...collected.values()].flatMap((entry) => entry.runs.map((r) => Math.round(r.lhr.environment.benchmarkIndex)));
  return {
    version: 2,
    date: today(),
    browser: browserName,
    serversBelowBrowser: true,
    serversIdlePolicy: true,
    throughTlsBalancer: true,
    browserGroup: browserGroup!,
    rendererMainThread: rendererMainThread!,
    hostStalls: hostStalls!,
    serverResponseMs: serverResponse!,
    quietBetweenRuns: {
      medianWaitMs: Math.round(median(quietWaits.map((wait) => wait.waitedMs))),
      maxWaitMs: Math.max(...quietWaits.map((wait) => wait.waitedMs)),
      notQuiet: quietWaits.filter((wait) => !wait.quiet).length,
    },
    machine,
    loadAverageEnd: describeMachine().loadAverage,
    lighthouse: version,
    runsPerPage: options.runs,
    calibration: calibration!,
    benchmarkIndexDuringRuns: { min: Math.min(...everyIndex), median: median(everyIndex), max: Math.max(...everyIndex) },
    barePageJsGzipKiB: kib(barePageJsGzipBytes(bareRoot)),
    results,
    budgets: checkBudgets(results),
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

/** Each group's median over the runs (results of a bench before the groups were recorded have none: 0). */
export const medianWork = (runs: readonly Pick<RunFigures, "workByGroup">[]): WorkByGroup =>
  Object.fromEntries(WORK_GROUPS.map((group) => [group, median(runs.map((run) => run.workByGroup?.[group] ?? 0))])) as WorkByGroup;

/**
 * Main-thread work by kind against the bare page's at one setting: each
 * group's median and what it is above the bare page's, so the table says
 * which kind of work a screen adds.
 */
function workByKindTable(rows: readonly ScreenTierResult[]): string[] {
  const bare = rows.find((r) => r.key === "bare");
  if (!bare?.median.workByGroup) return [];
  const cell = (r: ScreenTierResult, group: WorkGroup) => {
    const value = r.median.workByGroup[group];
    if (r.key === "bare") return ms(value);
    const above = value - bare.median.workByGroup[group];
    return `${ms(value)} (${above >= 0 ? "+" : "−"}${Math.abs(Math.round(above)).toLocaleString("en-US")})`;
  };
  return [
    "Main-thread work by kind (Lighthouse's mainthread-work-breakdown groups, medians; in brackets, above (+) or below (−) the bare page's):",
    "",
    table(
      ["Screen", ...WORK_GROUPS.map((group) => WORK_GROUP_NAMES[group])],
      rows.map((r) => [r.name, ...WORK_GROUPS.map((group) => cell(r, group))]),
    ),
    "",
  ];
}

/** Issue 29's budgets, each screen against the bare page at the same setting in the same run. */
export function checkBudgets(results: readonly ScreenTierResult[]): BudgetCheck[] {
  const checks: BudgetCheck[] = [];
  for (const tier of ["low", "mid"] as const) {
    const bare = results.find((r) => r.key === "bare" && r.tier === tier);
    if (!bare) continue;
    for (const screen of results.filter((r) => r.tier === tier && r.key !== "bare")) {
      const check = (rule: string, actual: string, limit: string, met: boolean) => checks.push({ screen: screen.name, tier, rule, actual, limit, met });
      if (tier === "low") {
        const low = BUDGETS.low;
        const minScore = round(bare.median.score - low.scoreBelowBare, 2);
        check("performance ≥ bare − 0.05", screen.median.score.toFixed(2), `≥ ${minScore.toFixed(2)}`, screen.median.score >= minScore - 1e-9);
        const maxTbt = bare.median.tbtMs + low.tbtAboveBareMs;
        check("TBT ≤ bare + 200 ms", `${screen.median.tbtMs} ms`, `≤ ${maxTbt} ms`, screen.median.tbtMs <= maxTbt);
        const ratio = screen.key === "login" ? low.loginMainThreadRatio : low.loggedInMainThreadRatio;
        check(`main-thread work ≤ ${ratio}× bare`, `${screen.mainThreadRatio}×`, `≤ ${ratio}×`, screen.mainThreadRatio <= ratio);
        if (screen.median.accessibility !== null) check("accessibility = 1", screen.median.accessibility.toFixed(2), "1.00", screen.median.accessibility >= ACCESSIBILITY_BUDGET);
      } else {
        const minScore = round(bare.median.score - BUDGETS.mid.scoreBelowBare, 2);
        check("performance ≥ bare − 0.01", screen.median.score.toFixed(2), `≥ ${minScore.toFixed(2)}`, screen.median.score >= minScore - 1e-9);
      }
    }
  }
  return checks;
}

const ms = (value: number | undefined) => (value === undefined || Number.isNaN(value) ? "—" : `${Math.round(value).toLocaleString("en-US")} ms`);

export function firstScreenMarkdown(result: FirstScreenResult, notes: readonly string[] = []): string {
  if (result.version !== 2) return ["(docs/benchmarks/latest.json holds a first-screen result of the old fixed-4× bench: run `npm run bench -- --only=first-screen`.)", ...(notes.length ? ["", "### Findings and fixes", "", ...notes] : [])].join("\n");
  const cal = result.calibration;
  const tierTable = (tier: Tier) => {
    const rows = result.results.filter((r) => r.tier === tier);
    if (rows.length === 0) return [];
    return [
      `### ${PHONES[tier].name[0]!.toUpperCase()}${PHONES[tier].name.slice(1)}: CPU slowdown ${cal.cpuSlowdown[tier]}× (${cal.benchmarkIndex} ÷ ${PHONES[tier].benchmarkIndex.toLocaleString("en-US")})`,
      "",
      table(
        ["Screen", "Performance (runs)", "TBT", "LCP", "FCP", "Main-thread work", "of which script evaluation", "× bare page", "Main-thread CPU time", "× bare page", ...(tier === "low" ? ["Accessibility"] : [])],
        rows.map((r) => [
          `${r.name} \`${r.path.replace(/\d+/g, ":id")}\``,
          `${r.median.score.toFixed(2)} (${r.runs.map((run) => run.score.toFixed(2)).join(", ")})`,
          ms(r.median.tbtMs),
          ms(r.median.lcpMs),
          ms(r.median.fcpMs),
          ms(r.median.mainThreadMs),
          ms(r.median.scriptEvaluationMs),
          r.key === "bare" ? "1" : `${r.mainThreadRatio}×`,
          ms(r.median.mainThreadCpuMs),
          r.key === "bare" ? "1" : `${r.mainThreadCpuRatio}×`,
          ...(tier === "low" ? [r.median.accessibility === null ? "—" : r.median.accessibility.toFixed(2)] : []),
        ]),
      ),
      "",
      ...workByKindTable(rows),
    ];
  };
  const met = result.budgets.filter((b) => b.met).length;
  const js = result.initialJs;
  return [
    `Run ${result.date} on ${machineLine(result.machine)}; 1-minute load average ${result.machine.loadAverage} at the start, ${result.loadAverageEnd} at the end.` +
      (result.hostStalls ? ` ${hostStallsText(result.hostStalls)}` : ""),
    `Lighthouse ${result.lighthouse}, mobile (Moto G Power screen, simulated slow 4G), ${browserOf(result)}, against \`npm run build\` served by the real server (server/main.ts, embedded database with the demo day${result.serversIdlePolicy ? "; it and the bare page's server run under Linux's idle scheduling policy (SCHED_IDLE), on a core only when the browser leaves one free, as a server across the network takes none of the phone's: decisions 0042 and 0045" : result.serversBelowBrowser ? "; it and the bare page's server run at the lowest scheduling priority, so the host's cores go to the browser first, as a server across the network takes none of the phone's: decision 0042" : ""}${result.throughTlsBalancer ? "; each page is loaded over TLS and HTTP/2 through a balancer in front of its server (scripts/bench/lib/tls-balancer.ts, also under the idle policy), as a phone reaches production (docs/deployment.md, decision 0046)" : ""}${result.browserGroup ? `; ${BROWSER_GROUP_TEXT[result.browserGroup]}` : ""}${result.rendererMainThread ? `; ${rendererMainThreadText(result.rendererMainThread)}` : ""}), ` +
      `logged in as the demo courier with the pending visit confirmed and Northside's orders attempted or cancelled (ready to return); the session cookie is sent as an extra header. ${result.runsPerPage} run(s) per screen and setting, interleaved; each figure is the median of its runs.` +
      (result.quietBetweenRuns
        ? ` Each load started once the browser was quiet (under 5% of a core for 0.5 s), so that what a page leaves running (a service worker installing) is not counted in the next one's: a wait of ${result.quietBetweenRuns.medianWaitMs} ms median, ${result.quietBetweenRuns.maxWaitMs} ms at most${result.quietBetweenRuns.notQuiet ? `, ${result.quietBetweenRuns.notQuiet} load(s) started after 15 s without it` : ""}.`
        : "") +
      (result.serverResponseMs
        ? ` Lantern's server response time is each server's own (decision 0044): the app's ${result.serverResponseMs.app} ms, the bare page's ${result.serverResponseMs.bare} ms, the median of ${result.serverResponseMs.requestsTimed.app} and ${result.serverResponseMs.requestsTimed.bare} requests (the screens' pages, the scripts and stylesheets they name, the early API calls) made one at a time, ${QUIET_TIMING_ROUNDS} times each, while the browser was quiet, instead of the median of what it observed during each load, when a server below the browser answers only once the browser leaves it a core.`
        : ""),
    `**The CPU slowdown is calibrated to the host** (issue 29): host benchmark index **${cal.benchmarkIndex}** (${cal.source}: ${cal.samples.join(", ")}), so the low-tier phone (index 264) is **${cal.cpuSlowdown.low}×** and the mid-tier phone (index 1,000) **${cal.cpuSlowdown.mid}×**. ` +
      `Lighthouse's benchmark index during the measured runs: ${result.benchmarkIndexDuringRuns.min}–${result.benchmarkIndexDuringRuns.max} (median ${result.benchmarkIndexDuringRuns.median}); a busy host scores every page lower, the bare page too.`,
    `**The bare page** (scripts/bench/bare-page/, fixed, never tuned): index.html with a “Loading…” status and inline CSS, one module rendering in StrictMode a React Router createBrowserRouter with one catch-all route whose element runs a two-state XState machine (editing ⇄ submitting) with useMachine, and shows a heading, a paragraph, two labelled inputs and a button; built by Vite with the default React plugin from the project's node_modules (${result.barePageJsGzipKiB} KiB gzip), served by Fastify brotli-compressed with immutable caching of its assets${result.browser ? ", and with the app's security headers (server/http/security-headers.ts: its Cross-Origin-Opener-Policy gives it a renderer process of its own, as the app's page has; decision 0041)" : ""}.`,
    "",
    "Main-thread work is Lighthouse's (mainthread-work-breakdown: wall-clock task time × the slowdown); main-thread CPU time is the same tasks' thread time in the run's trace × the slowdown, which leaves out the time the page's thread waited for a core on a busy host. The budgets use Lighthouse's figure.",
    "",
    ...tierTable("low"),
    ...tierTable("mid"),
    `Budgets (issue 29, against the bare page in the same run): at the low-tier setting performance ≥ bare − 0.05, TBT ≤ bare + 200 ms, main-thread work ≤ 1.5× bare on the login screen and ≤ 2× on every logged-in screen, accessibility 1.00; at the mid-tier setting performance ≥ bare − 0.01. **${met} of ${result.budgets.length} met.**`,
    "",
    table(
      ["Screen", "Setting", "Budget", "Measured", "Limit", ""],
      result.budgets.map((b) => [b.screen, b.tier === "low" ? "low-tier" : "mid-tier", b.rule, b.actual, b.limit, verdict(b.met)]),
    ),
    "",
    `Initial JavaScript (login and /pharmacies load the same entry): **${js.gzipKiB} KiB gzip** (${js.rawKiB} KiB raw, level-9 gzip, 1 KiB = 1024 bytes) against ${js.budgetKiB} KiB — ${verdict(js.met)}; ${js.cssGzipKiB > 0 ? `CSS ${js.cssGzipKiB} KiB gzip` : "the first screen's stylesheet is inside index.html, each on-demand screen's comes with its chunk"}.`,
    `braintree-web, signature_pad, imask in the initial chunks: ${js.onDemandInInitial.length ? js.onDemandInInitial.map((hit) => `${hit.library} in ${hit.file}`).join(", ") : "none"} (tests/unit/bundle-budget.test.ts fails \`npm test\` otherwise).`,
    "",
    table(
      ["Initial chunk", "gzip KiB", "Packages (source map)"],
      js.chunks.map((chunk) => [chunk.file.replace(/-[\w-]{8}\.js$/, ".js"), chunk.gzipKiB, chunk.packages.join(", ") || "app code"]),
    ),
    "",
    "Long tasks at the low-tier setting (the run with the median score; start and duration as Lighthouse simulates them on the phone):",
    "",
    ...result.results
      .filter((r) => r.tier === "low")
      .map((r) => `- ${r.name}: ${r.longTasks.length ? r.longTasks.map((task) => `${task.url || "(page)"} ${task.durationMs} ms at ${task.startMs} ms`).join("; ") : "none"}`),
    ...(notes.length ? ["", "### Findings and fixes", "", ...notes] : []),
  ].join("\n");
}

/** One line per budget, for the console. */
export function budgetLines(result: FirstScreenResult): string[] {
  return result.budgets.map((b) => `  ${b.met ? "met   " : "MISSED"} ${b.tier}-tier ${b.screen}: ${b.rule}: ${b.actual} (${b.limit})`);
}
