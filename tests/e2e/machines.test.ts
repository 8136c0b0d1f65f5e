import path from "node:path";
import { expect, it } from "vitest";
import type { ItineraryResponse } from "../../domain/contract/index.ts";
import { TEXT } from "../../domain/texts.ts";
import { expectAccessible, expectTapTargets, logIn, pageApi, phonePage, screenshot, SCREENSHOTS, runForFile } from "./support.ts";

const run = runForFile();

it("shows how the app works from the menu, and marks the step of a real delivery in progress, which a reload resumes", async () => {
  const page = await phonePage(run.browser, run.server.url);
  // courier2 has no pending visit confirmation, so the menu's link is reachable at once.
  await logIn(page, "courier2@example.com");
  await expect.poll(() => page.url()).toMatch(/\/dashboard$/);
  await page.getByRole("button", { name: "Menu" }).click();
  await page.getByRole("link", { name: "How the app works" }).click();
  await expect.poll(() => page.url()).toMatch(/\/machines$/);
  await expect.poll(() => page.getByRole("heading", { level: 1, name: "How the app works" }).isVisible()).toBe(true);
  expect(await page.getByRole("heading", { level: 2 }).allTextContents()).toContain("Delivery flow");
  expect(await page.locator("[aria-current=step]").count()).toBe(0);
  await expectAccessible(page);
  await expectTapTargets(page);
  await screenshot(page, "machines");

  // Opening a machine draws its states and transitions.
  await page.getByRole("heading", { level: 2, name: "Session", exact: true }).click();
  await expect.poll(() => page.getByRole("heading", { name: "Logged in" }).isVisible()).toBe(true);
  await expect.poll(() => page.getByText("LOG_OUT").isVisible()).toBe(true);
  await expectAccessible(page);

  // A real delivery: Rita Thompson's order (Market Street, picked up). The courier reaches the
  // recipient step and fills it in; a reload mid-delivery brings them back there with what they entered.
  const day = (await pageApi<ItineraryResponse>(page, "GET", "/api/courier/itinerary")).body;
  const rita = day.orders.find((order) => order.patient_first_name === "Rita" && order.patient_last_name === "Thompson")!;
  expect(rita.status.name).toBe("picked_up");
  const base = `/pharmacies/${rita.pharmacy.id}/deliver_orders/${rita.id}`;
  const pathname = () => new URL(page.url()).pathname;
  await page.goto(`${base}/address`);
  await page.getByRole("button", { name: TEXT.presentAtAddress, exact: true }).click();
  await expect.poll(pathname).toBe(`${base}/recipient`);
  await page.getByRole("radio", { name: "Other" }).check();
  await page.getByLabel("First name").fill("Ruth");
  await page.getByLabel("Last name").fill("Thompson");
  await page.getByLabel("Relationship to the patient").fill("Sister");
  await page.reload();
  await expect.poll(pathname).toBe(`${base}/recipient`);
  await expect.poll(() => page.getByLabel("First name").inputValue()).toBe("Ruth");
  expect(await page.getByRole("radio", { name: "Other" }).isChecked()).toBe(true);
  expect(await page.getByLabel("Last name").inputValue()).toBe("Thompson");
  expect(await page.getByLabel("Relationship to the patient").inputValue()).toBe("Sister");
  // The step reached before the reload is still reached: going back to the address and on again works.
  expect(await page.getByRole("button", { name: TEXT.continue, exact: true }).isEnabled()).toBe(true);

  // What the delivery wizard reported (reportMachineState) while the courier was on the recipient step.
  await page.goto("/machines");
  const here = page.locator("[aria-current=step]");
  await expect.poll(() => here.count()).toBe(1);
  expect(await here.getAttribute("data-state")).toBe("steps.recipient.editing");
  await expect.poll(() => page.getByText("Courier is here: steps › recipient › editing").isVisible()).toBe(true);
  await expectAccessible(page);
  await expectTapTargets(page);
  await screenshot(page, "machines-delivery-highlighted");
  await page.getByRole("heading", { level: 2, name: "Delivery flow" }).evaluate((element) => element.scrollIntoView({ block: "start" }));
  await page.mouse.wheel(0, -80);
  await page.screenshot({ path: path.join(SCREENSHOTS, "machines-delivery-top.png") });
  await here.evaluate((element) => element.scrollIntoView({ block: "start" }));
  await page.screenshot({ path: path.join(SCREENSHOTS, "machines-delivery-here.png") });
});
