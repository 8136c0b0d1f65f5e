import type { Page } from "playwright-core";
import { expect, it } from "vitest";
import { CONSOLE_TAP_TARGETS, consoleLoggedIn, DESKTOP, DISPATCHER_EMAIL, TABLET } from "./console-support.ts";
import { expectAccessible, expectTapTargets, runForFile, screenshot } from "./support.ts";

/** Issue 27: a dispatcher assigns orders on the day board, with the keyboard or the mouse, and a move the API refuses says why. */
const run = runForFile();

/** Logged in as the demo dispatcher, the board's 'Unassigned' region drawn. */
async function dispatcherBoard(viewport = DESKTOP): Promise<Page> {
  const page = await consoleLoggedIn(run, DISPATCHER_EMAIL, { viewport });
  await expect.poll(() => page.getByRole("region", { name: /^Unassigned/ }).isVisible()).toBe(true);
  return page;
}

const patientsOf = (page: Page, region: RegExp) => page.getByRole("region", { name: region }).locator(".console-order__patient").allTextContents();

it("a dispatcher checks a range of orders, chooses a 'Courier', presses 'Assign': they move to that courier; 'Unassign' brings one back; axe clean", async () => {
  const page = await dispatcherBoard();
  const unassigned = page.getByRole("region", { name: /^Unassigned/ });
  const boxes = unassigned.getByRole("checkbox");
  await expect.poll(() => boxes.count()).toBeGreaterThanOrEqual(3);
  const names = (await unassigned.locator(".console-order__patient").allTextContents()).slice(0, 3);

  // A click on the first, a shift-click on the third: the three are checked.
  await boxes.nth(0).click();
  await boxes.nth(2).click({ modifiers: ["Shift"] });
  for (let i = 0; i < 3; i++) expect(await boxes.nth(i).isChecked()).toBe(true);
  await page.getByRole("combobox", { name: "Courier" }).selectOption({ label: "Marcus Ortega" });
  await expectAccessible(page);
  await screenshot(page, "console-board-selected");

  await page.getByRole("button", { name: "Assign", exact: true }).click();
  await expect.poll(() => page.getByRole("status").filter({ hasText: "3 orders assigned to Marcus Ortega." }).isVisible()).toBe(true);
  const marcus = await patientsOf(page, /^Courier Marcus Ortega/);
  for (const name of names) expect(marcus).toContain(name);
  const left = await patientsOf(page, /^Unassigned/);
  for (const name of names) expect(left).not.toContain(name);
  await expectAccessible(page);
  await screenshot(page, "console-board-assigned");

  // With the keyboard only: 'Unassign' on the first of them (its description names the order).
  const region = page.getByRole("region", { name: /^Courier Marcus Ortega/ });
  const unassign = region.getByRole("listitem").filter({ hasText: names[0]! }).getByRole("button", { name: "Unassign" });
  await unassign.focus();
  await page.keyboard.press("Enter");
  await expect.poll(() => page.getByRole("status").filter({ hasText: "1 order unassigned." }).isVisible()).toBe(true);
  await expect.poll(() => patientsOf(page, /^Unassigned/)).toContain(names[0]);
  // Another console sees the same day: what the server kept, not only what this page showed.
  const other = await dispatcherBoard();
  await expect.poll(() => patientsOf(other, /^Courier Marcus Ortega/)).toEqual(expect.arrayContaining(names.slice(1)));
  await other.context().close();
  await page.context().close();
});

it("a picked-up order cannot move: the reason in words, nothing changes", async () => {
  const page = await dispatcherBoard();
  const dana = page.getByRole("region", { name: /^Courier Dana Whitfield/ });
  // Dana's region is longer than its height: only the rows in view are in the page. The keyboard walks down it to a picked-up order.
  await dana.getByRole("checkbox").first().focus();
  const focusedRow = () => page.evaluate(() => document.activeElement?.closest("li")?.textContent ?? "");
  for (let step = 0; step < 40 && !(await focusedRow()).includes("Picked up"); step++) {
    const before = await focusedRow();
    await page.keyboard.press("ArrowDown");
    await expect.poll(focusedRow).not.toBe(before);
  }
  expect(await focusedRow()).toContain("Picked up");
  const patient = (await dana.getByRole("listitem").filter({ has: page.locator(":focus") }).locator(".console-order__patient").textContent())!;
  const pickedUp = dana.getByRole("listitem").filter({ hasText: patient });
  expect(await pickedUp.count()).toBe(1);
  // Space checks it.
  await page.keyboard.press("Space");
  expect(await pickedUp.getByRole("checkbox").isChecked()).toBe(true);
  await page.getByRole("combobox", { name: "Courier" }).selectOption({ label: "Marcus Ortega" });
  await page.getByRole("button", { name: "Assign", exact: true }).click();
  const alert = page.getByRole("alert");
  await expect.poll(() => alert.textContent()).toMatch(new RegExp(`^Nothing was assigned: ${patient} \\(.+\\) is picked up: only an order not yet picked up can move to another courier\\.`));
  expect(await patientsOf(page, /^Courier Dana Whitfield/)).toContain(patient);
  expect(await pickedUp.getByRole("button", { name: "Unassign" }).count()).toBe(0);
  await expectAccessible(page);
  await screenshot(page, "console-board-refused");
  await page.context().close();
});

it("assigning is usable on a tablet at 768×1024", async () => {
  const page = await dispatcherBoard(TABLET);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(TABLET.width);
  const unassigned = page.getByRole("region", { name: /^Unassigned/ });
  await unassigned.getByRole("checkbox").first().click();
  await page.getByRole("combobox", { name: "Courier" }).selectOption({ label: "Dana Whitfield" });
  await expectTapTargets(page, CONSOLE_TAP_TARGETS);
  await expectAccessible(page);
  await screenshot(page, "console-board-assign-tablet");
  await page.context().close();
});
