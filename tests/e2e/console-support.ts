import type { Page } from "playwright-core";
import { expect } from "vitest";
import type { E2eRun } from "./support.ts";

/** The console's e2e set-up, one for every console test file (with runForFile for the server and browser). */

export const DESKTOP = { width: 1440, height: 900 };
export const TABLET = { width: 768, height: 1024 };
export const DISPATCHER_EMAIL = "dispatch@example.com";
export const PHARMACIST_EMAIL = "pharmacist@example.com";
/** The demo day's staff password (README). */
export const STAFF_PASSWORD = "dispatch-safely";

/** A login (argon2) on two busy cores outlasts expect.poll's 1 s default. */
export const eventually = <T,>(read: () => Promise<T> | T) => expect.poll(read, { timeout: 15_000 });

/**
 * A page in a browser context of its own, in US English and New York time.
 * axe-core is injected as an inline script, which the console's CSP (rightly)
 * forbids: such pages bypass it unless `enforceCsp`.
 */
export async function consolePage(run: E2eRun, { viewport = DESKTOP, enforceCsp = false } = {}): Promise<Page> {
  const context = await run.browser.newContext({ baseURL: run.server.url, viewport, locale: "en-US", timezoneId: "America/New_York", bypassCSP: !enforceCsp });
  return context.newPage();
}

/** Fills the login form at /dispatch/login and presses 'Log in'. */
export async function submitLogIn(page: Page, email: string, password = STAFF_PASSWORD): Promise<void> {
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Log in" }).click();
}

/** Logs in from /dispatch/login and waits for the day board. */
export async function logInToConsole(page: Page, email = DISPATCHER_EMAIL): Promise<void> {
  await page.goto("/dispatch/login");
  await submitLogIn(page, email);
  await eventually(() => page.getByRole("heading", { name: "Day board" }).isVisible()).toBe(true);
}

/** A fresh page logged in as `email`, on the day board. */
export async function consoleLoggedIn(run: E2eRun, email = DISPATCHER_EMAIL, { viewport = DESKTOP } = {}): Promise<Page> {
  const page = await consolePage(run, { viewport });
  await logInToConsole(page, email);
  return page;
}

/** On a tablet: every button at a thumb's 44 px, the board rows' checkboxes at WCAG 2.5.8's least, 24 px. */
export const CONSOLE_TAP_TARGETS = { of: "button, input[type=checkbox]", leastCheckbox: 24 };
