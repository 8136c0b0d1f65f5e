import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ItineraryResponse, Order } from "../../domain/contract/index.ts";
import { BUTTON_DEBOUNCE_MS, TEXT, fill } from "../../domain/texts.ts";
import { formatPhone } from "../../domain/phone.ts";
import { expectAccessible, expectTapTargets, launchBrowser, logIn, phonePage, removeDataDir, screenshot, startServer, type RunningServer, pageApi } from "./support.ts";

/**
 * The delivery wizard at 390×844 against the real server (issue 4): one
 * delivery of each kind, each failure, a grouped delivery and a signature
 * refusal, each order's final status checked through the itinerary.
 */

const SUPPORT_PHONE = "18005550199";

let server: RunningServer;
let browser: Browser;
let page: Page;

const api = <T = unknown>(method: string, path: string, body?: unknown) => pageApi<T>(page, method, path, body);

const itinerary = async () => (await api<ItineraryResponse>("GET", "/api/courier/itinerary")).body;

let orders: Order[] = [];
function order(first: string, last: string): Order {
  const found = orders.find((o) => o.patient_first_name === first && o.patient_last_name === last);
  if (!found) throw new Error(`no demo order for ${first} ${last}`);
  return found;
}
async function statusOf(first: string, last: string): Promise<string> {
  const id = order(first, last).id;
  return (await itinerary()).orders.find((o) => o.id === id)!.status.name;
}

const deliverPath = (o: Order) => `/pharmacies/${o.pharmacy.id}/deliver_orders/${o.id}`;

/** Waits for the URL to end with the step, then checks and photographs the screen. */
async function atStep(step: string, shot?: string) {
  await expect.poll(() => new URL(page.url()).pathname, { timeout: 10_000 }).toMatch(new RegExp(`/${step}$`));
  await page.locator("h1").first().waitFor();
  if (shot) {
    // A full-page picture from the top: the sticky bar would otherwise sit where the page was scrolled to.
    await page.evaluate(() => window.scrollTo(0, 0));
    await expectAccessible(page);
    await expectTapTargets(page);
    await screenshot(page, shot);
  }
}

const button = (name: string | RegExp) => page.getByRole("button", { name, exact: typeof name === "string" });

async function confirmDialog(text: string, answer: "OK" | "Cancel" = "OK", shot?: string) {
  const dialog = page.getByRole("alertdialog");
  await dialog.waitFor();
  expect(await dialog.locator(".dialog__message").textContent()).toBe(text);
  if (shot) {
    await page.evaluate(() => window.scrollTo(0, 0));
    await screenshot(page, shot);
  }
  await dialog.getByRole("button", { name: answer, exact: true }).click();
  await dialog.waitFor({ state: "detached" });
}

/** Draws a signature-like stroke across the pad. */
async function sign() {
  // signature_pad loads with the step; the canvas takes strokes once it is no longer busy.
  const pad = page.locator('canvas[aria-busy="false"]');
  await pad.waitFor();
  const box = (await pad.boundingBox())!;
  await page.mouse.move(box.x + 30, box.y + 120);
  await page.mouse.down();
  for (let i = 1; i <= 12; i++) await page.mouse.move(box.x + 30 + i * 22, box.y + 120 + (i % 2 ? -40 : 30), { steps: 3 });
  await page.mouse.up();
}

async function startDelivery(o: Order) {
  await page.goto(deliverPath(o));
  await atStep("address");
}

