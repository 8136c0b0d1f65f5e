import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ItineraryResponse, Order } from "../../domain/contract/index.ts";
import type { Proof } from "../../domain/contract/ops-proof.ts";
import { TEXT } from "../../domain/texts.ts";
import { launchBrowser, logIn, pageApi, phonePage, removeDataDir, startServer, type RunningServer } from "./support.ts";

/**
 * Issue 16 end to end: an order delivered in Chromium through the real wizard
 * (another recipient, ID shown, a signature drawn on the pad), then its proof
 * of delivery read back through the operations API as JSON and as the PDF a
 * pharmacy files; the PDF rendered with Debian's poppler-utils, its text
 * checked and the signature box's pixels counted.
 */

const DISPATCH_KEY = "e2e-proof-dispatch-key-0123456789abcdefghij";
const OUT = path.resolve("test-results/proof");

let server: RunningServer;
let browser: Browser;
let page: Page;
let freeman: Order;

const RECIPIENT = { first: "Ruth", last: "Freeman", relationship: "Daughter" };

async function ops(pathname: string, accept = "application/json"): Promise<Response> {
  return fetch(`${server.url}/api/ops/v1/${pathname}`, {
    headers: { Authorization: `Bearer ${DISPATCH_KEY}`, Accept: accept },
    signal: AbortSignal.timeout(30_000),
  });
}

const button = (name: string) => page.getByRole("button", { name, exact: true });
async function atStep(step: string) {
  await expect.poll(() => new URL(page.url()).pathname).toMatch(new RegExp(`/${step}$`));
  await page.locator("h1").first().waitFor();
}

/** A real signature: a zigzag drawn on the pad with the mouse, across most of its width. */
async function sign() {
  const pad = page.locator('canvas[aria-busy="false"]');
  await pad.waitFor();
  const box = (await pad.boundingBox())!;
  await page.mouse.move(box.x + 30, box.y + 120);
  await page.mouse.down();
  for (let i = 1; i <= 12; i++) await page.mouse.move(box.x + 30 + i * 22, box.y + 120 + (i % 2 ? -40 : 30), { steps: 3 });
  await page.mouse.up();
}

/** A binary PGM (P5, 8-bit grey) as pdftoppm -gray writes it. */
function readPgm(file: string): { width: number; height: number; pixels: Uint8Array } {
  const data = readFileSync(file);
  const header = /^P5\s+(\d+)\s+(\d+)\s+255\s/.exec(data.subarray(0, 64).toString("latin1"));
  if (!header) throw new Error(`${file} is not an 8-bit binary PGM`);
  const width = Number(header[1]);
  const height = Number(header[2]);
  return { width, height, pixels: data.subarray(header[0].length, header[0].length + width * height) };
}

beforeAll(async () => {
  mkdirSync(OUT, { recursive: true });
  server = await startServer({ OPS_API_KEY: DISPATCH_KEY });
  browser = await launchBrowser();
  page = await phonePage(browser, server.url);
  await logIn(page);
  await page.waitForURL((url) => !url.pathname.startsWith("/login"));
  const day = (await pageApi<ItineraryResponse>(page, "GET", "/api/courier/itinerary")).body;
  freeman = day.orders.find((o) => o.patient_first_name === "Isaac" && o.patient_last_name === "Freeman")!;
  expect(freeman, "the demo order for Isaac Freeman").toBeDefined();
  // Visits answered and the order picked up through the API: the check-in screens are other tests'.
  const pending = day.pharmacy_visits.filter((visit) => visit.confirmed === null).map((visit) => ({ id: visit.id, confirmed: true }));
  if (pending.length) expect((await pageApi(page, "POST", `/api/couriers/${day.courier.id}/pharmacy_visits/confirm`, { pharmacy_visits: pending })).status).toBe(200);
  expect((await pageApi(page, "POST", `/api/orders/${freeman.id}/pickups`, {})).status).toBe(200);
  await page.goto("/pharmacies");
  await page.getByRole("button", { name: "Refresh" }).click();
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  if (server) removeDataDir(server);
});

