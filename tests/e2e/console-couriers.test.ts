import type { Page } from "playwright-core";
import { expect, it } from "vitest";
import { CONSOLE_TAP_TARGETS, consolePage, DISPATCHER_EMAIL, logInToConsole, PHARMACIST_EMAIL, TABLET } from "./console-support.ts";
import { expectAccessible, expectTapTargets, runForFile, screenshot } from "./support.ts";

/** Issue 27: the console's Couriers screen, the board's map (drawn with no network beyond our server) and Plan the day. */
const OTHER_PHARMACIES = ["Market Street Apothecary", "Northside Family Drugs", "Greenway Health Pharmacy", "Lakeside Specialty Pharmacy"];

const run = runForFile();

/** Logged in as `email`, every request of the page recorded: the map must need nothing beyond our server. */
async function recordedConsole(email: string): Promise<{ page: Page; elsewhere: string[] }> {
  const page = await consolePage(run);
  const elsewhere: string[] = [];
  page.on("request", (request) => {
    const url = request.url();
    if (!url.startsWith(run.server.url) && !url.startsWith("data:") && !url.startsWith("blob:")) elsewhere.push(url);
  });
  await logInToConsole(page, email);
  return { page, elsewhere };
}

it("a dispatcher invites a courier and deactivates them, by keyboard, with the confirmation and the link; axe clean at 1440×900 and 768×1024", async () => {
  const { page } = await recordedConsole(DISPATCHER_EMAIL);
  await page.getByRole("navigation", { name: "Console" }).getByRole("link", { name: "Couriers" }).click();
  await expect.poll(() => page.getByRole("heading", { name: "Couriers", level: 1 }).isVisible()).toBe(true);
  expect(new URL(page.url()).pathname).toBe("/dispatch/couriers");
  await expect.poll(() => page.getByRole("rowheader", { name: /Dana Whitfield/ }).isVisible()).toBe(true);
  await expectAccessible(page);
  await screenshot(page, "console-couriers");

  // The form by keyboard: a mistake first, said by field.
  await page.getByLabel("First name").focus();
  await page.keyboard.type("Ana");
  await page.keyboard.press("Tab");
  await page.keyboard.type("Ruiz");
  await page.keyboard.press("Tab");
  await page.keyboard.type("ana.ruiz");
  await page.keyboard.press("Enter");
  await expect.poll(() => page.getByText("Email must be an email address.").isVisible()).toBe(true);
  await page.getByLabel("Email").fill("ana.ruiz@example.com");
  await page.getByLabel("Phone number (optional)").fill("215.555.0166");
  await page.keyboard.press("Enter");
  await expect.poll(() => page.getByText(/^Ana Ruiz is invited\./).isVisible(), { timeout: 10_000 }).toBe(true);
  const link = await page.getByLabel("Set-password link").inputValue();
  expect(link).toMatch(new RegExp(`^${run.server.url}/set-password\\?token=[\\w-]+`));
  const row = page.getByRole("row").filter({ has: page.getByRole("rowheader", { name: /Ana Ruiz/ }) });
  await expect.poll(() => row.getByRole("cell").first().textContent()).toBe("Invited, no password yet");
  // Her phone for reading in the list.
  expect(await row.getByRole("rowheader").textContent()).toBe("Ana Ruizana.ruiz@example.com(215) 555-0166");
  await expectAccessible(page);
  await screenshot(page, "console-couriers-invited");

  // The link opens the set-password screen couriers use.
  const setPassword = await run.browser.newPage();
  await setPassword.goto(link);
  await expect.poll(() => setPassword.getByRole("button").first().isVisible()).toBe(true);
  await setPassword.close();

  // Deactivate: reachable by keyboard, confirmed, said in words.
  await page.getByRole("button", { name: "Deactivate Ana Ruiz" }).focus();
  await page.keyboard.press("Enter");
  const dialog = page.getByRole("alertdialog", { name: "Deactivate Ana Ruiz?" });
  await expect.poll(() => dialog.isVisible()).toBe(true);
  await expectAccessible(page);
  await screenshot(page, "console-couriers-confirm");
  expect(await page.evaluate(() => document.activeElement?.textContent)).toBe("Deactivate");
  await page.keyboard.press("Enter");
  await expect.poll(() => page.getByText("Ana Ruiz is deactivated: they can no longer log in, and their sessions have ended.").isVisible(), { timeout: 10_000 }).toBe(true);
  await expect.poll(() => row.getByRole("cell").first().textContent()).toBe("Deactivated");
  expect(await page.getByRole("button", { name: "Deactivate Ana Ruiz" }).count()).toBe(0);
  // The server agrees: she is inactive.
  const couriers = await page.evaluate(async () => (await (await fetch("/api/ops/v1/couriers", { headers: { Accept: "application/vnd.rxcourier.v1+json" } })).json()) as { couriers: { email: string; active: boolean }[] });
  expect(couriers.couriers.find((courier) => courier.email === "ana.ruiz@example.com")?.active).toBe(false);

  await page.setViewportSize(TABLET);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(TABLET.width);
  await expectTapTargets(page, CONSOLE_TAP_TARGETS);
  await expectAccessible(page);
  await screenshot(page, "console-couriers-tablet");
  await page.context().close();
});

