import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import bwipjs from "bwip-js/node";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { ItineraryResponse } from "../../domain/contract/itinerary.ts";
import { SCAN_TEXT } from "../../domain/label-scan.ts";
import { expectAccessible, expectTapTargets, launchBrowser, logIn, pageApi, phonePage, removeDataDir, screenshot, startServer, type RunningServer } from "./support.ts";

/**
 * Issue 19: scanning a bag's label in Chromium with a fake camera. The
 * camera films a Y4M video made here with ffmpeg from labels bwip-js draws:
 * a Market Street bag (no order at Riverside, nor a Greenway bag), then
 * Walter Brennan's Riverside bag, then Nadia Haddad's Greenway bag, in a loop.
 * Headless Chromium has no BarcodeDetector, so the WebAssembly decoder reads
 * them — under the app's own Content-Security-Policy and Permissions-Policy.
 */

/**
 * The first label stays longest: the camera opens at the film's start, and the
 * tests see it named before a later label moves the screen on, even when the
 * decoder takes a few seconds to compile on a busy machine.
 */
const LABELS = [
  { rx: "RX-510001", bcid: "code128", seconds: 8 }, // Samuel Okafor, Market Street
  { rx: "RX-400201", bcid: "datamatrix", seconds: 4 }, // Walter Brennan, Riverside
  { rx: "RX-620001", bcid: "qrcode", seconds: 4 }, // Nadia Haddad, Greenway (picked up: a bag going back)
];

let server: RunningServer;
let browser: Browser;
let plainBrowser: Browser | null = null;
let work: string;

const eventually = <T,>(read: () => Promise<T> | T, timeout = 15_000) => expect.poll(read, { timeout });

/** The fake camera's film: each label centred on white, 640×480, a few frames a second. */
async function filmOfLabels(dir: string): Promise<string> {
  const inputs: string[] = [];
  for (const [index, { rx, bcid, seconds }] of LABELS.entries()) {
    const linear = bcid === "code128";
    const size = linear ? { scale: 3, height: 20 } : { scale: 6 };
    const png = await bwipjs.toBuffer({ bcid, text: rx, ...size, backgroundcolor: "FFFFFF", paddingwidth: 10, paddingheight: 10 });
    const file = path.join(dir, `label-${index}.png`);
    writeFileSync(file, png);
    inputs.push("-loop", "1", "-t", String(seconds), "-framerate", "5", "-i", file);
  }
  const scaled = LABELS.map((_, i) => `[${i}]scale=560:400:force_original_aspect_ratio=decrease,pad=640:480:(ow-iw)/2:(oh-ih)/2:white,setsar=1,format=yuv420p[v${i}]`);
  const film = path.join(dir, "labels.y4m");
  execFileSync("ffmpeg", [
    "-y", "-loglevel", "error", ...inputs,
    "-filter_complex", `${scaled.join(";")};${LABELS.map((_, i) => `[v${i}]`).join("")}concat=n=${LABELS.length}:v=1:a=0[out]`,
    "-map", "[out]", "-r", "5", "-pix_fmt", "yuv420p", film,
  ]);
  return film;
}

beforeAll(async () => {
  work = mkdtempSync(path.join(tmpdir(), "rxc-scan-"));
  const film = await filmOfLabels(work);
  server = await startServer();
  browser = await launchBrowser({
    args: ["--use-fake-device-for-media-stream", "--use-fake-ui-for-media-stream", `--use-file-for-fake-video-capture=${film}`],
  });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await plainBrowser?.close();
  await server?.stop();
  if (server) removeDataDir(server);
  if (work) rmSync(work, { recursive: true, force: true });
});

/** Logged in, the pending visit answered (no screen redirects to /confirm_pharmacy_visits): the day's pharmacies by name. */
async function startDay(page: Page): Promise<Map<string, number>> {
  await logIn(page);
  await page.waitForURL((url) => !url.pathname.startsWith("/login"));
  const day = (await pageApi<ItineraryResponse>(page, "GET", "/api/courier/itinerary")).body;
  const pending = day.pharmacy_visits.filter((visit) => visit.confirmed === null).map((visit) => ({ id: visit.id, confirmed: true }));
  if (pending.length) expect((await pageApi(page, "POST", `/api/couriers/${day.courier.id}/pharmacy_visits/confirm`, { pharmacy_visits: pending })).status).toBe(200);
  return new Map(day.orders.map((order) => [order.pharmacy.name, order.pharmacy.id]));
}

async function openCheckIn(page: Page, pharmacyId: number) {
  await page.goto(`/pharmacies/${pharmacyId}/verify_orders`);
  await eventually(() => page.getByRole("heading", { name: "check-in", exact: true }).isVisible()).toBe(true);
}

