import type { Browser } from "playwright-core";
import { afterAll, beforeAll, expect, it } from "vitest";
import { expectAccessible, expectTapTargets, launchBrowser, logIn, phonePage, removeDataDir, screenshot, startServer, type RunningServer } from "./support.ts";

let server: RunningServer;
let browser: Browser;

beforeAll(async () => {
  server = await startServer({ SUPPORT_PHONE: "18005550199" });
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
  if (server) removeDataDir(server);
});

it("logs in as the demo courier, shows the navigation bar, and logs out", async () => {
  const page = await phonePage(browser, server.url);
  await page.goto("/dashboard");
  await expect.poll(() => page.url()).toContain("/login?next=%2Fdashboard");
  await expect.poll(() => page.getByRole("button", { name: "Log in" }).isVisible()).toBe(true);
  await expectAccessible(page);
  await expectTapTargets(page);
  await screenshot(page, "login");

  await page.getByLabel("Email").fill("courier@example.com");
  await page.getByLabel("Password").fill("wrong-password");
  await page.getByRole("button", { name: "Log in" }).click();
  await expect.poll(() => page.getByRole("alert").textContent()).toBe("The email or password is incorrect.");
  await screenshot(page, "login-error");

  await logIn(page);
  // The demo courier has a pending visit confirmation: every screen sends them there first (spec §2).
  await expect.poll(() => page.url()).toMatch(/\/confirm_pharmacy_visits$/);
  expect(await page.getByRole("link", { name: "Home" }).getAttribute("href")).toBe("/dashboard");
  expect(await page.getByRole("link", { name: "Help: call support at +1 (800) 555-0199" }).getAttribute("href")).toBe("tel:+18005550199");
  await expect.poll(() => page.getByRole("button", { name: "Refresh" }).isVisible()).toBe(true);
  await expectAccessible(page);
  await expectTapTargets(page);
  await screenshot(page, "navigation-bar");

  await page.getByRole("button", { name: "Menu" }).click();
  await expect.poll(() => page.getByText("Dana Whitfield").isVisible()).toBe(true);
  await screenshot(page, "menu");
  await page.getByRole("button", { name: "Log out" }).click();
  await expect.poll(() => page.url()).toMatch(/\/login/);

  // The session is gone on the server too.
  const current = await page.evaluate(async () => (await fetch("/api/sessions/current")).status);
  expect(current).toBe(401);
});
