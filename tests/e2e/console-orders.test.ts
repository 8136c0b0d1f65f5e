import { randomUUID } from "node:crypto";
import { beforeAll, expect, it } from "vitest";
import { deliveryFormEntries } from "../../domain/contract/deliveries.ts";
import { toFormData } from "../../domain/contract/form-fields.ts";
import { completion } from "../support/courier-actions.ts";
import { OCCURRED } from "../support/instants.ts";
import { call, itinerary, logIn as courierLogIn } from "./http-courier.ts";
import { consoleLoggedIn, DISPATCHER_EMAIL, TABLET } from "./console-support.ts";
import { expectAccessible, runForFile, screenshot } from "./support.ts";

/**
 * Issue 27: the console's import and order page. A dispatcher imports a CSV
 * through the screen (its bad row reported by line before anything is
 * written), opens an imported order's page and assigns it; the demo courier's
 * delivery (made here through the courier API) has its proof on its page,
 * and 'Proof PDF' opens the PDF; an attempted delivery says what happens next.
 */

const CSV = [
  "external_id,patient_first_name,patient_last_name,phone_number,street_address,city,state_abbreviation,zipcode,rx_numbers,copay",
  "E2E-1,Ada,Lovelace,2155550123,5 Elfreth's Alley,Philadelphia,PA,19106,RX-900001,0.00",
  "E2E-2,Alan,Turing,12,1 Market St,Philadelphia,PA,19106,RX-900002,0.00",
  "E2E-3,Grace,Hopper,2155550125,2 Arch St,Philadelphia,PA,19106,RX-900003;RX-900004,5.00",
].join("\n");

const run = runForFile();

beforeAll(async () => {
  // The demo courier picks up and delivers Walter Brennan (Riverside: signed for) and fails Curtis Mayfield (picked up in the demo day).
  const courier = await courierLogIn(run.server.url);
  const orders = await itinerary(run.server.url, courier);
  const walter = orders.find((order) => order.patient_first_name === "Walter")!;
  const curtis = orders.find((order) => order.patient_first_name === "Curtis")!;
  const pickedUp = await call(run.server.url, courier, "POST", `/api/orders/${walter.id}/pickups`, { json: {} });
  expect(pickedUp.status, pickedUp.body).toBe(200);
  const signed = completion([walter.id], { dob_verified: true, signed_by: "Walter Brennan" });
  const delivered = await call(run.server.url, courier, "POST", "/api/courier/deliveries", { form: toFormData(deliveryFormEntries(signed)) }, { "idempotency-key": randomUUID() });
  expect(delivered.status, delivered.body).toBe(200);
  const failed = await call(
    run.server.url,
    courier,
    "POST",
    "/api/courier/deliveries",
    { json: { delivery: { failure_reason: "Patient Not Home", client_occurred_at: OCCURRED, order_ids: [curtis.id] } } },
    { "idempotency-key": randomUUID() },
  );
  expect(failed.status, failed.body).toBe(200);
});

it("a dispatcher imports a CSV: the bad row is reported by its line before anything is written, then 'Import 2 orders' imports the rest", async () => {
  const page = await consoleLoggedIn(run);
  await page.getByRole("navigation", { name: "Console" }).getByRole("link", { name: "Import orders" }).click();
  await expect.poll(() => page.getByRole("heading", { name: "Import orders", level: 1 }).isVisible()).toBe(true);
  await page.getByLabel("Pharmacy").selectOption({ label: "Riverside Community Pharmacy" });
  await page.getByLabel("CSV file").setInputFiles({ name: "riverside.csv", mimeType: "text/csv", buffer: Buffer.from(CSV) });

  const wouldBeRejected = page.getByRole("table", { name: "Rows that would be rejected" });
  await expect.poll(() => wouldBeRejected.isVisible()).toBe(true);
  const rows = await wouldBeRejected.getByRole("row").allInnerTexts();
  expect(rows.slice(1).map((row) => row.replace(/\s+/g, " ").trim())).toEqual(["Line 3 E2E-2 phone_number must be a US phone number: 10 digits, optionally after a leading 1"]);
  // Checked, not written: the orders are not in the API yet.
  const before = await page.evaluate(async () => (await (await fetch("/api/ops/v1/orders?limit=200", { headers: { Accept: "application/vnd.rxcourier.v1+json" } })).json()) as { orders: { external_id: string | null }[] });
  expect(before.orders.filter((order) => order.external_id?.startsWith("E2E-"))).toEqual([]);
  await expectAccessible(page);
  await screenshot(page, "console-import-checked");

  // By keyboard: the import button is reached with Tab and pressed with Enter.
  const importButton = page.getByRole("button", { name: "Import 2 orders" });
  await importButton.focus();
  await page.keyboard.press("Enter");
  await expect.poll(() => page.getByRole("heading", { name: "Import finished" }).isVisible()).toBe(true);
  await expect.poll(() => page.getByText("3 rows: 2 created, 0 unchanged (already imported), 1 rejected.").isVisible()).toBe(true);
  const rejected = await page.getByRole("table", { name: /^Rejected rows/ }).getByRole("row").allInnerTexts();
  expect(rejected.slice(1).map((row) => row.replace(/\s+/g, " ").trim())).toEqual(["Line 3 E2E-2 phone_number must be a US phone number: 10 digits, optionally after a leading 1"]);
  await expectAccessible(page);
  await screenshot(page, "console-import-report");

  // The imported order's page: its fields, and it can be assigned from there.
  await page.getByText("Imported orders (2)").click();
  await page.getByRole("link", { name: "E2E-1" }).click();
  await expect.poll(() => page.getByRole("heading", { name: "Ada Lovelace", level: 1 }).isVisible()).toBe(true);
  for (const region of ["Order", "Actions", "Proof of delivery", "Status history", "Chain of custody", "Webhooks sent"]) {
    expect(await page.getByRole("region", { name: region, exact: true }).isVisible(), region).toBe(true);
  }
  expect(await page.getByRole("region", { name: "Order", exact: true }).getByText("Riverside Community Pharmacy").isVisible()).toBe(true);
  expect(await page.getByRole("region", { name: "Chain of custody" }).getByText("Dispatcher: Jordan Reyes").count()).toBeGreaterThan(0);
  // The status history names the dispatcher as custody does; the phone is shown for reading.
  expect(await page.getByRole("region", { name: "Status history" }).getByText("Dispatcher: Jordan Reyes").count()).toBeGreaterThan(0);
  expect(await page.getByRole("region", { name: "Order", exact: true }).getByText("(215) 555-0123").isVisible()).toBe(true);

  // Cancel asks first, by keyboard, and 'Keep order' keeps it.
  await page.getByRole("button", { name: "Cancel order" }).focus();
  await page.keyboard.press("Enter");
  await expect.poll(() => page.getByRole("alertdialog", { name: "Cancel this order?" }).isVisible()).toBe(true);
  expect(await page.evaluate(() => document.activeElement?.textContent)).toBe("Keep order");
  await page.keyboard.press("Enter");
  await expect.poll(() => page.getByRole("alertdialog").count()).toBe(0);

  await page.getByLabel("Courier").selectOption({ label: "Dana Whitfield" });
  await page.getByRole("button", { name: "Assign" }).click();
  await expect.poll(() => page.getByRole("status").filter({ hasText: "Order assigned." }).isVisible()).toBe(true);
  await expect.poll(() => page.getByRole("region", { name: "Order", exact: true }).getByText("Dana Whitfield").isVisible()).toBe(true);
  expect(await page.getByRole("button", { name: "Unassign" }).isVisible()).toBe(true);
  await expectAccessible(page);
  await screenshot(page, "console-order-assigned");
});

