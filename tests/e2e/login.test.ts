import type { Browser } from "playwright-core";
import { afterAll, beforeAll, expect, it } from "vitest";
import { expectAccessible, expectTapTargets, launchBrowser, logIn, phonePage, removeDataDir, screenshot, serviceWorkerInControl, startServer, type RunningServer } from "./support.ts";

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

it("on a reload, the page itself asks for the session and the day, once each, and the app uses those answers (issue 9)", async () => {
  const page = await phonePage(browser, server.url, { enforceCsp: true });
  const cspViolations: string[] = [];
  page.on("console", (message) => {
    if (/Content Security Policy/i.test(message.text())) cspViolations.push(message.text());
  });
  await page.goto("/login");
  await logIn(page);
  await expect.poll(() => page.url()).toMatch(/\/confirm_pharmacy_visits$/);

  const asked: string[] = [];
  page.on("request", (request) => {
    const { pathname } = new URL(request.url());
    if (pathname.startsWith("/api/")) asked.push(`${request.method()} ${pathname}`);
  });
  // From the server, then from the service worker's copy of the page (its policy travels with it).
  for (const servedBy of ["server", "service worker"]) {
    if (servedBy === "service worker") await serviceWorkerInControl(page);
    asked.length = 0;
    await page.reload();
    await expect.poll(() => page.getByRole("button", { name: "Refresh" }).isVisible()).toBe(true);
    expect(asked.filter((call) => call === "GET /api/sessions/current"), servedBy).toHaveLength(1);
    expect(asked.filter((call) => call === "GET /api/courier/itinerary"), servedBy).toHaveLength(1);
    // Both early requests were started by index.html and taken over by the app.
    expect(await page.evaluate(() => window.rxcEarlyRequests && Object.keys(window.rxcEarlyRequests)), servedBy).toEqual([]);
  }
  expect(cspViolations).toEqual([]);
});