beforeAll(async () => {
  server = await startServer({ SUPPORT_PHONE });
  browser = await launchBrowser();
  page = await phonePage(browser, server.url);
  await logIn(page);
  await page.waitForURL((url) => !url.pathname.startsWith("/login"));
  const day = await itinerary();
  orders = day.orders;
  // Answer the pending Lakeside visit so no screen redirects to /confirm_pharmacy_visits.
  const pending = day.pharmacy_visits.filter((visit) => visit.confirmed === null).map((visit) => ({ id: visit.id, confirmed: true }));
  if (pending.length) expect((await api("POST", `/api/couriers/${day.courier.id}/pharmacy_visits/confirm`, { pharmacy_visits: pending })).status).toBe(200);
  // Pick up what the deliveries need (the check-in screens are another issue's).
  const toPickUp = [
    ["Eleanor", "Abernathy"], ["Walter", "Brennan"], ["Rosa", "Delgado"], ["Grace", "Kowalski"],
    ["Harold", "Johnson"], ["Margaret", "Johnson"], ["Timothy", "Johnson"],
    ["Linda", "Park"],
    ["Beatrice", "Coleman"], ["Franklin", "Diaz"], ["Isaac", "Freeman"], ["Yolanda", "Evans"],
  ] as const;
  for (const [first, last] of toPickUp) {
    const result = await api("POST", `/api/orders/${order(first, last).id}/pickups`, {});
    expect(result.status, `${first} ${last}: ${JSON.stringify(result.body)}`).toBe(200);
  }
  orders = (await itinerary()).orders;
  // The app's day is loaded again with the orders picked up.
  await page.goto("/pharmacies");
  await page.getByRole("button", { name: "Refresh" }).click();
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  if (server) removeDataDir(server);
});

describe("the delivery list", () => {
  it("lists the orders to deliver with their indicators, routed where the pharmacy routes", async () => {
    const riverside = order("Eleanor", "Abernathy").pharmacy;
    await page.goto(`/pharmacies/${riverside.id}/deliver_orders`);
    await page.getByRole("heading", { name: "Orders to deliver" }).waitFor();
    await expect.poll(() => page.getByRole("status").filter({ hasText: /^Routed$|^Not Routed$/ }).textContent()).toBe(TEXT.routed);
    expect(await page.getByRole("link", { name: /Eleanor Abernathy/ }).textContent()).toContain("not collected");
    expect(await button(TEXT.allDeliveriesAttempted).isDisabled()).toBe(true);
    await expectAccessible(page);
    await expectTapTargets(page);
    await screenshot(page, "delivery-list");
  });
});