it("the board's map draws the day's pharmacies, stops and routes with no request beyond our server", async () => {
  const { page, elsewhere } = await recordedConsole(DISPATCHER_EMAIL);
  const map = page.getByRole("region", { name: "Map" });
  await expect.poll(() => map.locator(".leaflet-container").count(), { timeout: 15_000 }).toBe(1);
  await expect.poll(() => map.locator("path.console-map__stop").count()).toBeGreaterThan(0);
  const pharmacies = await map.locator("path.console-map__pharmacy").count();
  expect(pharmacies).toBeGreaterThan(1);
  expect(await map.locator("path.console-map__route").count()).toBeGreaterThan(0);
  expect(await map.locator(".leaflet-tile").count()).toBe(0);
  await map.getByText("The map as a list").click();
  await expect.poll(() => map.getByRole("heading", { name: /^Courier Dana Whitfield \(\w+ line\)$/ }).isVisible()).toBe(true);
  await map.scrollIntoViewIfNeeded();
  await expectAccessible(page);
  await screenshot(page, "console-board-map");
  expect(elsewhere).toEqual([]);

  await page.setViewportSize(TABLET);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(TABLET.width);
  await screenshot(page, "console-board-map-tablet");
  await page.context().close();
});

it("a pharmacist's map shows their pharmacy's stops only, and no 'Couriers' or 'Plan the day' for them", async () => {
  const { page, elsewhere } = await recordedConsole(PHARMACIST_EMAIL);
  const nav = page.getByRole("navigation", { name: "Console" });
  expect(await nav.getByRole("link").allTextContents()).toEqual(["Board", "Import orders", "Returns"]);
  const map = page.getByRole("region", { name: "Map" });
  await expect.poll(() => map.locator("path.console-map__stop").count(), { timeout: 15_000 }).toBeGreaterThan(0);
  // Their orders with coordinates, by the API as they see it: exactly the stops drawn.
  const theirs = await page.evaluate(async () => {
    const body = (await (await fetch("/api/ops/v1/orders?limit=200", { headers: { Accept: "application/vnd.rxcourier.v1+json" } })).json()) as {
      orders: { pharmacy: { name: string }; status: { name: string }; address: { latitude: number | null }; service_date: string }[];
    };
    return body.orders;
  });
  const today = await page.getByLabel("Service date").inputValue();
  const drawable = theirs.filter((order) => order.service_date === today && order.status.name !== "cancelled" && order.address.latitude !== null);
  expect(new Set(theirs.map((order) => order.pharmacy.name))).toEqual(new Set(["Riverside Community Pharmacy"]));
  expect(await map.locator("path.console-map__stop").count()).toBe(drawable.length);
  expect(await map.locator("path.console-map__pharmacy").count()).toBe(1);
  await map.getByText("The map as a list").click();
  const words = (await map.textContent()) ?? "";
  for (const other of OTHER_PHARMACIES) expect(words, other).not.toContain(other);
  await map.scrollIntoViewIfNeeded();
  await expectAccessible(page);
  await screenshot(page, "console-board-map-pharmacist");

  await page.goto("/dispatch/couriers");
  await expect.poll(() => page.getByRole("alert").textContent()).toContain("Couriers is for dispatchers of the courier company.");
  expect(elsewhere).toEqual([]);
  await page.context().close();
});

