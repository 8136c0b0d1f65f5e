import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { ItineraryResponse, Order } from "../../domain/contract/index.ts";
import { TEXT } from "../../domain/texts.ts";
import { openDatabase } from "../../server/db/client.ts";
import { expectAccessible, expectTapTargets, launchBrowser, logIn, phonePage, removeDataDir, screenshot, serviceWorkerInControl, startServer, type RunningServer, pageApi } from "./support.ts";

/**
 * Issue 6 at 390×844: the phone loses network mid-delivery; one signed and
 * one failed delivery are finished offline, the page is reloaded offline,
 * the network comes back (first to a stopped server, then to a restarted
 * one) and each delivery arrives exactly once.
 */

let server: RunningServer;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let orders: Order[] = [];

const api = <T = unknown>(method: string, path: string, body?: unknown) => pageApi<T>(page, method, path, body);

const order = (first: string, last: string) => orders.find((o) => o.patient_first_name === first && o.patient_last_name === last)!;
const button = (name: string) => page.getByRole("button", { name, exact: true });
const atStep = (step: string) => expect.poll(() => new URL(page.url()).pathname).toMatch(new RegExp(`/${step}$`));
const banner = () => page.getByRole("region", { name: "Incomplete orders" }).getByText(TEXT.incompleteOrderBanner, { exact: true });

async function sign() {
  const pad = page.getByRole("img", { name: /Signature pad/ });
  await pad.waitFor();
  const box = (await pad.boundingBox())!;
  await page.mouse.move(box.x + 30, box.y + 120);
  await page.mouse.down();
  for (let i = 1; i <= 12; i++) await page.mouse.move(box.x + 30 + i * 22, box.y + 120 + (i % 2 ? -40 : 30), { steps: 3 });
  await page.mouse.up();
}

beforeAll(async () => {
  server = await startServer();
  browser = await launchBrowser();
  page = await phonePage(browser, server.url);
  context = page.context();
  await logIn(page);
  await page.waitForURL((url) => !url.pathname.startsWith("/login"));
  const day = (await api<ItineraryResponse>("GET", "/api/courier/itinerary")).body;
  orders = day.orders;
  const pending = day.pharmacy_visits.filter((v) => v.confirmed === null).map((v) => ({ id: v.id, confirmed: true }));
  expect((await api("POST", `/api/couriers/${day.courier.id}/pharmacy_visits/confirm`, { pharmacy_visits: pending })).status).toBe(200);
  for (const [first, last] of [["Walter", "Brennan"], ["Harold", "Johnson"]] as const) {
    expect((await api("POST", `/api/orders/${order(first, last).id}/pickups`, {})).status).toBe(200);
  }
  // The app shell must be in the service worker before the network goes.
  await page.goto("/pharmacies");
  await serviceWorkerInControl(page);
  await page.getByRole("button", { name: "Refresh" }).click();
  await page.getByRole("heading", { name: "Pharmacies" }).waitFor();
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  if (server) removeDataDir(server);
});

it("keeps what the courier records offline, survives an offline reload and a server restart, and sends each delivery once", async () => {
  const walter = order("Walter", "Brennan");
  const harold = order("Harold", "Johnson");

  // Mid-delivery the signal goes.
  await page.goto(`/pharmacies/${walter.pharmacy.id}/deliver_orders/${walter.id}/address`);
  await atStep("address");
  await context.setOffline(true);

  // A signed delivery, offline.
  await button(TEXT.presentAtAddress).click();
  await atStep("verify-dob");
  await button(TEXT.dobVerified).click();
  await atStep("recipient");
  await page.getByRole("radio", { name: "Patient" }).check();
  await button(TEXT.continue).click();
  await atStep("signature");
  await sign();
  await expect.poll(() => button(TEXT.continue).isEnabled()).toBe(true);
  await button(TEXT.continue).click();
  await atStep("finished");
  await expect.poll(() => banner().isVisible()).toBe(true);

  // A failed delivery, offline (client-side navigation: no server needed).
  await page.getByRole("link", { name: TEXT.backToOrders }).click();
  await page.getByRole("link", { name: /Harold Johnson/ }).click();
  await atStep("address");
  await button(TEXT.addressIncorrect).click();
  await page.getByRole("alertdialog").getByRole("button", { name: "OK", exact: true }).click();
  await atStep("attempted");
  await page.evaluate(() => window.scrollTo(0, 0));
  await screenshot(page, "offline-attempted-with-banner");

  // Reload without network: the shell comes from the service worker, the day and the queue from the device.
  await page.reload();
  await expect.poll(() => banner().isVisible()).toBe(true);
  await page.goto(`/pharmacies/${walter.pharmacy.id}/deliver_orders`);
  await page.getByRole("heading", { name: "Orders to deliver" }).or(page.getByRole("heading", { name: TEXT.itemsToReturn })).first().waitFor();
  await expectAccessible(page);
  await expectTapTargets(page);
  await screenshot(page, "offline-delivery-list-after-reload");

  // The network is back but the server is down: the resubmission fails as offline, nothing is lost.
  await server.stop();
  await context.setOffline(false);
  await expect.poll(() => page.getByText(TEXT.gatewayUnreachable).isVisible()).toBe(true);
  await expect.poll(() => banner().isVisible()).toBe(true);
  await screenshot(page, "offline-server-down");

  // The server returns; Try again drains the queue, in order, once each.
  server = await startServer({}, { dataDir: server.dataDir, port: server.port });
  await button(TEXT.tryAgain).click();
  await expect.poll(() => banner().isVisible(), { timeout: 30_000 }).toBe(false);

  const after = (await api<ItineraryResponse>("GET", "/api/courier/itinerary")).body.orders;
  expect(after.find((o) => o.id === walter.id)!.status.name).toBe("delivered");
  expect(after.find((o) => o.id === harold.id)!.status.name).toBe("delivery_attempted");

  // Count the rows themselves: each delivery exactly once.
  await server.stop();
  const database = await openDatabase({ dataDir: server.dataDir });
  try {
    const result = await database.db.execute(
      `select order_id, count(*)::int as n from delivery_orders where order_id in (${walter.id}, ${harold.id}) group by order_id order by order_id`,
    );
    const rows = ((result as unknown as { rows: { order_id: number; n: number }[] }).rows ?? []).map((r) => [r.order_id, r.n]);
    expect(rows).toEqual([[Math.min(walter.id, harold.id), 1], [Math.max(walter.id, harold.id), 1]]);
  } finally {
    await database.close();
  }
});