it("a delivered demo order's page shows its proof, and 'Proof PDF' opens the PDF; an attempted one says what happens next", async () => {
  const page = await consoleLoggedIn(run);
  await page.getByRole("link", { name: "Walter Brennan" }).click();
  await expect.poll(() => page.getByRole("heading", { name: "Walter Brennan", level: 1 }).isVisible()).toBe(true);
  const proof = page.getByRole("region", { name: "Proof of delivery" });
  await expect.poll(() => proof.getByRole("img", { name: /^Signature of/ }).isVisible()).toBe(true);
  // The signature image loaded (the staff session's cookie reaches the ops API's image).
  await expect.poll(() => proof.getByRole("img", { name: /^Signature of/ }).evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
  expect(await proof.getByText("Delivered", { exact: true }).isVisible()).toBe(true);
  // The courier who delivered, by name in the status history as in the chain of custody, never by number.
  const history = page.getByRole("region", { name: "Status history" });
  expect(await history.getByText("Courier: Dana Whitfield").count()).toBeGreaterThan(0);
  expect(await history.getByText(/#\d/).count()).toBe(0);
  expect(await page.getByRole("button", { name: "Edit order" }).count()).toBe(0);
  await expectAccessible(page);
  await screenshot(page, "console-order-delivered");

  const [pdfPage] = await Promise.all([page.context().waitForEvent("page"), proof.getByRole("link", { name: "Proof PDF" }).click()]);
  await expect.poll(() => pdfPage.url()).toMatch(/\/api\/ops\/v1\/orders\/\d+\/proof\.pdf$/);
  const pdf = await page.context().request.get(pdfPage.url());
  expect(pdf.status()).toBe(200);
  expect(pdf.headers()["content-type"]).toBe("application/pdf");
  expect((await pdf.body()).subarray(0, 5).toString()).toBe("%PDF-");
  await pdfPage.close();

  await page.getByRole("link", { name: "← Day board" }).click();
  // Curtis's delivery was attempted: 'Needs attention' names him and opens his page (his courier's list is drawn only where scrolled to).
  await page.getByRole("region", { name: /^Needs attention/ }).getByRole("link", { name: "Curtis Mayfield" }).click();
  await expect.poll(() => page.getByRole("heading", { name: "Curtis Mayfield", level: 1 }).isVisible()).toBe(true);
  const next = page.getByRole("region", { name: "What happens next" });
  await expect.poll(() => next.isVisible()).toBe(true);
  expect(await next.textContent()).toContain("The courier brings the order back to the pharmacy, where a member of the pharmacy's staff signs for it");
  await expectAccessible(page);
  await screenshot(page, "console-order-attempted");
});

it("the order page and the import are usable at 768×1024", async () => {
  const page = await consoleLoggedIn(run, DISPATCHER_EMAIL, { viewport: TABLET });
  await page.getByRole("link", { name: "Walter Brennan" }).click();
  await expect.poll(() => page.getByRole("heading", { name: "Walter Brennan", level: 1 }).isVisible()).toBe(true);
  await expectAccessible(page);
  await screenshot(page, "console-order-tablet");
  await page.getByRole("navigation", { name: "Console" }).getByRole("link", { name: "Import orders" }).click();
  await page.getByLabel("CSV file").setInputFiles({ name: "riverside.csv", mimeType: "text/csv", buffer: Buffer.from(CSV) });
  await expect.poll(() => page.getByRole("table", { name: "Rows that would be rejected" }).isVisible()).toBe(true);
  await expectAccessible(page);
  await screenshot(page, "console-import-tablet");
});
