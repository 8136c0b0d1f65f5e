import { chromium, type Browser } from "playwright-core";
import { ensureDebianTools, type DebianTool } from "../../../tests/support/debian-packages.ts";

/**
 * The browser every bench drives: Debian's Chromium headless shell, the same
 * Chromium build (package chromium-headless-shell) without the desktop
 * browser around the page. `chromium --headless` is the whole desktop
 * browser, hidden: on each new tab it loaded its omnibox popups
 * (chrome://omnibox-popup.top-chrome, a renderer of its own), 184–346 ms of
 * CPU in the first 1.2 s of every measured load, on a 2-core host where the
 * page's main thread then waited for a core (decision 0041). A phone's
 * browser runs no such thing beside the page. Installed with apt when
 * missing and running as root, as the tests install Chromium.
 */
const BENCH_BROWSER: DebianTool = { command: process.env.BENCH_CHROMIUM_PATH || "/usr/bin/chromium-headless-shell", debianPackage: "chromium-headless-shell" };
const ARGS = [
  "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
  "--disable-background-networking", "--disable-component-update", "--disable-sync",
];
/** How the reports name the browser (another one given by BENCH_CHROMIUM_PATH is named by its path). */
const NAME = process.env.BENCH_CHROMIUM_PATH ? `Chromium at ${BENCH_BROWSER.command}` : "Debian Chromium headless shell";

/** Called before any server starts, so that a failed install leaves nothing running. */
export function ensureBenchBrowser(): void {
  ensureDebianTools([BENCH_BROWSER]);
}

/** The bench's browser, and its name and version for the result. */
export async function launchBenchBrowser(extraArgs: readonly string[] = []): Promise<{ browser: Browser; name: string }> {
  const browser = await chromium.launch({ executablePath: BENCH_BROWSER.command, args: [...ARGS, ...extraArgs] });
  return { browser, name: `${NAME} ${browser.version()}` };
}

/** What a bench's result records of its browser. */
export interface MeasuredIn {
  /** The browser and its version; results recorded before decision 0041 have none (they ran `chromium --headless`). */
  browser?: string;
}

/** How a report names the browser that measured a result. */
export const browserOf = (result: MeasuredIn): string => result.browser ?? "Debian Chromium headless (the whole browser, hidden)";
