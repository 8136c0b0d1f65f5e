import { mkdirSync } from "node:fs";
import path from "node:path";
import type { Page } from "playwright-core";
import { expect, it } from "vitest";
import type { ItineraryResponse } from "../../domain/contract/itinerary.ts";
import {
  expectAccessible,
  expectTapTargets,
  logIn,
  phonePage,
  screenshot,
  SCREENSHOTS, runForFile } from "./support.ts";

const run = runForFile({ SUPPORT_PHONE: "18005550199" });

/** expect.poll waits 1 s by default: too short for a login (argon2) on two busy cores. */
const eventually = <T,>(read: () => Promise<T> | T) => expect.poll(read, { timeout: 15_000 });

/** The courier's day as the server now has it (the session cookie of the page). */
const itinerary = (page: Page) =>
  page.evaluate(async () => (await (await fetch("/api/courier/itinerary")).json()) as ItineraryResponse);

async function checkScreen(page: Page, name: string, { modal = false } = {}): Promise<void> {
  await expectAccessible(page);
  await expectTapTargets(page);
  // Nothing wider than the phone: no sideways scrolling.
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  if (modal) {
    // A modal covers the viewport only: capture what the courier sees.
    mkdirSync(SCREENSHOTS, { recursive: true });
    await page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`) });
    return;
  }
  // The navigation bar is sticky: a full-page capture of a scrolled page would draw it mid-page.
  await page.evaluate(() => window.scrollTo(0, 0));
  await screenshot(page, name);
}

const row = (page: Page, name: string) => page.getByRole("article", { name, exact: true });

async function openVerify(page: Page, name: string): Promise<void> {
  await row(page, name).getByRole("link", { name: `Check-in ${name}` }).click();
  await eventually(() => page.getByRole("heading", { name: "verify order" }).isVisible()).toBe(true);
  await eventually(() => page.locator(".facts__strong").textContent()).toBe(name);
}

async function verifyWith(page: Page, name: string, copay: string | null): Promise<void> {
  await openVerify(page, name);
  const verify = page.getByRole("button", { name: "Verify order" });
  expect(await verify.isDisabled()).toBe(true);
  if (copay === null) await page.getByRole("checkbox", { name: "No copay" }).check();
  else await page.getByRole("textbox", { name: "Copay", exact: true }).pressSequentially(copay);
  await eventually(() => verify.isEnabled()).toBe(true);
  await verify.click();
  await eventually(() => page.getByRole("heading", { name: "check-in", exact: true }).isVisible()).toBe(true);
  await eventually(() => row(page, name).getByRole("img", { name: "verified" }).isVisible()).toBe(true);
}

it("confirms the pending visit, checks in at Riverside (verify with a copay, No copay, cancel) and continues to confirm_orders", async () => {
  const page = await phonePage(run.browser, run.server.url);
  await logIn(page);

  // Spec §2: a pending visit confirmation redirects every screen here.
  await eventually(() => page.url()).toMatch(/\/confirm_pharmacy_visits$/);
  await eventually(() => page.getByText("Lakeside Specialty Pharmacy").isVisible()).toBe(true);
  const submit = page.getByRole("button", { name: "Submit" });
  expect(await submit.isDisabled()).toBe(true);
  await page.goto("/pharmacies");
  await eventually(() => page.url()).toMatch(/\/confirm_pharmacy_visits$/);
  await eventually(() => page.getByText("Lakeside Specialty Pharmacy").isVisible()).toBe(true);
  await page.getByRole("radio", { name: "Yes, available" }).check();
  await eventually(() => submit.isEnabled()).toBe(true);
  await checkScreen(page, "pickup-confirm-visits");
  await submit.click();

  await eventually(() => page.url()).toMatch(/\/pharmacies$/);
  await eventually(() => page.getByRole("heading", { name: "Select pharmacy to pickup orders" }).isVisible()).toBe(true);
  const day = await itinerary(page);
  expect(day.pharmacy_visits.find((visit) => visit.pharmacy.name === "Lakeside Specialty Pharmacy")?.confirmed).toBe(true);
  const riverside = day.pharmacy_visits.find((visit) => visit.pharmacy.name === "Riverside Community Pharmacy")!;
  await checkScreen(page, "pickup-pharmacies");

  // The check-in screen: 7 orders, sorted by patient last name, Continue held back.
  await page.getByRole("link", { name: /Riverside Community Pharmacy/ }).first().click();
  await eventually(() => page.url()).toMatch(new RegExp(`/pharmacies/${riverside.pharmacy.id}/verify_orders$`));
  await eventually(() => page.getByRole("heading", { name: "check-in", exact: true }).isVisible()).toBe(true);
  expect(await page.getByRole("heading", { name: "Tap check-in to pick up or cancel order(s)" }).isVisible()).toBe(true);
  expect(await page.getByRole("heading", { name: "Pickup Instructions" }).isVisible()).toBe(true);
  expect(await page.getByText("Ring the bell at the side counter; ask for Priya.").isVisible()).toBe(true);
  expect(await page.locator(".order-row__name").allTextContents()).toEqual([
    "Eleanor Abernathy", "Walter Brennan", "Rosa Delgado", "Harold Johnson", "Margaret Johnson", "Timothy Johnson", "Grace Kowalski",
  ]);
  const continueButton = page.locator("#all-orders-verified");
  expect(await continueButton.isDisabled()).toBe(true);
  expect(await page.getByRole("link", { name: "I have an order not listed here" }).isVisible()).toBe(true);
  const mapsHref = await row(page, "Eleanor Abernathy").getByRole("link", { name: /1012 Pine St/ }).getAttribute("href");
  expect(mapsHref).toContain("https://www.google.com/maps/search/?api=1&query=1012%20Pine%20St");
  await page.getByPlaceholder("Search...").fill("johnson");
  await eventually(() => page.locator(".order-row__name").count()).toBe(3);
  await page.getByPlaceholder("Search...").fill("");
  await eventually(() => page.locator(".order-row__name").count()).toBe(7);
  await checkScreen(page, "pickup-check-in");

  // Verify one with a copay: Eleanor Abernathy, $12.50.
  await openVerify(page, "Eleanor Abernathy");
  expect(await page.getByText("03/14/1948").isVisible()).toBe(true);
  expect(await page.getByText("(215) 555-0101").isVisible()).toBe(true);
  expect(await page.getByText("Leave with doorman if patient is out.").isVisible()).toBe(true);
  // Spec §6: courier notes are hidden.
  expect(await page.getByText("Dog in yard, friendly.").count()).toBe(0);
  expect(await page.getByText("$5.00").isVisible()).toBe(true);
  const verify = page.getByRole("button", { name: "Verify order" });
  const copay = page.getByRole("textbox", { name: "Copay", exact: true });
  const noCopay = page.getByRole("checkbox", { name: "No copay" });
  expect(await verify.isDisabled()).toBe(true);
  await copay.pressSequentially("0.50");
  expect(await verify.isDisabled()).toBe(true);
  // Ticking 'No copay' clears the amount; typing unticks it.
  await noCopay.check();
  await eventually(() => copay.inputValue()).toBe("");
  await eventually(() => verify.isEnabled()).toBe(true);
  await copay.pressSequentially("12.50");
  await eventually(() => noCopay.isChecked()).toBe(false);
  await eventually(() => copay.inputValue()).toBe("$12.50");
  await eventually(() => verify.isEnabled()).toBe(true);
  await checkScreen(page, "pickup-verify-order-copay");
  await verify.click();
  await eventually(() => page.getByRole("heading", { name: "check-in", exact: true }).isVisible()).toBe(true);
  await eventually(() => row(page, "Eleanor Abernathy").getByRole("img", { name: "verified" }).isVisible()).toBe(true);

  // An order already picked up shows the verified state, verify disabled.
  const eleanor = (await itinerary(page)).orders.find((order) => order.patient_last_name === "Abernathy")!;
  await page.goto(`/pharmacies/${riverside.pharmacy.id}/verify_orders/${eleanor.id}`);
  await eventually(() => page.getByText("Verified: this order is picked up.").isVisible()).toBe(true);
  expect(await page.getByRole("button", { name: "Verify order" }).isDisabled()).toBe(true);
  await page.getByRole("link", { name: "check-in", exact: true }).click();

  // The rest: No copay, or their valid copay.
  await verifyWith(page, "Walter Brennan", null);
  await verifyWith(page, "Rosa Delgado", "45.00");
  await verifyWith(page, "Harold Johnson", null);
  await verifyWith(page, "Margaret Johnson", null);
  await verifyWith(page, "Timothy Johnson", null);
  expect(await continueButton.isDisabled()).toBe(true);

  // Cancel one through the confirm dialog.
  await openVerify(page, "Grace Kowalski");
  expect(await page.getByText("Not available").first().isVisible()).toBe(true);
  await page.getByRole("button", { name: "Cancel order" }).click();
  const dialog = page.getByRole("alertdialog");
  await eventually(() => dialog.isVisible()).toBe(true);
  expect(await dialog.textContent()).toContain("Are you sure you want to cancel this order?");
  await checkScreen(page, "pickup-cancel-confirm", { modal: true });
  await dialog.getByRole("button", { name: "Yes" }).click();
  await eventually(() => page.getByRole("heading", { name: "check-in", exact: true }).isVisible()).toBe(true);
  await eventually(() => row(page, "Grace Kowalski").getByText("cancelled").isVisible()).toBe(true);

  // Continue → confirm_orders, which records the arrival at Riverside.
  await eventually(() => continueButton.isEnabled()).toBe(true);
  await continueButton.click();
  await eventually(() => page.url()).toMatch(new RegExp(`/pharmacies/${riverside.pharmacy.id}/confirm_orders$`));
  await eventually(() => page.getByRole("button", { name: "Start order deliveries" }).isEnabled()).toBe(true);
  expect(await page.getByRole("heading", { name: /Verified orders/ }).textContent()).toBe("Verified orders (6)");
  expect(await page.getByRole("heading", { name: /Cancelled orders/ }).textContent()).toBe("Cancelled orders (1)");
  await checkScreen(page, "pickup-confirm-orders");

  const after = await itinerary(page);
  const riversideOrders = after.orders.filter((order) => order.pharmacy.id === riverside.pharmacy.id);
  const statusOf = (last: string, first: string) =>
    riversideOrders.find((order) => order.patient_last_name === last && order.patient_first_name === first)!;
  expect(statusOf("Kowalski", "Grace").status.name).toBe("cancelled");
  for (const [last, first] of [["Abernathy", "Eleanor"], ["Brennan", "Walter"], ["Delgado", "Rosa"], ["Johnson", "Harold"], ["Johnson", "Margaret"], ["Johnson", "Timothy"]] as const) {
    expect(statusOf(last, first).status.name).toBe("picked_up");
  }
  expect(statusOf("Abernathy", "Eleanor").copay).toBe("12.50");
  expect(statusOf("Delgado", "Rosa").copay).toBe("45.00");
  expect(statusOf("Brennan", "Walter").copay).toBe("0.00");
  expect(after.pharmacy_visits.find((visit) => visit.id === riverside.id)?.arrived_at).not.toBeNull();

  // Spec §2: an unknown order id at verify redirects to /pharmacies.
  await page.goto(`/pharmacies/${riverside.pharmacy.id}/verify_orders/999999`);
  await eventually(() => page.url()).toMatch(/\/pharmacies$/);
});

/** Holds back the chunk that carries imask until `release()`: the mask arrives as on a slow network. */
async function holdBackTheMask(page: Page): Promise<{ release: () => void }> {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\/assets\/[^/]+\.js$/, async (route) => {
    const response = await route.fetch();
    const body = await response.text();
    if (body.includes("IMask")) await released;
    await route.fulfill({ response, body });
  });
  return { release };
}

it("adds add-on orders at Northside: at most 3, Help and confirm sub-views, joined to the check-in list as verified", async () => {
  const page = await phonePage(run.browser, run.server.url, { serviceWorkers: "block" });
  const mask = await holdBackTheMask(page);
  await logIn(page);
  await eventually(() => page.url()).toMatch(/\/dashboard$/);
  const day = await itinerary(page);
  const northside = day.pharmacy_visits.find((visit) => visit.pharmacy.name === "Northside Family Drugs")!.pharmacy;

  await page.goto(`/pharmacies/${northside.id}/verify_orders`);
  await page.getByRole("link", { name: "I have an order not listed here" }).click();
  await eventually(() => page.url()).toMatch(new RegExp(`/pharmacies/${northside.id}/addons$`));
  await eventually(() => page.locator(".addon-row").count()).toBe(4);

  await page.getByRole("checkbox", { name: "Add Kevin Lambert" }).check();
  // The courier starts typing before the mask has arrived, and goes on after it.
  const kevinsCopay = page.getByLabel("Copay for Kevin Lambert", { exact: true });
  await kevinsCopay.pressSequentially("5.");
  mask.release();
  await eventually(() => kevinsCopay.inputValue()).toBe("$5.");
  await kevinsCopay.pressSequentially("00");
  expect(await kevinsCopay.inputValue()).toBe("$5.00");
  await page.getByRole("checkbox", { name: "Add Monica Lopez" }).check();
  await page.locator(".addon-row", { hasText: "Monica Lopez" }).getByRole("checkbox", { name: "No copay" }).check();
  await page.getByRole("checkbox", { name: "Add Nathan Moore" }).check();
  await page.getByLabel("Copay for Nathan Moore", { exact: true }).pressSequentially("12.00");
  await page.getByRole("checkbox", { name: "Add Olivia Reed" }).click();
  await eventually(() => page.getByRole("alert").textContent()).toBe("Max addon count reached");
  expect(await page.getByRole("checkbox", { name: "Add Olivia Reed" }).isChecked()).toBe(false);
  await checkScreen(page, "pickup-addons");

  await page.getByRole("button", { name: "Help" }).click();
  await eventually(() => page.getByRole("heading", { name: "add-ons help" }).isVisible()).toBe(true);
  await checkScreen(page, "pickup-addons-help");
  await page.getByRole("button", { name: "Back to add-ons" }).click();

  await page.getByRole("button", { name: "Review add-ons" }).click();
  await eventually(() => page.getByRole("heading", { name: "confirm add-ons" }).isVisible()).toBe(true);
  await checkScreen(page, "pickup-addons-confirm");
  await page.getByRole("button", { name: "Add 3 orders" }).click();

  await eventually(() => page.url()).toMatch(new RegExp(`/pharmacies/${northside.id}/verify_orders$`));
  for (const name of ["Kevin Lambert", "Monica Lopez", "Nathan Moore"]) {
    await eventually(() => row(page, name).getByRole("img", { name: "verified" }).isVisible()).toBe(true);
  }
  const after = await itinerary(page);
  const added = after.orders.filter((order) => order.addedOn);
  expect(added.map((order) => [order.patient_last_name, order.status.name, order.copay]).sort()).toEqual([
    ["Lambert", "picked_up", "5.00"],
    ["Lopez", "picked_up", "0.00"],
    ["Moore", "picked_up", "12.00"],
  ]);
});

it("shows the refresh-or-call message instead of add-ons when the flag is off", async () => {
  const page = await phonePage(run.browser, run.server.url);
  await logIn(page, "courier2@example.com");
  await eventually(() => page.url()).toMatch(/\/dashboard$/);
  const day = await itinerary(page);
  const riverside = day.pharmacy_visits.find((visit) => visit.pharmacy.name === "Riverside Community Pharmacy")!.pharmacy;
  await page.goto(`/pharmacies/${riverside.id}/verify_orders`);
  await eventually(() => page.getByRole("heading", { name: "An order is not listed here?" }).isVisible()).toBe(true);
  expect(await page.getByRole("link", { name: "I have an order not listed here" }).count()).toBe(0);
  expect(await page.getByRole("link", { name: "Call support +1 (800) 555-0199" }).getAttribute("href")).toBe("tel:+18005550199");
  await checkScreen(page, "pickup-check-in-no-addons");
  // A deep link to the add-ons goes back to the check-in list.
  await page.goto(`/pharmacies/${riverside.id}/addons`);
  await eventually(() => page.url()).toMatch(new RegExp(`/pharmacies/${riverside.id}/verify_orders$`));
  // An unknown pharmacy is not found.
  await page.goto("/pharmacies/999999/verify_orders");
  await eventually(() => page.getByRole("heading", { name: "Not found" }).isVisible()).toBe(true);
});