describe("proof of delivery of an order delivered in Chromium", () => {
  it("delivers the order through the wizard: another recipient, ID shown, a drawn signature", async () => {
    await page.goto(`/pharmacies/${freeman.pharmacy.id}/deliver_orders/${freeman.id}`);
    await atStep("address");
    await button(TEXT.presentAtAddress).click();
    await atStep("verify-dob");
    await button(TEXT.dobVerified).click();
    await atStep("recipient");
    await page.getByRole("radio", { name: "Other" }).check();
    await page.getByLabel("First name").fill(RECIPIENT.first);
    await page.getByLabel("Last name").fill(RECIPIENT.last);
    await page.getByLabel("Relationship to the patient").fill(RECIPIENT.relationship);
    await button(TEXT.continue).click();
    await atStep("idverification");
    await page.getByLabel("ID type").selectOption("driver");
    await page.getByLabel("State").selectOption("PA");
    await page.getByLabel("ID number").fill("D7788123");
    await page.getByLabel("Expiration date").pressSequentially("12312031");
    await button(TEXT.continue).click();
    await atStep("signature");
    expect(await button(TEXT.continue).isDisabled()).toBe(true);
    await sign();
    await expect.poll(() => button(TEXT.continue).isEnabled()).toBe(true);
    await button(TEXT.continue).click();
    await atStep("finished");
    expect(await page.getByRole("heading", { name: TEXT.delivered }).isVisible()).toBe(true);
  });

  it("the proof JSON names the recipient and who signed, and links the signature", async () => {
    // The delivery reaches the server from the phone's queue; wait for it there.
    await expect.poll(async () => ((await (await ops(`orders/${freeman.id}/proof`)).json()) as Proof).outcome).toBe("delivered");
    const proof = (await (await ops(`orders/${freeman.id}/proof`)).json()) as Proof;
    expect(proof.order.id).toBe(freeman.id);
    expect(proof.pharmacy.name).toBe("Northside Family Drugs");
    expect(proof.recipient).toEqual({ first_name: "Ruth", last_name: "Freeman", relationship: "Other", other_relationship_description: "Daughter" });
    expect(proof.signed_by).toBe("Ruth Freeman");
    expect(proof.identification).toMatchObject({ type: "driver", state: "PA", number_last4: "8123" });
    expect(proof.signature_url).toBeTruthy();
    const svg = await ops(`orders/${freeman.id}/proof/signature.svg`, "image/svg+xml");
    expect(svg.status).toBe(200);
    expect(await svg.text()).toMatch(/<(path|polyline|line)\b/);
  });

  it("the proof PDF, rendered, shows the pharmacy, the recipient, the outcome and the signature", async () => {
    // A PDF asked for by its own type alone, as a filing system would.
    const response = await ops(`orders/${freeman.id}/proof.pdf`, "application/pdf");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/pdf");
    const pdf = Buffer.from(await response.arrayBuffer());
    expect(pdf.subarray(0, 5).toString("latin1")).toBe("%PDF-");
    const pdfFile = path.join(OUT, "proof.pdf");
    writeFileSync(pdfFile, pdf);

    const text = execFileSync("pdftotext", ["-layout", pdfFile, "-"], { encoding: "utf8" });
    expect(text).toContain("Proof of delivery");
    expect(text).toContain("Northside Family Drugs");
    expect(text).toMatch(/Outcome\s+Delivered/);
    expect(text).toMatch(/Received by\s+Ruth Freeman/);
    expect(text).toMatch(/Signed by\s+Ruth Freeman/);
    expect(text).toContain("Daughter");
    expect(text).toContain("number ending 8123");
    expect(text).not.toContain("D7788123");
    expect(text).toContain("Recipient's signature");
    expect(text).not.toContain("No signature was taken.");
    expect(execFileSync("pdfinfo", [pdfFile], { encoding: "utf8" })).toMatch(/Pages:\s+1\n/);

    // The whole page at 80 dpi, to look at (test-results/proof/proof.png).
    execFileSync("pdftoppm", ["-png", "-r", "80", "-singlefile", pdfFile, path.join(OUT, "proof")]);
    const png = path.join(OUT, "proof.png");
    expect(existsSync(png)).toBe(true);
    expect(readFileSync(png).subarray(1, 4).toString("latin1")).toBe("PNG");
    expect(statSync(png).size).toBeGreaterThan(10_000);

    // The signature box: 300×130 pt under its label (server/ops/services/proof/pdf.ts); find the label, crop inside the border.
    const bbox = execFileSync("pdftotext", ["-bbox", pdfFile, "-"], { encoding: "utf8" });
    const words = [...bbox.matchAll(/<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">([^<]*)<\/word>/g)].map((m) => ({
      x: Number(m[1]), yMax: Number(m[4]), word: m[5]!,
    }));
    const label = words.findIndex((w, i) => w.word === "Recipient&apos;s" && words[i + 1]?.word === "signature");
    expect(label, "the signature label in the PDF").toBeGreaterThanOrEqual(0);
    const scale = 80 / 72;
    const inset = 10; // keeps the box's grey border out of the count
    const crop = { x: words[label]!.x + inset, y: words[label]!.yMax + 4 + inset, width: 300 - 2 * inset, height: 130 - 2 * inset };
    execFileSync("pdftoppm", [
      "-gray", "-r", "80", "-singlefile",
      "-x", String(Math.round(crop.x * scale)), "-y", String(Math.round(crop.y * scale)),
      "-W", String(Math.round(crop.width * scale)), "-H", String(Math.round(crop.height * scale)),
      pdfFile, path.join(OUT, "signature-box"),
    ]);
    const { width, height, pixels } = readPgm(path.join(OUT, "signature-box.pgm"));
    const darkIn = (from: number, to: number) => {
      let dark = 0;
      for (let y = 0; y < height; y++) for (let x = Math.floor(from * width); x < Math.floor(to * width); x++) if (pixels[y * width + x]! < 80) dark++;
      return dark;
    };
    const dark = darkIn(0, 1);
    // A stroke 2 units wide across most of the box at 80 dpi darkens several hundred pixels; an empty box none.
    expect(dark, `dark pixels in the ${width}×${height} signature box`).toBeGreaterThan(200);
    expect(dark / (width * height), "the box is not filled solid").toBeLessThan(0.3);
    // The zigzag crosses the box: ink in its left and right thirds both.
    expect(darkIn(0, 1 / 3)).toBeGreaterThan(30);
    expect(darkIn(2 / 3, 1)).toBeGreaterThan(30);
  });
});