it("scans a bag at check-in under the app's own CSP: a label of no order here is named, Brennan's opens his verify screen", async () => {
  const page = await phonePage(browser, server.url, { enforceCsp: true, serviceWorkers: "block" });
  const policyViolations: string[] = [];
  page.on("console", (message) => {
    if (/Content Security Policy|Permissions policy|Refused to/i.test(message.text())) policyViolations.push(message.text());
  });
  const wasm: { status: number; type: string | undefined }[] = [];
  page.on("response", (response) => {
    if (new URL(response.url()).pathname.endsWith(".wasm")) wasm.push({ status: response.status(), type: response.headers()["content-type"] });
  });
  const pharmacies = await startDay(page);
  const riverside = pharmacies.get("Riverside Community Pharmacy")!;
  await openCheckIn(page, riverside);
  // Nothing of the scanner is fetched until Scan is tapped.
  expect(wasm).toEqual([]);
  expect(await page.evaluate(() => performance.getEntriesByType("resource").some((entry) => /camera-scan|wasm-decoder/.test(entry.name)))).toBe(false);

  await page.getByRole("button", { name: SCAN_TEXT.scan }).click();
  await eventually(() => page.getByText(SCAN_TEXT.noOrderWithLabel("RX-510001")).isVisible(), 30_000).toBe(true);
  // The search box stays usable while the camera is open.
  expect(await page.getByPlaceholder("Search...").isEnabled()).toBe(true);
  await page.waitForURL(/\/verify_orders\/\d+$/, { timeout: 30_000 });
  await eventually(() => page.getByRole("heading", { name: "verify order" }).isVisible()).toBe(true);
  await eventually(() => page.locator(".facts__strong").textContent()).toBe("Walter Brennan");

  // The WebAssembly decoder did the reading, its .wasm from our server (compiled as application/wasm), and no policy refused anything.
  expect(await page.evaluate(() => "BarcodeDetector" in window)).toBe(false);
  expect(wasm).toEqual([{ status: 200, type: "application/wasm" }]);
  expect(policyViolations).toEqual([]);
  // Leaving the scanner closed the camera.
  expect(await page.evaluate(() => document.querySelector("video")?.srcObject ?? null)).toBeNull();
  await page.context().close();
}, 120_000);

it("shows the scanner at 390×844: the picture, the words, ≥ 44 px buttons, axe clean; Stop scanning closes it", async () => {
  const page = await phonePage(browser, server.url, { serviceWorkers: "block" });
  const pharmacies = await startDay(page);
  await openCheckIn(page, pharmacies.get("Riverside Community Pharmacy")!);
  await expectTapTargets(page);
  await screenshot(page, "scan-check-in-button");
  await page.getByRole("button", { name: SCAN_TEXT.scan }).click();
  await eventually(() => page.getByText(SCAN_TEXT.noOrderWithLabel("RX-510001")).isVisible(), 30_000).toBe(true);
  await page.evaluate(() => window.scrollTo(0, 0));
  await screenshot(page, "scan-check-in");
  await expectAccessible(page);
  await expectTapTargets(page);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await page.getByRole("button", { name: SCAN_TEXT.stopScanning }).click();
  await eventually(() => page.getByRole("button", { name: SCAN_TEXT.scan }).isVisible()).toBe(true);
  expect(await page.evaluate(() => document.querySelector("video")?.srcObject ?? null)).toBeNull();
  expect(new URL(page.url()).pathname).toMatch(/\/verify_orders$/);
  await page.context().close();
}, 120_000);

it("ticks off Greenway's bags on the returns summary as their labels are read; other labels are named", async () => {
  const page = await phonePage(browser, server.url, { serviceWorkers: "block" });
  const pharmacies = await startDay(page);
  await page.goto(`/pharmacies/${pharmacies.get("Greenway Health Pharmacy")!}/reconcile`);
  await eventually(() => page.getByRole("heading", { name: "Returns" }).isVisible()).toBe(true);
  await screenshot(page, "scan-returns-button");
  await page.getByRole("button", { name: SCAN_TEXT.scan }).click();
  await eventually(() => page.getByRole("heading", { name: /^Bags handed back: 0 of 4$/ }).isVisible()).toBe(true);
  await eventually(() => page.getByRole("heading", { name: /^Bags handed back: 1 of 4$/ }).isVisible(), 30_000).toBe(true);
  expect(await page.locator(".bag-row--ticked").allTextContents()).toEqual([expect.stringContaining("Nadia Haddad")]);
  await eventually(() => page.getByText(/^No order here has the label RX-(510001|400201)\.$/).isVisible(), 30_000).toBe(true);
  await page.evaluate(() => window.scrollTo(0, 0));
  await screenshot(page, "scan-returns");
  await expectAccessible(page);
  await expectTapTargets(page);
  // A tick is extra: Continue goes on to the staff signature as before, and the camera closes.
  await page.getByRole("button", { name: "Continue" }).click();
  await page.waitForURL(/\/reconcile_signature$/);
  expect(await page.evaluate(() => document.querySelector("video")?.srcObject ?? null)).toBeNull();
  await page.context().close();
}, 120_000);

it("without a camera: the reason in words, and the typed search as before", async () => {
  // Chromium with no fake device: headless, it finds no camera at all.
  plainBrowser = await launchBrowser();
  const page = await phonePage(plainBrowser, server.url, { serviceWorkers: "block" });
  const pharmacies = await startDay(page);
  await openCheckIn(page, pharmacies.get("Riverside Community Pharmacy")!);
  await page.getByRole("button", { name: SCAN_TEXT.scan }).click();
  const alert = page.getByRole("alert");
  await eventually(() => alert.textContent(), 30_000).toMatch(/^(No camera was found on this phone\.|The camera is not allowed for this app|The camera could not be started)/);
  expect(await alert.textContent()).toContain(SCAN_TEXT.searchInstead);
  await screenshot(page, "scan-no-camera");
  await expectAccessible(page);
  await expectTapTargets(page);
  await page.getByPlaceholder("Search...").fill("brennan");
  await eventually(() => page.locator(".order-row__name").allTextContents()).toEqual(["Walter Brennan"]);
  await page.context().close();
}, 120_000);
