/**
 * Where the day board's time goes in the browser (issue 27's board work): the
 * board bench's day (2,000 orders, 50 couriers) and set-up (Chromium at
 * 1440×900, the dispatcher, the CPU slowed to a mid-tier machine), with the
 * main thread's work recorded as a Chrome trace around the first render and
 * around 'Assign' of 100 orders. Prints, for each, the main thread's busy
 * time by kind (script, style, layout, paint, parse) and the functions that
 * took the most of it (self time, from the trace's CPU profile); keeps the
 * traces (open them in Chrome DevTools' Performance panel).
 *   npx tsx scripts/bench/board-profile.ts [--slowdown=2.72] [--runs=3] [--out=/tmp/board-profile]
 * The build is made unminified with source maps (function names readable);
 * the production build measures a little faster.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Browser, Page } from "playwright-core";
import { calendarDate } from "../../domain/dates.ts";
import { armPaint, armTap, BOARD_COURIERS, painted, seedDay, tapAt } from "./board.ts";
import { ensureBenchBrowser, launchBenchBrowser } from "./lib/browser.ts";
import { ROOT } from "./lib/report.ts";
import { startBenchServer } from "./lib/server.ts";
import { BENCH_OPS_KEY, ops } from "./ops/common.ts";

const option = (name: string) => process.argv.find((arg) => arg.startsWith(`--${name}=`))?.slice(name.length + 3);
const slowdown = Number(option("slowdown") ?? 2.72);
const runs = Number(option("runs") ?? 3);
const out = option("out") ?? "/tmp/board-profile";
mkdirSync(out, { recursive: true });

interface TraceEvent {
  name: string;
  ph: string;
  ts: number;
  dur?: number;
  tid: number;
  pid: number;
  args?: { data?: { cpuProfile?: { nodes?: ProfileNode[]; samples?: number[] }; timeDeltas?: number[]; frame?: string }; name?: string };
}
interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url?: string; lineNumber?: number };
  parent?: number;
}

const KINDS: Record<string, string> = {
  FunctionCall: "script",
  EvaluateScript: "script",
  TimerFire: "script",
  FireAnimationFrame: "script",
  EventDispatch: "script",
  RunMicrotasks: "script",
  "v8.compile": "compile",
  "v8.compileModule": "compile",
  ParseHTML: "parse html",
  UpdateLayoutTree: "style",
  RecalculateStyles: "style",
  Layout: "layout",
  PrePaint: "paint",
  Paint: "paint",
  Layerize: "paint",
  "Commit": "paint",
  HitTest: "other",
  "ResourceReceivedData": "network",
};

/** The main thread's top-level work in a trace, by kind, and the CPU profile's self time by function. */
function summarise(file: string): string[] {
  const events = (JSON.parse(readFileSync(file, "utf8")) as { traceEvents: TraceEvent[] }).traceEvents;
  const main = events.find((event) => event.name === "thread_name" && event.args?.name === "CrRendererMain");
  if (!main) return ["no renderer main thread in the trace"];
  const onMain = events.filter((event) => event.pid === main.pid && event.tid === main.tid);
  // Top-level tasks: RunTask; inside them, the time of each kind (nested events are subtracted from their parents).
  const byKind = new Map<string, number>();
  const stack: { end: number; kind: string }[] = [];
  let busy = 0;
  for (const event of onMain.filter((e) => e.ph === "X" && e.dur !== undefined).sort((a, b) => a.ts - b.ts || b.dur! - a.dur!)) {
    while (stack.length && stack[stack.length - 1]!.end <= event.ts) stack.pop();
    if (event.name === "RunTask" && stack.length === 0) busy += event.dur!;
    const kind = KINDS[event.name];
    if (!kind) continue;
    const parent = stack.find((entry) => entry.kind !== "task");
    if (parent) continue; // counted in its parent (a layout inside a script is the script's forced layout: counted as script)
    byKind.set(kind, (byKind.get(kind) ?? 0) + event.dur!);
    stack.push({ end: event.ts + event.dur!, kind });
  }
  const lines = [`main thread busy ${Math.round(busy / 1000)} ms: ${[...byKind].sort((a, b) => b[1] - a[1]).map(([kind, us]) => `${kind} ${Math.round(us / 1000)}`).join(", ")} ms`];

  // The sampled CPU profile (ProfileChunk events) of the renderer: self time by function.
  const nodes = new Map<number, ProfileNode>();
  const self = new Map<number, number>();
  for (const chunk of events.filter((event) => event.name === "ProfileChunk" && event.pid === main.pid)) {
    const data = chunk.args?.data;
    for (const node of data?.cpuProfile?.nodes ?? []) nodes.set(node.id, node);
    const samples = data?.cpuProfile?.samples ?? [];
    const deltas = data?.timeDeltas ?? [];
    samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (deltas[i + 1] ?? deltas[i] ?? 0)));
  }
  const byFunction = new Map<string, number>();
  const byFile = new Map<string, number>();
  for (const [id, us] of self) {
    const frame = nodes.get(id)?.callFrame;
    if (!frame) continue;
    const file = (frame.url ?? "").split("/").pop() || "(native)";
    const key = `${frame.functionName || "(anonymous)"} ${file}:${(frame.lineNumber ?? -1) + 1}`;
    byFunction.set(key, (byFunction.get(key) ?? 0) + us);
    byFile.set(file, (byFile.get(file) ?? 0) + us);
  }
  const top = [...byFunction].sort((a, b) => b[1] - a[1]).slice(0, 25);
  lines.push("  self time by function (ms):", ...top.map(([key, us]) => `    ${(us / 1000).toFixed(1).padStart(7)}  ${key}`));
  lines.push(`  by file: ${[...byFile].sort((a, b) => b[1] - a[1]).slice(0, 8).map(([file, us]) => `${file} ${Math.round(us / 1000)}`).join(", ")}`);
  return lines;
}