it("Plan the day: choose couriers, propose, see it per courier and on the map, apply; a plan made stale by another dispatcher is refused in words", async () => {
  const { page, elsewhere } = await recordedConsole(DISPATCHER_EMAIL);
  // Three new orders of Riverside's with no courier, as a pharmacy system sends them: the day's plan shares them out.
  const created = await page.evaluate(async () => {
    const accept = { Accept: "application/vnd.rxcourier.v1+json" };
    const session = (await (await fetch("/api/ops/v1/sessions/current", { headers: accept })).json()) as { csrf_token: string };
    const { pharmacies } = (await (await fetch("/api/ops/v1/pharmacies", { headers: accept })).json()) as { pharmacies: { id: number; name: string }[] };
    const riverside = pharmacies.find((pharmacy) => pharmacy.name === "Riverside Community Pharmacy")!;
    const statuses: number[] = [];
    for (const [index, [first, last, lat, lng]] of ([["Nora", "Quinlan", 39.9452, -75.1795], ["Omar", "Haddad", 39.9387, -75.1612], ["Lena", "Voss", 39.9521, -75.1589]] as const).entries()) {
      const response = await fetch("/api/ops/v1/orders", {
        method: "POST",
        headers: { ...accept, "Content-Type": "application/json", "X-CSRF-Token": session.csrf_token },
        body: JSON.stringify({
          pharmacy_id: riverside.id,
          external_id: `PLAN-${index + 1}`,
          patient_first_name: first,
          patient_last_name: last,
          phone_number: "215-555-0177",
          address: { street_address: `${400 + index} Pine St`, city: "Philadelphia", state_abbreviation: "PA", zipcode: "19106", latitude: lat, longitude: lng },
          rx_numbers: [`RX-90${index}`],
          copay: "0.00",
        }),
      });
      statuses.push(response.status);
    }
    return statuses;
  });
  expect(created).toEqual([201, 201, 201]);
  await page.getByRole("navigation", { name: "Console" }).getByRole("link", { name: "Plan the day" }).click();
  await expect.poll(() => page.getByRole("heading", { name: "Plan the day", level: 1 }).isVisible()).toBe(true);
  await expect.poll(() => page.getByRole("checkbox", { name: "Marcus Ortega" }).isVisible()).toBe(true);
  await expect.poll(() => page.getByText(/^3 new orders of the day have no courier yet/).isVisible()).toBe(true);
  await expectAccessible(page);
  await screenshot(page, "console-plan");

  await page.getByRole("checkbox", { name: "Marcus Ortega" }).check();
  await page.getByRole("checkbox", { name: "Dana Whitfield" }).check();
  await page.getByRole("button", { name: "Plan the day" }).click();
  await expect.poll(() => page.getByRole("button", { name: "Apply plan" }).isVisible(), { timeout: 30_000 }).toBe(true);
  await expect.poll(() => page.getByText(/^Proposed: \d+ orders on \d+ couriers/).isVisible()).toBe(true);
  const planned = page.getByRole("region", { name: /^Planned for / });
  expect(await planned.count()).toBeGreaterThan(0);
  expect(await planned.first().getByRole("listitem").first().textContent()).toMatch(/^\d\d:\d\d Pickup at /);
  const map = page.getByRole("region", { name: "Map of the proposed plan" });
  await expect.poll(() => map.locator("path.console-map__route").count()).toBeGreaterThan(0);
  await expect.poll(() => map.locator("path.console-map__stop--planned").count()).toBeGreaterThan(0);
  await expectAccessible(page);
  await screenshot(page, "console-plan-proposed");

  // Meanwhile, another dispatcher plans the same day and applies it first: this plan is stale, and says so.
  const other = await page.context().newPage();
  await other.goto("/dispatch/plan");
  await other.getByRole("checkbox", { name: "Marcus Ortega" }).check();
  await other.getByRole("checkbox", { name: "Dana Whitfield" }).check();
  await other.getByRole("button", { name: "Plan the day" }).click();
  await other.getByRole("button", { name: "Apply plan" }).click({ timeout: 30_000 });
  await expect.poll(() => other.getByText(/^Plan applied: \d+ orders are on their couriers' days/).isVisible(), { timeout: 15_000 }).toBe(true);
  await expectAccessible(other);
  await screenshot(other, "console-plan-applied");
  await other.close();

  await page.getByRole("button", { name: "Apply plan" }).click();
  await expect.poll(() => page.getByRole("alert").textContent(), { timeout: 15_000 }).toMatch(/^The day changed since this plan was made\. Order \d+ changed since plan \d+ was made/);
  await expectAccessible(page);
  await screenshot(page, "console-plan-stale");
  await page.getByRole("button", { name: "Discard plan" }).click();

  // The board shows the applied plan's orders on their couriers.
  await page.getByRole("navigation", { name: "Console" }).getByRole("link", { name: "Board" }).click();
  await expect.poll(() => page.getByRole("heading", { name: "Day board" }).isVisible()).toBe(true);
  await expect.poll(() => page.getByRole("region", { name: /^Courier Marcus Ortega/ }).isVisible()).toBe(true);

  await page.setViewportSize(TABLET);
  await page.goto("/dispatch/plan");
  await expect.poll(() => page.getByRole("checkbox", { name: "Marcus Ortega" }).isVisible()).toBe(true);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(TABLET.width);
  await screenshot(page, "console-plan-tablet");
  expect(elsewhere).toEqual([]);
  await page.context().close();
});
