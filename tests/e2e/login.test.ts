import { expect, it } from "vitest";
import type { ItineraryResponse } from "../../domain/contract/index.ts";
import { expectAccessible, expectTapTargets, logIn, pageApi, phonePage, screenshot, serviceWorkerInControl, runForFile } from "./support.ts";

const run = runForFile({ SUPPORT_PHONE: "18005550199" });

it("logs in as the demo courier, shows the navigation bar, and logs out", async () => {
  const page = await phonePage(run.browser, run.server.url);
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
  const page = await phonePage(run.browser, run.server.url, { enforceCsp: true });
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

it("on a shared phone the next courier lands home, not on the page the last one logged out from; Back never reopens the menu (issue 17)", async () => {
  // Service workers blocked: the day's request stays in reach of page.route (the loading screen is held open below).
  const page = await phonePage(run.browser, run.server.url, { serviceWorkers: "block" });
  await logIn(page);
  await page.waitForURL((url) => !url.pathname.startsWith("/login"));
  const day = (await pageApi<ItineraryResponse>(page, "GET", "/api/courier/itinerary")).body;
  // Answer the pending visit so the demo courier may stay on a pharmacy's page.
  const pending = day.pharmacy_visits.filter((visit) => visit.confirmed === null).map((visit) => ({ id: visit.id, confirmed: true }));
  if (pending.length) expect((await pageApi(page, "POST", `/api/couriers/${day.courier.id}/pharmacy_visits/confirm`, { pharmacy_visits: pending })).status).toBe(200);
  const northside = day.pharmacy_visits.find((visit) => visit.pharmacy.name === "Northside Family Drugs")!.pharmacy;
  const checkIn = `/pharmacies/${northside.id}/verify_orders`;
  await page.goto(checkIn);
  await page.getByRole("heading", { level: 1 }).first().waitFor();

  await page.getByRole("button", { name: "Menu" }).click();
  await page.getByRole("button", { name: "Log out" }).click();
  await expect.poll(() => new URL(page.url()).pathname + new URL(page.url()).search).toBe(`/login?next=${encodeURIComponent(checkIn)}`);

  // The second courier, on the same phone, with the day's answer held back so the loading screen can be looked at.
  let releaseDay!: () => void;
  const dayHeld = new Promise<void>((resolve) => (releaseDay = resolve));
  await page.route("**/api/courier/itinerary", async (route) => {
    await dayHeld;
    await route.continue();
  });
  await page.getByLabel("Email").fill("courier2@example.com");
  await page.getByLabel("Password").fill("deliver-safely");
  await page.getByRole("button", { name: "Log in" }).click();
  await expect.poll(() => new URL(page.url()).pathname).toBe("/dashboard");
  await page.getByRole("heading", { level: 1, name: "Loading your day…" }).waitFor();
  expect(await page.getByRole("main").count()).toBe(1);
  await expectAccessible(page);
  await screenshot(page, "loading-your-day");
  releaseDay();
  await page.getByRole("heading", { level: 1, name: "Hello, Marcus" }).waitFor();
  expect(await page.getByRole("heading", { name: "Not found" }).count()).toBe(0);
  await page.unroute("**/api/courier/itinerary");

  // From the menu to 'How the app works' and Back: the page before the menu, the menu closed.
  await page.getByRole("button", { name: "Menu" }).click();
  await page.getByRole("link", { name: "How the app works" }).click();
  await expect.poll(() => new URL(page.url()).pathname).toBe("/machines");
  await page.goBack();
  await expect.poll(() => new URL(page.url()).pathname).toBe("/dashboard");
  await page.getByRole("heading", { level: 1, name: "Hello, Marcus" }).waitFor();
  expect(await page.getByRole("navigation", { name: "Account" }).count()).toBe(0);
  expect(await page.getByRole("button", { name: "Menu" }).getAttribute("aria-expanded")).toBe("false");
  await expectAccessible(page);
  await screenshot(page, "back-from-menu-page");
});