async function traced(browser: Browser, page: Page, file: string, action: () => Promise<void>): Promise<string[]> {
  await browser.startTracing(page, { path: file, categories: ["devtools.timeline", "disabled-by-default-devtools.timeline", "v8.execute", "disabled-by-default-v8.cpu_profiler", "blink.user_timing"] });
  await action();
  await browser.stopTracing();
  return summarise(file);
}

/** The count in a region's heading, "(n)"; run in the page. */
function countIn(title: string): number {
  const id = `region-${title.replace(/\W+/g, "-").toLowerCase()}`;
  return Number((document.getElementById(id)?.textContent ?? "").match(/\((\d+)\)/)?.[1] ?? -1);
}

if (option("summarise")) {
  for (const file of option("summarise")!.split(",")) console.log(`${file}: ${summarise(file).join("\n")}`);
  process.exit(0);
}

const webRoot = path.join(mkdtempSync(path.join(tmpdir(), "rxc-board-profile-")), "dist");
console.log("building the console unminified with source maps…");
execFileSync("npx", ["vite", "build", "--logLevel", "warn", "--outDir", webRoot, "--emptyOutDir", "--minify", "false", "--sourcemap"], { cwd: ROOT, stdio: "inherit" });
const dataDir = mkdtempSync(path.join(tmpdir(), "rxc-board-profile-db-"));
ensureBenchBrowser();
const server = await startBenchServer({ dataDir, env: { WEB_ROOT: webRoot, OPS_API_KEY: BENCH_OPS_KEY } });
const { browser } = await launchBenchBrowser();
try {
  const serviceDate = calendarDate(new Date(), process.env.SERVICE_TIME_ZONE || "America/New_York");
  await seedDay(server.url, serviceDate, console.log);
  const couriers = (await ops<{ couriers: { first_name: string; last_name: string }[] }>(server.url, "GET", "/api/ops/v1/couriers")).json.couriers;
  const context = await browser.newContext({ baseURL: server.url, viewport: { width: 1440, height: 900 }, locale: "en-US", timezoneId: "America/New_York" });
  // tsx keeps function names with a __name() helper; functions sent to the page need it too.
  await context.addInitScript("globalThis.__name = (target) => target;");
  const page = await context.newPage();
  await page.goto("/dispatch/login");
  await page.getByLabel("Email").fill("dispatch@example.com");
  await page.getByLabel("Password").fill("dispatch-safely");
  await page.getByRole("button", { name: "Log in" }).click();
  await page.getByRole("region", { name: /^Unassigned/ }).waitFor();
  const cdp = await context.newCDPSession(page);
  await cdp.send("Emulation.setCPUThrottlingRate", { rate: slowdown });
  console.log(`CPU slowed ${slowdown}×`);
  for (let run = 0; run < runs; run++) {
    await page.goto("/dispatch/login");
    const render = await traced(browser, page, path.join(out, `first-render-${run + 1}.json`), async () => {
      await page.goto("/dispatch", { waitUntil: "commit" });
      await page.waitForFunction((regions) => document.querySelectorAll("section.console-region").length >= regions, BOARD_COURIERS + 2, { polling: "raf", timeout: 60_000 });
      await page.waitForTimeout(300);
    });
    console.log(`run ${run + 1}, first render: ${render.join("\n")}`);
    const elements = await page.evaluate(() => {
      const count = (selector: string) => [...document.querySelectorAll(selector)].reduce((sum, el) => sum + el.querySelectorAll("*").length + 1, 0);
      return { page: document.querySelectorAll("*").length, regions: count(".console-columns"), map: count(".console-map"), attention: count(".console-attention") };
    });
    console.log(`  elements in the page: ${JSON.stringify(elements)}`);

    const unassigned = page.getByRole("region", { name: /^Unassigned/ });
    await unassigned.getByRole("checkbox").first().click();
    for (let i = 1; i < 100; i++) await page.keyboard.press("ArrowDown");
    await page.waitForFunction(() => document.activeElement?.closest("[data-index]")?.getAttribute("data-index") === "99");
    await page.locator(":focus").click({ modifiers: ["Shift"] });
    const courier = couriers[run % couriers.length]!;
    const name = `${courier.first_name} ${courier.last_name}`;
    await page.getByRole("combobox", { name: "Courier" }).selectOption({ label: name });
    const before = await page.evaluate(countIn, `Courier ${name}`);
    // Found before the trace: Playwright's own role and text queries are not the board's work.
    const button = (await page.getByRole("button", { name: "Assign", exact: true }).elementHandle())!;
    await armTap(page);
    await armPaint(page, "__assigned", `Number((document.getElementById(${JSON.stringify(`region-courier-${name.replace(/\W+/g, "-").toLowerCase()}`)})?.textContent ?? "").match(/\\((\\d+)\\)/)?.[1] ?? -1) === ${Math.max(before, 0) + 100}`);
    let shownMs = 0;
    const assign = await traced(browser, page, path.join(out, `assign-${run + 1}.json`), async () => {
      await button.click();
      shownMs = Math.round((await painted(page, "__assigned")) - (await tapAt(page)));
      await page.waitForFunction(({ title, want }) => {
        const id = `region-${title.replace(/\W+/g, "-").toLowerCase()}`;
        return Number((document.getElementById(id)?.textContent ?? "").match(/\((\d+)\)/)?.[1] ?? -1) === want;
      }, { title: `Courier ${name}`, want: Math.max(before, 0) + 100 }, { polling: "raf" });
      await page.waitForFunction((text) => [...document.querySelectorAll("[role=status]")].some((el) => el.textContent === text), `100 orders assigned to ${name}.`, { polling: 100 });
      await page.waitForTimeout(300);
    });
    console.log(`run ${run + 1}, assign 100 (shown ${shownMs} ms after the tap, traced to the answer shown): ${assign.join("\n")}`);
  }
  writeFileSync(path.join(out, "README"), "Chrome traces of the day board (scripts/bench/board-profile.ts): open in DevTools' Performance panel.\n");
} finally {
  await browser.close();
  await server.stop();
  rmSync(dataDir, { recursive: true, force: true });
  rmSync(path.dirname(webRoot), { recursive: true, force: true });
}
