import { expect, it } from "vitest";
import { consoleLoggedIn, consolePage, DISPATCHER_EMAIL, PHARMACIST_EMAIL, submitLogIn, TABLET } from "./console-support.ts";
import { expectAccessible, phonePage, screenshot, serviceWorkerInControl, runForFile } from "./support.ts";

/** Issue 27: the dispatch console, a page of its own under /dispatch, for a desktop first. */
const run = runForFile();

it("a dispatcher logs in at /dispatch/login and sees the day board; wrong password in words; axe clean at 1440×900", async () => {
  const page = await consolePage(run);
  await page.goto("/dispatch");
  await expect.poll(() => page.url()).toMatch(/\/dispatch\/login$/);
  await expect.poll(() => page.getByRole("button", { name: "Log in" }).isVisible()).toBe(true);
  expect(await page.title()).toBe("Rx Courier dispatch");
  await expectAccessible(page);
  await screenshot(page, "console-login");

  await submitLogIn(page, DISPATCHER_EMAIL, "wrong-password");
  await expect.poll(() => page.getByRole("alert").textContent()).toBe("The email or password is incorrect.");
  await expectAccessible(page);
  await screenshot(page, "console-login-error");

  await submitLogIn(page, DISPATCHER_EMAIL);
  await expect.poll(() => page.getByRole("heading", { name: "Day board" }).isVisible()).toBe(true);
  expect(new URL(page.url()).pathname).toBe("/dispatch");
  // The demo day: today's orders, the demo courier's among them, and the live stream open.
  await expect.poll(() => page.getByRole("region", { name: /^Unassigned/ }).isVisible()).toBe(true);
  await expect.poll(() => page.getByRole("region", { name: /^Courier Dana Whitfield/ }).isVisible()).toBe(true);
  await expect.poll(() => page.getByRole("status").filter({ hasText: "Live" }).isVisible()).toBe(true);
  await expectAccessible(page);
  await screenshot(page, "console-board");

  // Live: an assignment made elsewhere (here, the ops API with this session from another tab) shows without a reload.
  const unassigned = page.getByRole("region", { name: /^Unassigned/ });
  await expect.poll(() => unassigned.getByText("Kevin Lambert").isVisible()).toBe(true);
  const other = await page.context().newPage();
  await other.goto("/dispatch");
  const assigned = await other.evaluate(async () => {
    const accept = { Accept: "application/vnd.rxcourier.v1+json" };
    const session = (await (await fetch("/api/ops/v1/sessions/current", { headers: accept })).json()) as { csrf_token: string };
    const orders = (await (await fetch("/api/ops/v1/orders?limit=200", { headers: accept })).json()) as { orders: { id: number; patient_first_name: string; service_date: string }[] };
    const couriers = (await (await fetch("/api/ops/v1/couriers", { headers: accept })).json()) as { couriers: { id: number; first_name: string }[] };
    const kevin = orders.orders.find((order) => order.patient_first_name === "Kevin")!;
    const marcus = couriers.couriers.find((courier) => courier.first_name === "Marcus")!;
    const response = await fetch("/api/ops/v1/assignments", {
      method: "POST",
      headers: { ...accept, "Content-Type": "application/json", "X-CSRF-Token": session.csrf_token },
      body: JSON.stringify({ courier_id: marcus.id, service_date: kevin.service_date, order_ids: [kevin.id] }),
    });
    return response.status;
  });
  expect(assigned).toBe(200);
  await other.close();
  await expect.poll(() => page.getByRole("region", { name: /^Courier Marcus Ortega/ }).getByText("Kevin Lambert").isVisible(), { timeout: 5_000 }).toBe(true);
  expect(await unassigned.getByText("Kevin Lambert").count()).toBe(0);

  // A reload keeps the session (the cookie), and logging out ends it on the server.
  await page.reload();
  await expect.poll(() => page.getByRole("heading", { name: "Day board" }).isVisible()).toBe(true);
  await page.getByRole("button", { name: "Log out" }).click();
  await expect.poll(() => page.url()).toMatch(/\/dispatch\/login$/);
  const current = await page.evaluate(async () => (await fetch("/api/ops/v1/sessions/current")).status);
  expect(current).toBe(401);
  await page.context().close();
});

it("a pharmacist's board shows their pharmacy's orders only", async () => {
  const page = await consoleLoggedIn(run, PHARMACIST_EMAIL);
  await expect.poll(() => page.getByText("Riverside Community Pharmacy", { exact: false }).count()).toBeGreaterThan(0);
  await expect.poll(() => page.getByRole("status").filter({ hasText: "Live" }).isVisible()).toBe(true);
  for (const other of ["Market Street Apothecary", "Northside Family Drugs", "Greenway Health Pharmacy", "Lakeside Specialty Pharmacy"]) {
    expect(await page.getByText(other, { exact: false }).count(), other).toBe(0);
  }
  await expectAccessible(page);
  await screenshot(page, "console-board-pharmacist");
  await page.context().close();
});

it("is usable on a tablet at 768×1024: the login and the board fit the width", async () => {
  const page = await consolePage(run, { viewport: TABLET });
  await page.goto("/dispatch/login");
  await expect.poll(() => page.getByRole("button", { name: "Log in" }).isVisible()).toBe(true);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(TABLET.width);
  await expectAccessible(page);
  await screenshot(page, "console-login-tablet");
  await submitLogIn(page, DISPATCHER_EMAIL);
  await expect.poll(() => page.getByRole("region", { name: /^Courier Dana Whitfield/ }).isVisible()).toBe(true);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(TABLET.width);
  await expectAccessible(page);
  await screenshot(page, "console-board-tablet");
  await page.context().close();
});

it("the courier's service worker, in control, leaves /dispatch to the server; the console runs under its CSP", async () => {
  const page = await phonePage(run.browser, run.server.url, { enforceCsp: true });
  const cspViolations: string[] = [];
  page.on("console", (message) => {
    if (/Content Security Policy/i.test(message.text())) cspViolations.push(message.text());
  });
  await page.goto("/login");
  await serviceWorkerInControl(page);

  const response = await page.goto("/dispatch/login");
  expect(response?.fromServiceWorker(), "served by the server, not the courier's worker").toBe(false);
  expect(response?.headers()["content-security-policy"]).toContain("script-src 'self'");
  expect(await page.title()).toBe("Rx Courier dispatch");
  await submitLogIn(page, DISPATCHER_EMAIL);
  await expect.poll(() => page.getByRole("heading", { name: "Day board" }).isVisible()).toBe(true);

  // The worker's precache holds the courier's page and none of the console's.
  const cached = await page.evaluate(async () => {
    const urls: string[] = [];
    for (const name of await caches.keys()) for (const request of await (await caches.open(name)).keys()) urls.push(new URL(request.url).pathname);
    return urls;
  });
  expect(cached.some((url) => url.startsWith("/index.html"))).toBe(true);
  expect(cached.filter((url) => url.includes("dispatch"))).toEqual([]);
  expect(cspViolations).toEqual([]);
  await page.context().close();
});