describe("deliveries", () => {
  it("patient with a date-of-birth check and a cash copay (Riverside)", async () => {
    const o = order("Eleanor", "Abernathy");
    await startDelivery(o);
    await expect.poll(() => page.getByText("Leave with doorman if patient is out.").isVisible()).toBe(true);
    expect(await page.getByText("Dog in yard, friendly.").count()).toBe(0);
    expect(await page.getByRole("link", { name: /Call the patient/ }).getAttribute("href")).toBe("tel:+12155550101");
    await atStep("address", "delivery-address");
    await button(TEXT.presentAtAddress).click();
    await atStep("verify-dob", "delivery-verify-dob");
    expect(await page.getByText("03/14/1948").isVisible()).toBe(true);
    await button(TEXT.dobVerified).click();
    await atStep("recipient");
    await page.getByRole("radio", { name: "Patient" }).check();
    expect(await page.getByLabel("First name").inputValue()).toBe("Eleanor");
    expect(await page.getByLabel("First name").getAttribute("readonly")).not.toBeNull();
    await atStep("recipient", "delivery-recipient-patient");
    await button(TEXT.continue).click();
    await atStep("payment");
    expect(await page.getByLabel("Amount owed").textContent()).toContain("$17.50");
    await page.getByRole("radio", { name: "Cash" }).check();
    await atStep("payment", "delivery-payment-cash");
    await button(TEXT.continue).click();
    await atStep("signature");
    expect(await button(TEXT.continue).isDisabled()).toBe(true);
    await sign();
    await expect.poll(() => button(TEXT.continue).isEnabled()).toBe(true);
    await atStep("signature", "delivery-signature");
    await button(TEXT.continue).click();
    await atStep("finished", "delivery-finished");
    expect(await page.getByRole("heading", { name: TEXT.delivered }).isVisible()).toBe(true);
    expect(await statusOf("Eleanor", "Abernathy")).toBe("delivered");
    await page.getByRole("link", { name: TEXT.backToOrders }).click();
    await expect.poll(() => new URL(page.url()).pathname).toBe(`/pharmacies/${o.pharmacy.id}/deliver_orders`);
    await page.getByRole("heading", { name: TEXT.itemsToReturn }).waitFor();
    expect(await page.getByText("Cash collected: $17.50").isVisible()).toBe(true);
  });

  it("another recipient with ID (Northside), resuming after a reload and refusing a deep link ahead", async () => {
    const o = order("Isaac", "Freeman");
    await page.goto(`${deliverPath(o)}/signature`);
    // A step not reached yet: the machine stays at the address and the URL follows it.
    await atStep("address");
    await button(TEXT.presentAtAddress).click();
    await atStep("verify-dob");
    await button(TEXT.dobVerified).click();
    await atStep("recipient");
    await page.getByRole("radio", { name: "Other" }).check();
    await page.getByLabel("First name").fill("Ruth");
    await page.getByLabel("Last name").fill("Freeman");
    expect(await page.getByLabel("Relationship to the patient").getAttribute("placeholder")).toBe(TEXT.maxThirtyTwoCharacters);
    await page.getByLabel("Relationship to the patient").fill("Daughter");
    await page.reload();
    await atStep("recipient", "delivery-recipient-other");
    expect(await page.getByLabel("First name").inputValue()).toBe("Ruth");
    expect(await page.getByLabel("Relationship to the patient").inputValue()).toBe("Daughter");
    await button(TEXT.continue).click();
    await atStep("idverification");
    await page.getByLabel("ID type").selectOption("passport");
    expect(await page.getByLabel("State").isDisabled()).toBe(true);
    await page.getByLabel("ID type").selectOption("driver");
    await page.getByLabel("State").selectOption("PA");
    await page.getByLabel("ID number").fill("D7788123");
    await page.getByLabel("Expiration date").pressSequentially("12312031");
    expect(await page.getByLabel("Expiration date").inputValue()).toBe("12/31/2031");
    await atStep("idverification", "delivery-id");
    await button(TEXT.continue).click();
    await atStep("signature");
    await sign();
    await button(TEXT.continue).click();
    await atStep("finished");
    expect(await statusOf("Isaac", "Freeman")).toBe("delivered");
  });

  it("contactless (Greenway, already picked up): submitted at the recipient step", async () => {
    const o = order("Nadia", "Haddad");
    await startDelivery(o);
    await button(TEXT.presentAtAddress).click();
    await atStep("recipient");
    expect(await page.getByRole("radio").count()).toBe(1);
    expect(await page.getByRole("radio", { name: "Contactless - No Signature Requested" }).isChecked()).toBe(true);
    expect(await button(TEXT.continue).isDisabled()).toBe(true);
    expect(await page.getByLabel("Courier notes").getAttribute("placeholder")).toBe(TEXT.minimumThreeCharacters);
    await page.getByLabel("Courier notes").fill("Left in the lockbox by the porch.");
    await atStep("recipient", "delivery-recipient-contactless");
    await button(TEXT.continue).click();
    // Nobody signs: the photo of the drop-off (issue 19), optional at Greenway.
    await page.getByRole("heading", { name: "Photo of the drop-off" }).waitFor();
    await button(TEXT.continue).click();
    await atStep("finished");
    expect(await statusOf("Nadia", "Haddad")).toBe("delivered");
  });

  it("no recipient, with notes (Market Street)", async () => {
    await startDelivery(order("Linda", "Park"));
    await button(TEXT.presentAtAddress).click();
    await atStep("recipient");
    await page.getByRole("radio", { name: "No Recipient" }).check();
    await page.getByLabel("Courier notes").fill("Left with the building concierge.");
    await atStep("recipient", "delivery-recipient-none");
    await button(TEXT.continue).click();
    await page.getByRole("heading", { name: "Photo of the drop-off" }).waitFor();
    await button(TEXT.continue).click();
    await atStep("finished");
    expect(await statusOf("Linda", "Park")).toBe("delivered");
  });

  it("a grouped delivery: the three Johnson orders at 1200 Spruce St, Apt 4B", async () => {
    await startDelivery(order("Timothy", "Johnson"));
    await button(TEXT.presentAtAddress).click();
    await atStep("verify-dob");
    await button(TEXT.dobVerified).click();
    await atStep("recipient");
    await page.getByRole("checkbox", { name: TEXT.groupOrders }).check();
    expect(await page.getByRole("region", { name: "Order", exact: true }).textContent()).toContain("Harold Johnson, Margaret Johnson");
    await page.getByRole("radio", { name: "Patient" }).check();
    // Grouped: the names are the recipient's to enter.
    expect(await page.getByLabel("First name").getAttribute("readonly")).toBeNull();
    await page.getByLabel("First name").fill("Margaret");
    await page.getByLabel("Last name").fill("Johnson");
    await atStep("recipient", "delivery-recipient-grouped");
    await button(TEXT.continue).click();
    await atStep("signature");
    await sign();
    await button(TEXT.continue).click();
    await atStep("finished");
    for (const first of ["Harold", "Margaret", "Timothy"]) expect(await statusOf(first, "Johnson")).toBe("delivered");
  });

  it("a signature refusal (Riverside can skip the signature)", async () => {
    await startDelivery(order("Walter", "Brennan"));
    await button(TEXT.presentAtAddress).click();
    await button(TEXT.dobVerified).click();
    await atStep("recipient");
    await page.getByRole("radio", { name: "Patient" }).check();
    await button(TEXT.continue).click();
    await atStep("signature");
    await page.getByRole("checkbox", { name: "The recipient did not sign" }).check();
    await page.getByLabel("Reason").selectOption("refused");
    expect(await button(TEXT.continue).isDisabled()).toBe(true);
    await page.getByLabel("Notes").fill("Would not sign; took the bag.");
    await atStep("signature", "delivery-signature-refusal");
    await button(TEXT.continue).click();
    await page.getByRole("heading", { name: "Photo of the drop-off" }).waitFor();
    await button(TEXT.continue).click();
    await atStep("finished");
    expect(await statusOf("Walter", "Brennan")).toBe("delivered");
  });

  it("unable to pay where the pharmacy may skip collection: delivered, the provider to be called", async () => {
    await startDelivery(order("Beatrice", "Coleman"));
    await button(TEXT.presentAtAddress).click();
    await button(TEXT.dobVerified).click();
    await page.getByRole("radio", { name: "Patient" }).check();
    await button(TEXT.continue).click();
    await atStep("payment");
    await page.getByLabel(/Corrected copay/).pressSequentially("12");
    expect(await page.getByText("A corrected copay needs at least 3 digits").isVisible()).toBe(true);
    await page.getByLabel(/Corrected copay/).fill("");
    await button("Unable to pay").click();
    await confirmDialog(fill(TEXT.unableToPaySkip, { phone: formatPhone(SUPPORT_PHONE)! }), "OK", "delivery-payment-unable-skip");
    await atStep("signature");
    await sign();
    await button(TEXT.continue).click();
    await atStep("finished");
    expect(await statusOf("Beatrice", "Coleman")).toBe("delivered");
  });
});

