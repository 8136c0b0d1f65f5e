import { randomUUID } from "node:crypto";
import type { Page } from "playwright-core";
import { beforeAll, expect, it } from "vitest";
import type { Order } from "../../domain/contract/entities.ts";
import { toFormData } from "../../domain/contract/form-fields.ts";
import { returnFormEntries, toWireReturnLine } from "../../domain/contract/return-submissions.ts";
import { returnLineOf } from "../../domain/returns.ts";
import { returnForm } from "../support/courier-actions.ts";
import { OCCURRED } from "../support/instants.ts";
import { call, itinerary, logIn as courierLogIn, type Courier } from "./http-courier.ts";
import { consoleLoggedIn, DISPATCHER_EMAIL, PHARMACIST_EMAIL, TABLET } from "./console-support.ts";
import { expectAccessible, runForFile, screenshot } from "./support.ts";

/**
 * Issue 27, the pharmacist's return manifests: the demo courier fails two
 * Riverside deliveries and one at Northside and hands them back, each with a
 * staff signature, through the courier API. The demo pharmacist (Riverside)
 * sees Riverside's manifest on 'Returns' with its orders and opens its PDF;
 * Northside's manifest is nowhere in their reach.
 */
const run = runForFile();
let northsideReturnId = 0;
let northsideId = 0;

async function failAndReturn(courier: Courier, orders: Order[], staff: { first: string; last: string }): Promise<number> {
  for (const order of orders) {
    const pickedUp = await call(run.server.url, courier, "POST", `/api/orders/${order.id}/pickups`, { json: {} });
    expect(pickedUp.status, pickedUp.body).toBe(200);
    const json = { delivery: { failure_reason: "Patient Not Home", client_occurred_at: OCCURRED, order_ids: [order.id] } };
    const failed = await call(run.server.url, courier, "POST", "/api/courier/deliveries", { json }, { "idempotency-key": randomUUID() });
    expect(failed.status, failed.body).toBe(200);
  }
  const now = await itinerary(run.server.url, courier);
  const lines = orders.map((order) => returnLineOf(now.find((o) => o.id === order.id)!)!).map(toWireReturnLine);
  const pharmacyId = orders[0]!.pharmacy.id;
  const submission = returnForm(courier.courierId, pharmacyId, { recipient_first_name: staff.first, recipient_last_name: staff.last, returns: lines });
  const returned = await call(run.server.url, courier, "POST", `/api/courier/pharmacies/${pharmacyId}/returns`, { form: toFormData(returnFormEntries(submission)) }, { "idempotency-key": randomUUID() });
  expect(returned.status, returned.body).toBe(200);
  return pharmacyId;
}

beforeAll(async () => {
  const courier = await courierLogIn(run.server.url);
  const orders = await itinerary(run.server.url, courier);
  const named = (first: string) => orders.find((order) => order.patient_first_name === first)!;
  await failAndReturn(courier, [named("Walter"), named("Harold")], { first: "Lena", last: "Brooks" });
  northsideId = await failAndReturn(courier, [named("Franklin")], { first: "Omar", last: "Haddad" });

});
const opsGet = (page: Page, path: string) =>
  page.evaluate(async (path) => {
    const response = await fetch(path, { headers: { Accept: "application/vnd.rxcourier.v1+json" } });
    return { status: response.status };
  }, path);

it("a dispatcher sees every pharmacy's manifests: Northside's by choosing it", async () => {
  const page = await consoleLoggedIn(run, DISPATCHER_EMAIL);
  await page.getByRole("navigation", { name: "Console" }).getByRole("link", { name: "Returns" }).click();
  await expect.poll(() => page.getByRole("heading", { name: "Returns", level: 1 }).isVisible()).toBe(true);
  await page.getByLabel("Pharmacy").selectOption({ label: "Northside Family Drugs" });
  const manifest = page.getByRole("region", { name: /^Return of/ });
  await expect.poll(() => manifest.count()).toBe(1);
  expect(await manifest.getByText("Omar Haddad").first().isVisible()).toBe(true);
  expect(await manifest.getByRole("cell", { name: "Franklin Diaz" }).isVisible()).toBe(true);
  const href = await manifest.getByRole("link", { name: "Return manifest PDF" }).getAttribute("href");
  northsideReturnId = Number(/returns\/(\d+)\.pdf$/.exec(href ?? "")?.[1]);
  expect(northsideReturnId).toBeGreaterThan(0);
  await page.context().close();
});

