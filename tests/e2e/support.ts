import { spawn, type ChildProcess } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { chromium, type Browser, type Page } from "playwright-core";
import { afterAll, beforeAll, expect } from "vitest";
import { CHROMIUM } from "../support/debian-packages.ts";

export { CHROMIUM };
export const PHONE = { width: 390, height: 844 };
export const SCREENSHOTS = path.resolve("test-results/screenshots");

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => (typeof address === "object" && address ? resolve(address.port) : reject(new Error("no port"))));
    });
  });
}

export interface RunningServer {
  url: string;
  port: number;
  dataDir: string;
  process: ChildProcess;
  stop(signal?: NodeJS.Signals): Promise<void>;
}

/** The real server (`tsx server/main.ts`) on a free port with its own embedded database. */
export async function startServer(env: Record<string, string> = {}, existing?: { dataDir: string; port: number }): Promise<RunningServer> {
  const port = existing?.port ?? (await freePort());
  const dataDir = existing?.dataDir ?? mkdtempSync(path.join(tmpdir(), "rxc-e2e-"));
  const child = spawn(process.execPath, ["--import", "tsx", "server/main.ts"], {
    env: { ...process.env, PORT: String(port), HOST: "127.0.0.1", DATA_DIR: dataDir, LOG_LEVEL: "warn", ...env },
    stdio: ["ignore", "inherit", "inherit"],
  });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    try {
      // Each probe bounded: a server that accepts but never answers must not hang the hook.
      const response = await fetch(`${url}/api/health`, { signal: AbortSignal.timeout(5_000) });
      if (response.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error("server did not start in 60 s");
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return {
    url,
    port,
    dataDir,
    process: child,
    async stop(signal = "SIGTERM") {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once("exit", resolve));
        child.kill(signal);
        await exited;
      }
    },
  };
}

export function removeDataDir(server: RunningServer): void {
  rmSync(server.dataDir, { recursive: true, force: true });
}

/**
 * Debian's Chromium, headless. A launch that hangs (seen once in CI on a busy
 * machine: Playwright's own limit is 180 s, the whole hook's budget) is given
 * up after 60 s and tried once more. `args` adds launch flags (the fake camera
 * of the scanner test).
 */
export async function launchBrowser({ args = [] as string[] } = {}): Promise<Browser> {
  const launch = () =>
    chromium.launch({
      executablePath: CHROMIUM,
      timeout: 60_000,
      args: [
        "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync",
        ...args,
      ],
    });
  try {
    return await launch();
  } catch (error) {
    if (!(error instanceof Error && error.name === "TimeoutError")) throw error;
    return launch();
  }
}

/**
 * A phone-sized page (390×844, touch) on the given server. `serviceWorkers:
 * "block"` keeps every request in reach of page.route (the app's service
 * worker would otherwise fetch and serve some of them itself). `enforceCsp`
 * keeps the app's Content-Security-Policy in force (no axe scan on such a page).
 */
export async function phonePage(
  browser: Browser,
  baseURL: string,
  { serviceWorkers = "allow" as "allow" | "block", enforceCsp = false } = {},
): Promise<Page> {
  const context = await browser.newContext({
    serviceWorkers,
    baseURL,
    viewport: PHONE,
    deviceScaleFactor: 2,
    isMobile: true,
    hasTouch: true,
    locale: "en-US",
    timezoneId: "America/New_York",
    // axe-core is injected as an inline script; the app's CSP (rightly) forbids those.
    bypassCSP: !enforceCsp,
  });
  return context.newPage();
}

/**
 * Resolves once the app's service worker is active and controls the page.
 * Its clients.claim() can miss a page that was still loading when the worker
 * activated (Chromium claims only pages ready to run script), and such a page
 * stays uncontrolled; a navigation after activation always is, so one reload
 * settles it instead of waiting for a controllerchange that may never come.
 */
export async function serviceWorkerInControl(page: Page): Promise<void> {
  const active = await page.evaluate(() =>
    Promise.race([
      navigator.serviceWorker.ready.then(() => true),
      new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 60_000)),
    ]),
  );
  if (!active) throw new Error("the service worker did not activate in 60 s");
  if (!(await page.evaluate(() => navigator.serviceWorker.controller !== null))) await page.reload();
  expect(await page.evaluate(() => navigator.serviceWorker.controller !== null), "service worker in control").toBe(true);
}

