import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Page } from "playwright-core";
import type { ItineraryResponse, Order } from "../../domain/contract/index.ts";
import { TEXT } from "../../domain/texts.ts";
import { pageFunctions } from "lighthouse/core/lib/page-functions.js";
import { cpuSlowdownFor } from "./first-screen.ts";
import { browserOf, ensureBenchBrowser, launchBenchBrowser, type MeasuredIn } from "./lib/browser.ts";
import { describeMachine, machineLine, median, round, today, type MachineDescription } from "./lib/machine.ts";
import { productionBuild } from "./lib/build.ts";
import { table } from "./lib/report.ts";
import { startBenchServer } from "./lib/server.ts";

/**
 * Wizard responsiveness (issue 9): the delivery steps that need no network
 * (address → date of birth → recipient → ID → payment → signature) should
 * render the next step at once. In Chromium at 390×844 with the CPU slowed
 * 4× (Emulation.setCPUThrottlingRate), from the tap (the click event's
 * timestamp) to the first frame painted with the next step's URL and
 * heading (a requestAnimationFrame, then a task: after that frame's paint).
 * Requests made between tap and paint are counted: an API call would be a
 * round trip on the phone's network.
 *
 * Issue 29: the same walks again with the CPU slowed to a low-tier phone
 * (the host's benchmark index ÷ 264, the index from Lighthouse's own
 * benchmark run in the page, unthrottled, median of five; or given).
 */

export const CPU_SLOWDOWN = 4;

/** Demo orders whose wizards have the most steps without network (none is submitted: each walk stops at the signature). */
const WALKS = [
  { first: "Eleanor", last: "Abernathy" }, // address → date of birth → recipient → payment (cash) → signature
  { first: "Rosa", last: "Delgado" }, // + ID for a controlled substance
  { first: "Isaac", last: "Freeman" }, // date of birth, ID, nothing to pay
] as const;

export interface TransitionSample {
  order: string;
  from: string;
  to: string;
  ms: number;
  apiRequests: number;
  otherRequests: number;
  /** What the other requests were (paths, hashes cut). */
  otherPaths: string[];
}

export interface WizardSetting {
  cpuSlowdown: number;
  samples: TransitionSample[];
  byTransition: { transition: string; count: number; medianMs: number; worstMs: number; apiRequests: number }[];
  medianMs: number;
  worstMs: number;
  apiRequestsDuringTransitions: number;
}

export interface WizardResult extends MeasuredIn {
  date: string;
  machine: MachineDescription;
  loadAverageEnd: number;
  cpuSlowdown: number;
  walksPerOrder: number;
  samples: TransitionSample[];
  byTransition: { transition: string; count: number; medianMs: number; worstMs: number; apiRequests: number }[];
  medianMs: number;
  worstMs: number;
  apiRequestsDuringTransitions: number;
  /** The same walks at the low-tier phone's setting (issue 29). */
  lowTier?: WizardSetting & { benchmarkIndex: number; benchmarkSamples: number[] };
}