describe("failed deliveries end at /attempted", () => {
  async function expectAttempted(first: string, last: string, shot?: string) {
    await atStep("attempted", shot);
    expect(await page.getByRole("heading", { name: TEXT.attempted }).isVisible()).toBe(true);
    expect(await statusOf(first, last)).toBe("delivery_attempted");
  }

  it("the address is incorrect", async () => {
    await startDelivery(order("Raymond", "Price"));
    await button(TEXT.addressIncorrect).click();
    await confirmDialog(TEXT.failedDeliveryConfirm, "Cancel", "delivery-address-confirm");
    await atStep("address");
    // Spec §9: a second tap on the same button within 200 ms is ignored.
    await page.waitForTimeout(BUTTON_DEBOUNCE_MS + 50);
    await button(TEXT.addressIncorrect).click();
    await confirmDialog(TEXT.failedDeliveryConfirm);
    await expectAttempted("Raymond", "Price", "delivery-attempted");
  });

  it("date of birth not verified", async () => {
    await startDelivery(order("Franklin", "Diaz"));
    await button(TEXT.presentAtAddress).click();
    await atStep("verify-dob");
    await button(TEXT.dobNotVerified).click();
    await confirmDialog(TEXT.failedDeliveryConfirm);
    await expectAttempted("Franklin", "Diaz");
  });

  it("no date of birth on file: only 'Did not verify date of birth' is offered (issue 17)", async () => {
    await startDelivery(order("Yolanda", "Evans"));
    await button(TEXT.presentAtAddress).click();
    await atStep("verify-dob", "delivery-dob-not-on-file");
    expect(await page.getByText(TEXT.dobNotAvailable).isVisible()).toBe(true);
    expect(await button(TEXT.dobVerified).count()).toBe(0);
    await button(TEXT.dobNotVerified).click();
    await confirmDialog(TEXT.failedDeliveryConfirm);
    await expectAttempted("Yolanda", "Evans");
  });

  it("the recipient step's failed-delivery tick", async () => {
    await startDelivery(order("Curtis", "Mayfield"));
    await button(TEXT.presentAtAddress).click();
    await atStep("recipient");
    // The box is ticked only once the confirmation is answered.
    await page.getByRole("checkbox", { name: TEXT.failedDeliveryTick }).click();
    await confirmDialog(TEXT.failedDeliveryTickConfirm);
    await page.getByLabel("Courier notes").fill("Nobody home, no safe place.");
    await atStep("recipient", "delivery-recipient-failed");
    await button(TEXT.continue).click();
    await expectAttempted("Curtis", "Mayfield");
  });

  it("unable to provide ID", async () => {
    await startDelivery(order("Rosa", "Delgado"));
    await button(TEXT.presentAtAddress).click();
    await button(TEXT.dobVerified).click();
    await page.getByRole("radio", { name: "Patient" }).check();
    await button(TEXT.continue).click();
    await atStep("idverification");
    await button(TEXT.unableToProvideId).click();
    await confirmDialog(TEXT.failedDeliveryConfirm);
    await expectAttempted("Rosa", "Delgado");
  });

  it("the patient cannot pay where the pharmacy must collect", async () => {
    await startDelivery(order("Grace", "Kowalski"));
    await button(TEXT.presentAtAddress).click();
    await atStep("verify-dob");
    expect(await page.getByText("12/01/1944").isVisible()).toBe(true);
    await button(TEXT.dobVerified).click();
    await page.getByRole("radio", { name: "Patient" }).check();
    await button(TEXT.continue).click();
    await atStep("payment");
    await button("Unable to pay").click();
    await confirmDialog(TEXT.failedDeliveryConfirm, "OK", "delivery-payment-unable-fail");
    await expectAttempted("Grace", "Kowalski");
  });
});