export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  const file = path.join(SCREENSHOTS, `${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  return file;
}

/**
 * The stylesheets the page applies, in cascade order: "inline" for a <style>, else the file's path. The first screen's
 * stylesheet is inline in the page and must stay first; a screen's own comes after it (issue 29, vite.config.ts).
 */
export async function appliedStylesheets(page: Page): Promise<string[]> {
  return page.evaluate(() => [...document.styleSheets].filter((sheet) => !sheet.disabled).map((sheet) => (sheet.href ? new URL(sheet.href).pathname : "inline")));
}

const axeSource = readFileSync(path.resolve("node_modules/axe-core/axe.min.js"), "utf8");

/** axe-core in the page: WCAG 2 A/AA rules must report no violation. */
export async function expectAccessible(page: Page): Promise<void> {
  await page.addScriptTag({ content: axeSource });
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (context: Document, options: object) => Promise<{ violations: { id: string; help: string; nodes: { target: string[] }[] }[] }> } }).axe;
    const result = await axe.run(document, { runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"] } });
    return result.violations.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(" ")).join(", ")})`);
  });
  expect(violations).toEqual([]);
}

/**
 * Every visible target is at least 44×44 CSS px (one thumb, a moving courier).
 * The console checks its buttons and checkboxes on a tablet with `of`, and its
 * board's row checkboxes at WCAG 2.5.8's least, 24 px, with `leastCheckbox`.
 */
export async function expectTapTargets(
  page: Page,
  { of = "button, a[href], input[type=checkbox], input[type=radio], select", least = 44, leastCheckbox }: { of?: string; least?: number; leastCheckbox?: number } = {},
): Promise<void> {
  const small = await page.evaluate(
    ({ of, least, leastCheckbox }) =>
      [...document.querySelectorAll<HTMLElement>(of)]
        .filter((el) => el.offsetParent !== null && !el.closest(".inline-link"))
        .map((el) => ({ el, box: el.getBoundingClientRect(), min: el instanceof HTMLInputElement && el.type === "checkbox" ? leastCheckbox : least }))
        .filter(({ box, min }) => box.width < min || box.height < min)
        .map(({ el, box }) => {
          const labelledBy = el.getAttribute("aria-labelledby");
          const name = el.textContent || el.getAttribute("aria-label") || (labelledBy && document.getElementById(labelledBy)?.textContent) || "";
          return `${el.tagName.toLowerCase()} "${name.trim()}" ${Math.round(box.width)}×${Math.round(box.height)}`;
        }),
    { of, least, leastCheckbox: leastCheckbox ?? least },
  );
  expect(small).toEqual([]);
}

export async function logIn(page: Page, email = "courier@example.com", password = "deliver-safely"): Promise<void> {
  await page.goto("/login");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Log in" }).click();
}

/** An API call made from inside the logged-in page (its cookie, the session's CSRF token), for test setup and checks. */
export async function pageApi<T = unknown>(page: Page, method: string, path: string, body?: unknown): Promise<{ status: number; body: T }> {
  return page.evaluate(
    async ({ method, path, body }) => {
      // Bounded: page.evaluate has no time limit of its own, and a hung call must fail the test, not outlast its hook.
      const session = await (await fetch("/api/sessions/current", { signal: AbortSignal.timeout(30_000) })).json();
      const response = await fetch(path, {
        method,
        headers: { "Content-Type": "application/json", "X-CSRF-Token": session.csrf_token },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(30_000),
      });
      const text = await response.text();
      return { status: response.status, body: text ? JSON.parse(text) : null };
    },
    { method, path, body },
  ) as Promise<{ status: number; body: T }>;
}

/** The server and the browser one test file runs against. */
export interface E2eRun {
  server: RunningServer;
  browser: Browser;
}

/** Starts the file's server (with `env`) and browser before its tests; closes them and removes the server's data after. */
export function runForFile(env: Record<string, string> = {}): E2eRun {
  const run: Partial<E2eRun> = {};
  beforeAll(async () => {
    run.server = await startServer(env);
    run.browser = await launchBrowser();
  });
  afterAll(async () => {
    await run.browser?.close();
    await run.server?.stop();
    if (run.server) removeDataDir(run.server);
  });
  // Read by the tests only, after beforeAll has set both.
  return {
    get server() {
      if (!run.server) throw new Error("the server starts in beforeAll");
      return run.server;
    },
    get browser() {
      if (!run.browser) throw new Error("the browser starts in beforeAll");
      return run.browser;
    },
  };
}
