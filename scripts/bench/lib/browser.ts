import { CHROMIUM_HEADLESS_SHELL_TOOL, ensureDebianTools } from "../../../tests/support/debian-packages.ts";

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
export const CHROMIUM = CHROMIUM_HEADLESS_SHELL_TOOL.command;
export const CHROMIUM_ARGS = [
  "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
  "--disable-background-networking", "--disable-component-update", "--disable-sync",
];
/** How the reports name the browser (another one given by BENCH_CHROMIUM_PATH is named by its path). */
export const BROWSER_NAME = process.env.BENCH_CHROMIUM_PATH ? `Chromium at ${CHROMIUM}` : "Debian Chromium headless shell";
/** What a result recorded before decision 0041 was measured with. */
export const RECORDED_BEFORE_0041 = "Debian Chromium headless (the whole browser, hidden)";

export function ensureBenchBrowser(): void {
  ensureDebianTools([CHROMIUM_HEADLESS_SHELL_TOOL]);
}