describe("offline, and finishing a pharmacy", () => {
  it("keeps a delivery that fails on the network, alerts before finishing, and resubmits it with Try again", async () => {
    const nguyen = order("Joanne", "Nguyen");
    // The network drops for the delivery call only.
    await page.route("**/api/courier/deliveries", (route) => route.abort("internetdisconnected"));
    await startDelivery(nguyen);
    await button(TEXT.presentAtAddress).click();
    await page.getByLabel("Courier notes").fill("Handed over at the door, contactless.");
    await button(TEXT.continue).click();
    await page.getByRole("heading", { name: "Photo of the drop-off" }).waitFor();
    await button(TEXT.continue).click();
    await atStep("finished");
    await page.unroute("**/api/courier/deliveries");
    expect(await page.getByRole("heading", { name: TEXT.delivered }).isVisible()).toBe(true);
    expect(await page.getByText(TEXT.incompleteOrderBanner).first().isVisible()).toBe(true);
    expect(await statusOf("Joanne", "Nguyen")).toBe("picked_up");

    await page.getByRole("link", { name: TEXT.backToOrders }).click();
    await page.getByRole("heading", { name: TEXT.completedSection }).waitFor();
    expect(await page.getByRole("heading", { name: "Orders to deliver" }).count()).toBe(0);
    expect(await page.getByRole("region", { name: TEXT.completedSection }).getByText("incomplete", { exact: true }).isVisible()).toBe(true);
    await expect.poll(() => button(TEXT.allDeliveriesAttempted).isEnabled()).toBe(true);
    await page.evaluate(() => window.scrollTo(0, 0));
    await expectAccessible(page);
    await expectTapTargets(page);
    await screenshot(page, "delivery-list-done");
    await button(TEXT.allDeliveriesAttempted).click();
    await confirmDialog(TEXT.incompleteOrdersReturnsAlert, "OK", "delivery-list-incomplete-alert");
    await expect.poll(() => new URL(page.url()).pathname).toBe("/pharmacies");

    await page.getByRole("button", { name: TEXT.tryAgain }).click();
    await expect.poll(() => page.getByText(TEXT.incompleteOrderBanner).count(), { timeout: 15_000 }).toBe(0);
    expect(await statusOf("Joanne", "Nguyen")).toBe("delivered");
  });
});