async function api<T>(page: Page, method: string, url: string, body?: unknown): Promise<T> {
  return page.evaluate(
    async ({ method, url, body }) => {
      const session = await (await fetch("/api/sessions/current")).json();
      const response = await fetch(url, {
        method,
        headers: { "Content-Type": "application/json", "X-CSRF-Token": session.csrf_token },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      if (!response.ok) throw new Error(`${method} ${url}: ${response.status} ${await response.text()}`);
      return response.json();
    },
    { method, url, body },
  ) as Promise<T>;
}

const stepOf = (page: Page) => new URL(page.url()).pathname.split("/").pop() ?? "";

/** Arms the measurement: the click's timestamp, and the first frame after the URL ends with a new step and a heading shows. */
async function arm(page: Page, from: string): Promise<void> {
  await page.evaluate((from) => {
    const w = window as unknown as { __tap?: number; __painted?: Promise<{ at: number; step: string }> };
    w.__tap = undefined;
    addEventListener("click", (event) => (w.__tap = event.timeStamp), { capture: true, once: true });
    w.__painted = new Promise((resolve) => {
      const ready = () => {
        const step = location.pathname.split("/").pop() ?? "";
        return step !== from && document.querySelector("h1") ? step : null;
      };
      const done = (step: string) => requestAnimationFrame(() => setTimeout(() => resolve({ at: performance.now(), step }), 0));
      const observer = new MutationObserver(() => {
        const step = ready();
        if (step) {
          observer.disconnect();
          done(step);
        }
      });
      observer.observe(document.body, { childList: true, subtree: true, characterData: true });
      // The URL may change without a DOM mutation after it: look at every frame too.
      const poll = () => {
        const step = ready();
        if (step) {
          observer.disconnect();
          done(step);
        } else requestAnimationFrame(poll);
      };
      requestAnimationFrame(poll);
    });
  }, from);
}

async function measured(page: Page, from: string, act: () => Promise<void>, requests: string[]): Promise<{ to: string; ms: number; api: number; other: string[] }> {
  await arm(page, from);
  requests.length = 0;
  await act();
  const { at, step } = await page.evaluate(async () => {
    const w = window as unknown as { __painted: Promise<{ at: number; step: string }> };
    return w.__painted;
  });
  const tap = await page.evaluate(() => (window as unknown as { __tap?: number }).__tap);
  if (tap === undefined) throw new Error(`no click recorded on ${from}`);
  const paths = requests.map((url) => new URL(url).pathname);
  const api = paths.filter((path) => path.startsWith("/api/")).length;
  return { to: step, ms: at - tap, api, other: paths.filter((path) => !path.startsWith("/api/")).map((path) => path.replace(/-[\w-]{8}\.(js|css)$/, ".$1")) };
}

/** One walk from the address to the signature step, the next step's action chosen from the URL. */
async function walk(page: Page, order: Order, requests: string[]): Promise<TransitionSample[]> {
  const samples: TransitionSample[] = [];
  const button = (name: string) => page.getByRole("button", { name, exact: true });
  for (let guard = 0; guard < 8; guard++) {
    const from = stepOf(page);
    if (from === "signature") return samples;
    let act: () => Promise<void>;
    switch (from) {
      case "address":
        act = () => button(TEXT.presentAtAddress).click();
        break;
      case "verify-dob":
        act = () => button(TEXT.dobVerified).click();
        break;
      case "recipient":
        await page.getByRole("radio", { name: "Patient" }).check();
        act = () => button(TEXT.continue).click();
        break;
      case "idverification":
        await page.getByLabel("ID type").selectOption("driver");
        await page.getByLabel("State").selectOption("PA");
        await page.getByLabel("ID number").fill("D7788123");
        await page.getByLabel("Expiration date").pressSequentially("12312031");
        act = () => button(TEXT.continue).click();
        break;
      case "payment":
        await page.getByRole("radio", { name: "Cash" }).check();
        act = () => button(TEXT.continue).click();
        break;
      default:
        throw new Error(`unexpected step ${from} for order ${order.id}`);
    }
    const result = await measured(page, from, act, requests);
    samples.push({ order: `${order.patient_first_name} ${order.patient_last_name}`, from, to: result.to, ms: round(result.ms, 1), apiRequests: result.api, otherRequests: result.other.length, otherPaths: [...new Set(result.other)] });
  }
  throw new Error(`order ${order.id}: no signature step after 8 steps`);
}

function summarise(samples: TransitionSample[], cpuSlowdown: number): WizardSetting {
  const groups = new Map<string, TransitionSample[]>();
  for (const sample of samples) {
    const key = `${sample.from} → ${sample.to}`;
    groups.set(key, [...(groups.get(key) ?? []), sample]);
  }
  const all = samples.map((s) => s.ms);
  return {
    cpuSlowdown,
    samples,
    byTransition: [...groups].map(([transition, list]) => ({
      transition,
      count: list.length,
      medianMs: round(median(list.map((s) => s.ms)), 1),
      worstMs: round(Math.max(...list.map((s) => s.ms)), 1),
      apiRequests: list.reduce((sum, s) => sum + s.apiRequests, 0),
    })),
    medianMs: round(median(all), 1),
    worstMs: round(Math.max(...all), 1),
    apiRequestsDuringTransitions: samples.reduce((sum, s) => sum + s.apiRequests, 0),
  };
}

export async function runWizard(options: { walksPerOrder: number; benchmarkIndex?: number; log?: (line: string) => void }): Promise<WizardResult> {
  // Before any server starts: a failed install then leaves nothing running.
  ensureBenchBrowser();
  const log = options.log ?? console.log;
  const machine = describeMachine();
  const webRoot = productionBuild(log);
  const dataDir = mkdtempSync(path.join(tmpdir(), "rxc-bench-wizard-"));
  const server = await startBenchServer({ dataDir, env: { WEB_ROOT: webRoot } });
  const { browser, name: browserName } = await launchBenchBrowser();
  const samples: TransitionSample[] = [];
  const lowTierSamples: TransitionSample[] = [];
  let benchmarkSamples: number[] = [];
  let lowTierSlowdown: number | undefined;
  try {
    const context = await browser.newContext({
      baseURL: server.url,
      viewport: { width: 390, height: 844 },
      deviceScaleFactor: 2,
      isMobile: true,
      hasTouch: true,
      locale: "en-US",
      timezoneId: "America/New_York",
    });
    // tsx keeps function names with a __name() helper; functions sent to the page need it too.
    await context.addInitScript("globalThis.__name = (target) => target;");
    const page = await context.newPage();
    const requests: string[] = [];
    page.on("request", (request) => requests.push(request.url()));

    await page.goto("/login");
    await page.getByLabel("Email").fill("courier@example.com");
    await page.getByLabel("Password").fill("deliver-safely");
    await page.getByRole("button", { name: "Log in" }).click();
    await page.waitForURL((url) => !url.pathname.startsWith("/login"));
    const day = await api<ItineraryResponse>(page, "GET", "/api/courier/itinerary");
    const pending = day.pharmacy_visits.filter((visit) => visit.confirmed === null).map((visit) => ({ id: visit.id, confirmed: true }));
    if (pending.length) await api(page, "POST", `/api/couriers/${day.courier.id}/pharmacy_visits/confirm`, { pharmacy_visits: pending });
    const orders = WALKS.map(({ first, last }) => {
      const found = day.orders.find((o) => o.patient_first_name === first && o.patient_last_name === last);
      if (!found) throw new Error(`no demo order for ${first} ${last}`);
      return found;
    });
    for (const order of orders) if (order.status.name !== "picked_up") await api(page, "POST", `/api/orders/${order.id}/pickups`, {});
    // The app's copy of the day, with the orders in the bag.
    await page.goto("/pharmacies");
    await page.getByRole("button", { name: "Refresh" }).click();
    await page.waitForLoadState("networkidle");

    // The host's speed, by Lighthouse's own benchmark in this page before any throttling.
    if (options.benchmarkIndex) benchmarkSamples = [options.benchmarkIndex];
    else for (let i = 0; i < 5; i++) benchmarkSamples.push(await page.evaluate(`(${pageFunctions.computeBenchmarkIndex.toString()})()`));
    lowTierSlowdown = cpuSlowdownFor(median(benchmarkSamples), "low");
    log(`  host benchmark index ${median(benchmarkSamples)} (${benchmarkSamples.join(", ")}): low-tier phone = ${lowTierSlowdown}×`);

    const cdp = await context.newCDPSession(page);
    for (const [rate, into] of [[CPU_SLOWDOWN, samples], [lowTierSlowdown, lowTierSamples]] as const) {
      await cdp.send("Emulation.setCPUThrottlingRate", { rate });
      for (let round_ = 0; round_ < options.walksPerOrder; round_++) {
        for (const order of orders) {
          // Start the order's wizard afresh: the saved flow (localStorage) would resume where the last walk stopped.
          await page.evaluate((id) => localStorage.removeItem(`rxc-delivery-flow:${id}`), order.id);
          await page.goto(`/pharmacies/${order.pharmacy.id}/deliver_orders/${order.id}/address`);
          await page.waitForFunction(() => location.pathname.endsWith("/address") && document.querySelector("h1"), undefined, { timeout: 120_000 });
          await page.getByRole("button", { name: TEXT.presentAtAddress, exact: true }).waitFor({ timeout: 120_000 });
          const walked = await walk(page, order, requests);
          into.push(...walked);
          log(`  [${rate}×] ${walked[0]?.order}: ${walked.map((s) => `${s.from}→${s.to} ${s.ms} ms`).join(", ")}`);
        }
      }
    }
    await cdp.send("Emulation.setCPUThrottlingRate", { rate: 1 });
  } finally {
    await browser.close();
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
  const fourTimes = summarise(samples, CPU_SLOWDOWN);
  return {
    date: today(),
    browser: browserName,
    machine,
    loadAverageEnd: describeMachine().loadAverage,
    walksPerOrder: options.walksPerOrder,
    ...fourTimes,
    lowTier: { ...summarise(lowTierSamples, lowTierSlowdown ?? Number.NaN), benchmarkIndex: median(benchmarkSamples), benchmarkSamples },
  };
}

export function wizardMarkdown(result: WizardResult): string {
  const assets = result.samples.reduce((sum, s) => sum + s.otherRequests, 0);
  const loaded = [...new Set(result.samples.flatMap((s) => s.otherPaths.map((p) => `${s.to}: ${p}`)))];
  return [
    `Run ${result.date} on ${machineLine(result.machine)}; 1-minute load average ${result.machine.loadAverage} at the start, ${result.loadAverageEnd} at the end.`,
    `${browserOf(result)} at 390×844 (touch, 2× pixels), CPU slowed ${result.cpuSlowdown}× through the DevTools protocol (Emulation.setCPUThrottlingRate), the production build served by the real server with the demo day.` +
      (result.lowTier ? ` Then the same walks at the low-tier phone's setting (issue 29): **${result.lowTier.cpuSlowdown}×** = the host's benchmark index ${result.lowTier.benchmarkIndex} (Lighthouse's own benchmark in the page, unthrottled: ${result.lowTier.benchmarkSamples.join(", ")}) ÷ 264.` : ""),
    `Walks: the demo courier's Eleanor Abernathy (date of birth, cash copay), Rosa Delgado (date of birth, ID, cash copay) and Isaac Freeman (date of birth, ID) orders, each from the address step to the signature step ${result.walksPerOrder} times (the saved flow cleared between walks; nothing submitted).`,
    "Measured from the tap (the click event's timestamp) to the first frame painted with the next step's URL and heading (requestAnimationFrame, then a task).",
    "",
    `**At ${result.cpuSlowdown}×: median ${result.medianMs} ms, worst ${result.worstMs} ms** over ${result.samples.length} transitions` +
      (result.lowTier ? `; **at the low-tier setting (${result.lowTier.cpuSlowdown}×): median ${result.lowTier.medianMs} ms, worst ${result.lowTier.worstMs} ms** over ${result.lowTier.samples.length} transitions (${result.lowTier.apiRequestsDuringTransitions} API requests)` : "") +
      `. API requests between a tap and the next step's paint: **${result.apiRequestsDuringTransitions}** (no step-to-step transition waits on the network); other requests: ${assets}${loaded.length ? ` (static files, from the HTTP cache or the service worker after the first walk: ${loaded.join(", ")})` : ""}.`,
    "",
    table(
      ["Transition", "samples", `median ms at ${result.cpuSlowdown}×`, "worst ms", "API requests", ...(result.lowTier ? [`median ms at ${result.lowTier.cpuSlowdown}× (low tier)`, "worst ms"] : [])],
      result.byTransition.map((row) => {
        const low = result.lowTier?.byTransition.find((other) => other.transition === row.transition);
        return [row.transition, row.count, row.medianMs, row.worstMs, row.apiRequests, ...(result.lowTier ? [low?.medianMs ?? "—", low?.worstMs ?? "—"] : [])];
      }),
    ),
  ].join("\n");
}