it("the demo pharmacist sees Riverside's manifest with its orders, the signature, and opens its PDF; never another pharmacy's", async () => {
  const page = await consoleLoggedIn(run, PHARMACIST_EMAIL);
  const nav = page.getByRole("navigation", { name: "Console" });
  // Keyboard: the navigation's 'Returns' link is reached with Tab and followed with Enter.
  await nav.getByRole("link", { name: "Import orders" }).focus();
  await page.keyboard.press("Tab");
  expect(await page.evaluate(() => document.activeElement?.textContent)).toBe("Returns");
  await page.keyboard.press("Enter");
  await expect.poll(() => page.getByRole("heading", { name: "Returns", level: 1 }).isVisible()).toBe(true);
  expect(await page.getByLabel("Pharmacy").isDisabled()).toBe(true);
  // Their pharmacy once the pharmacies have loaded ('Loading…' until then).
  await expect.poll(() => page.getByLabel("Pharmacy").locator("option").allInnerTexts()).toEqual(["Riverside Community Pharmacy"]);

  const manifest = page.getByRole("region", { name: /^Return of/ });
  await expect.poll(() => manifest.count()).toBe(1);
  expect(await manifest.getByText("Dana Whitfield").isVisible()).toBe(true);
  expect(await manifest.getByText("Lena Brooks").first().isVisible()).toBe(true);
  const rows = (await manifest.getByRole("row").allInnerTexts()).slice(1).map((row) => row.split("\t").slice(1, 3).join(" | "));
  expect(rows.sort()).toEqual(["Harold Johnson | Patient Not Home", "Walter Brennan | Patient Not Home"]);
  expect(await page.getByText("Franklin Diaz").count()).toBe(0);
  const signature = manifest.getByRole("img", { name: "Signature of Lena Brooks" });
  await expect.poll(() => signature.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);

  // The PDF opens in a new tab as a PDF.
  const [pdfPage] = await Promise.all([page.context().waitForEvent("page"), manifest.getByRole("link", { name: "Return manifest PDF" }).click()]);
  await expect.poll(() => pdfPage.url()).toMatch(/\/api\/ops\/v1\/returns\/\d+\.pdf$/);
  const pdf = await page.context().request.get(pdfPage.url());
  expect(pdf.status()).toBe(200);
  expect(pdf.headers()["content-type"]).toBe("application/pdf");
  expect((await pdf.body()).subarray(0, 5).toString()).toBe("%PDF-");
  await pdfPage.close();

  // The keyboard reaches the date, the PDF link and every control in order.
  await page.getByLabel("Service date").focus();
  expect(await page.evaluate(() => document.activeElement?.getAttribute("type"))).toBe("date");

  await expectAccessible(page);
  await screenshot(page, "console-returns-pharmacist");

  // Another pharmacy's manifest is out of reach: its list, its PDF and its signature answer 404.
  const today = await page.getByLabel("Service date").inputValue();
  expect((await opsGet(page, `/api/ops/v1/returns?pharmacy_id=${northsideId}&service_date=${today}`)).status).toBe(404);
  expect(northsideReturnId).toBeGreaterThan(0);
  expect((await opsGet(page, `/api/ops/v1/returns/${northsideReturnId}.pdf`)).status).toBe(404);
  expect((await opsGet(page, `/api/ops/v1/returns/${northsideReturnId}/signature.svg`)).status).toBe(404);

  // An empty day is said in words.
  await page.getByLabel("Service date").fill("2026-01-05");
  await expect.poll(() => page.getByText("No return to Riverside Community Pharmacy on 2026-01-05.").isVisible()).toBe(true);
  await page.context().close();
});

it("is usable on a tablet at 768×1024", async () => {
  const page = await consoleLoggedIn(run, PHARMACIST_EMAIL, { viewport: TABLET });
  await page.goto("/dispatch/returns");
  const manifest = page.getByRole("region", { name: /^Return of/ });
  await expect.poll(() => manifest.count()).toBe(1);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  await expectAccessible(page);
  await screenshot(page, "console-returns-tablet");
  await page.context().close();
});
