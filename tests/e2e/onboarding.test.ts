import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, expect, it } from "vitest";
import { SET_PASSWORD_TEXT as T } from "../../domain/set-password-texts.ts";
import { TEXT } from "../../domain/texts.ts";
import { expectAccessible, launchBrowser, phonePage, removeDataDir, screenshot, startServer, type RunningServer } from "./support.ts";

/**
 * Issue 15 end to end: dispatch creates a pharmacy and invites a courier
 * through the operations API; the courier sets a password on /set-password in
 * Chromium, logs in, confirms the visit, checks in and delivers an order that
 * was created through the operations API.
 */

const DISPATCH_KEY = "e2e-onboarding-key-0123456789abcdefghijklmn";
let server: RunningServer;
let browser: Browser;

beforeAll(async () => {
  server = await startServer({ OPS_API_KEY: DISPATCH_KEY, DEMO_DATA: "false" });
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
  if (server) removeDataDir(server);
});

async function ops<T>(method: string, path: string, body?: unknown): Promise<T> {
  const response = await fetch(`${server.url}/api/ops/v1/${path}`, {
    method,
    headers: { Authorization: `Bearer ${DISPATCH_KEY}`, "Content-Type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  expect(response.ok, `${method} ${path}: ${response.status} ${text}`).toBe(true);
  return JSON.parse(text) as T;
}

const eventually = <T>(read: () => Promise<T> | T) => expect.poll(read, { timeout: 20_000 });

it("an invited courier sets a password, logs in, confirms the visit, checks in and delivers an ops order", async () => {
  const address = { street_address: "1 River Rd", city: "Philadelphia", state_abbreviation: "PA", zipcode: "19103", latitude: 39.95, longitude: -75.16 };
  const { pharmacy } = await ops<{ pharmacy: { id: number; name: string } }>("POST", "pharmacies", {
    name: "Schuylkill Pharmacy",
    phone_number: "215-555-0100",
    address,
    payment_methods: [{ type: "cash", allowed: true }, { type: "check", allowed: false }, { type: "card", allowed: false }],
    allow_pod_copay_collection: true,
    routing_enabled: false,
    dob_verification_enabled: false,
    pod_recipient_config: null,
    can_skip_copay_collection: false,
    can_skip_signature: false,
  });
  const invite = await ops<{ courier: { id: number }; invite_token: string }>("POST", "couriers", { first_name: "Sam", last_name: "Reyes", email: "sam.reyes@example.com" });
  const { order } = await ops<{ order: { id: number } }>("POST", "orders", {
    pharmacy_id: pharmacy.id,
    external_id: "SCH-1",
    patient_first_name: "Nora",
    patient_last_name: "Quinlan",
    phone_number: "215-555-0177",
    address: { ...address, street_address: "400 Pine St" },
    rx_numbers: ["RX-7001"],
    copay: "0.00",
  });
  const today = new Intl.DateTimeFormat("en-CA", { timeZone: "America/New_York" }).format(new Date());
  await ops("POST", "assignments", { courier_id: invite.courier.id, service_date: today, order_ids: [order.id] });

  // The courier opens the invite link and chooses a password.
  const page: Page = await phonePage(browser, server.url, { serviceWorkers: "block" });
  await page.goto(`/set-password?token=${invite.invite_token}`);
  await page.getByLabel(T.newPassword).fill("river walk at seven");
  await page.getByLabel(T.confirmPassword).fill("river walk at seven");
  await page.getByRole("button", { name: T.submit }).click();
  await eventually(() => page.getByRole("status").textContent()).toBe(T.done);
  await page.getByRole("link", { name: T.goToLogin }).click();

  // Logs in as usual with it.
  await page.getByLabel("Email").fill("sam.reyes@example.com");
  await page.getByLabel("Password").fill("river walk at seven");
  await page.getByRole("button", { name: "Log in" }).click();

  // Spec §2: the new visit waits for the courier's answer.
  await eventually(() => new URL(page.url()).pathname).toBe("/confirm_pharmacy_visits");
  await eventually(() => page.getByText(pharmacy.name).isVisible()).toBe(true);
  await page.getByRole("radio", { name: "Yes, available" }).check();
  await page.getByRole("button", { name: "Submit" }).click();
  await eventually(() => new URL(page.url()).pathname).toBe("/pharmacies");

  // Check-in: verify the order (no copay), then start the deliveries.
  await page.getByRole("link", { name: new RegExp(pharmacy.name) }).first().click();
  await eventually(() => page.getByRole("heading", { name: "check-in", exact: true }).isVisible()).toBe(true);
  await page.getByRole("article", { name: "Nora Quinlan", exact: true }).getByRole("link", { name: "Check-in Nora Quinlan" }).click();
  await eventually(() => page.getByRole("heading", { name: "verify order" }).isVisible()).toBe(true);
  await page.getByRole("checkbox", { name: "No copay" }).check();
  await page.getByRole("button", { name: "Verify order" }).click();
  await eventually(() => page.getByRole("heading", { name: "check-in", exact: true }).isVisible()).toBe(true);
  await eventually(() => page.locator("#all-orders-verified").isEnabled()).toBe(true);
  await page.locator("#all-orders-verified").click();
  await eventually(() => page.getByRole("button", { name: TEXT.startOrderDeliveries }).isEnabled()).toBe(true);
  await page.getByRole("button", { name: TEXT.startOrderDeliveries }).click();

  // Deliver it: address, recipient, signature.
  await eventually(() => new URL(page.url()).pathname).toBe(`/pharmacies/${pharmacy.id}/deliver_orders`);
  await page.getByRole("link", { name: /Nora Quinlan/ }).click();
  await eventually(() => new URL(page.url()).pathname).toMatch(/\/address$/);
  await page.getByRole("button", { name: TEXT.presentAtAddress }).click();
  await eventually(() => new URL(page.url()).pathname).toMatch(/\/recipient$/);
  await page.getByRole("radio", { name: "Patient" }).check();
  await page.getByRole("button", { name: TEXT.continue, exact: true }).click();
  await eventually(() => new URL(page.url()).pathname).toMatch(/\/signature$/);
  const pad = page.locator('canvas[aria-busy="false"]');
  await pad.waitFor();
  const box = (await pad.boundingBox())!;
  await page.mouse.move(box.x + 30, box.y + 120);
  await page.mouse.down();
  for (let i = 1; i <= 12; i++) await page.mouse.move(box.x + 30 + i * 22, box.y + 120 + (i % 2 ? -40 : 30), { steps: 3 });
  await page.mouse.up();
  await eventually(() => page.getByRole("button", { name: TEXT.continue, exact: true }).isEnabled()).toBe(true);
  await page.getByRole("button", { name: TEXT.continue, exact: true }).click();
  await eventually(() => new URL(page.url()).pathname).toMatch(/\/finished$/);
  await expectAccessible(page);
  await screenshot(page, "onboarding-delivered");

  // Dispatch sees it delivered, by the courier it invited.
  const detail = await ops<{ order: { status: { name: string }; courier_id: number } }>("GET", `orders/${order.id}`);
  expect(detail.order.status.name).toBe("delivered");
  expect(detail.order.courier_id).toBe(invite.courier.id);
});
