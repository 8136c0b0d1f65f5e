import path from "node:path";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, expect, it } from "vitest";
import { expectAccessible, expectTapTargets, launchBrowser, logIn, phonePage, removeDataDir, screenshot, SCREENSHOTS, startServer, type RunningServer } from "./support.ts";

let server: RunningServer;
let browser: Browser;

beforeAll(async () => {
  server = await startServer();
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
  if (server) removeDataDir(server);
});

it("shows how the app works from the menu, and marks the step of a delivery in progress", async () => {
  const page = await phonePage(browser, server.url);
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
  await page.getByRole("heading", { level: 2, name: "Session" }).click();
  await expect.poll(() => page.getByRole("heading", { name: "Logged in" }).isVisible()).toBe(true);
  await expect.poll(() => page.getByText("LOG_OUT").isVisible()).toBe(true);
  await expectAccessible(page);

  // What the delivery wizard reports (reportMachineState) while the courier is on the recipient step.
  await page.evaluate(() =>
    sessionStorage.setItem("rx-courier.live-machine-states", JSON.stringify({ deliveryFlow: { steps: { recipient: "editing" } } })),
  );
  await page.reload();
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
