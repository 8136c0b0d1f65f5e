import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { Proof, ReturnManifest } from "../../../domain/contract/ops-proof.ts";
import { proofPdf, returnManifestPdf } from "../../../server/ops/services/proof/pdf.ts";
import { gradientJpeg } from "../../support/test-images.ts";

/**
 * The PDFs rendered as a person sees them: poppler's pdftotext for the words,
 * pdftoppm for a PNG (kept in test-results/proof/ to look at), and the
 * content stream for vector strokes (no image of the signature).
 */

const SIGNATURE =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 354 200" width="354" height="200"><rect width="354" height="200" fill="white"/>' +
  '<path d="M 30,150 C 60,40 90,40 110,120 S 150,190 180,80 S 240,20 320,140" stroke-width="4" stroke="black" fill="none"/>' +
  '<circle cx="330" cy="60" r="4" fill="black"/></svg>';

const OUT = path.resolve("test-results/proof");

function pdfText(pdf: Buffer): string {
  const dir = mkdtempSync(path.join(tmpdir(), "rxc-pdf-"));
  const file = path.join(dir, "doc.pdf");
  writeFileSync(file, pdf);
  return execFileSync("pdftotext", ["-layout", file, "-"], { encoding: "utf8" });
}

function pdfPages(pdf: Buffer): number {
  const dir = mkdtempSync(path.join(tmpdir(), "rxc-pdf-"));
  const file = path.join(dir, "doc.pdf");
  writeFileSync(file, pdf);
  return Number(/Pages:\s+(\d+)/.exec(execFileSync("pdfinfo", [file], { encoding: "utf8" }))![1]);
}

function toPng(pdf: Buffer, name: string): Buffer {
  mkdirSync(OUT, { recursive: true });
  const file = path.join(OUT, `${name}.pdf`);
  writeFileSync(file, pdf);
  execFileSync("pdftoppm", ["-png", "-r", "60", "-singlefile", file, path.join(OUT, name)]);
  return readFileSync(path.join(OUT, `${name}.png`));
}

const delivered: Proof = {
  order: { id: 4711, external_id: "RX-PO-0042", status: "delivered", service_date: "2026-11-21", rx_numbers: ["RX-1001", "RX-1002"] },
  pharmacy: { id: 3, name: "Riverside Community Pharmacy" },
  courier: { id: 1, first_name: "Dana", last_name: "Whitfield" },
  document_id: "POD-4711-0123456789AB",
  generated_at: "2026-11-22T09:00:00.000Z",
  time_zone: "America/New_York",
  patient: { first_name: "Eleanor", last_name: "Vance" },
  delivery_address: { street_address: "12 Elm Street", street_address_2: "Apt 3", city: "Philadelphia", state_abbreviation: "PA", zipcode: "19103" },
  copay_change: null,
  outcome: "delivered",
  failure: null,
  recipient: { first_name: "Marta", last_name: "Kowalski", relationship: "Other", other_relationship_description: "Daughter" },
  signed_by: "Marta Kowalski",
  signature_refusal_reason: null,
  dob_verified: true,
  identification: { type: "driver", state: "PA", number_last4: "4567", expiration: "2030-12-31" },
  payment: { type: "credit_card", amount: "28.99", card_last4: "0005" },
  notes: null,
  client_occurred_at: "2026-11-21T15:04:05.000Z",
  received_at: "2026-11-21T15:04:07.000Z",
  latitude: 39.94612,
  longitude: -75.16689,
  grouped_order_ids: [],
  signature_url: "/api/ops/v1/orders/4711/proof/signature.svg",
  photo_url: null,
  returned: null,
};

describe("proof.pdf", () => {
  it("is one page with the facts in words and the signature as vector strokes", async () => {
    const pdf = await proofPdf(delivered, { timeZone: "America/New_York", signatureSvg: SIGNATURE, returnSignatureSvg: null });
    expect(pdf.subarray(0, 5).toString()).toBe("%PDF-");
    expect(pdfPages(pdf)).toBe(1);
    const text = pdfText(pdf);
    for (const words of [
      "Proof of delivery",
      "Riverside Community Pharmacy",
      "Order 4711",
      "Pharmacy reference",
      "RX-PO-0042",
      "Eleanor Vance",
      "12 Elm Street",
      "Apt 3",
      "Philadelphia, PA 19103",
      "RX-1001, RX-1002",
      "Sat, Nov 21, 2026 (2026-11-21)",
      "Yes, verified",
      "Delivered",
      "Dana Whitfield",
      "Marta Kowalski",
      "Other: Daughter",
      "Driver license, PA, number ending 4567, expires 2030-12-31",
      "Document POD-4711-0123456789AB",
      "Card $28.99 (card ending 0005)",
      "Nov 21, 2026, 10:04 AM EST",
      "39.94612, -75.16689",
      "Recipient's signature",
    ]) {
      expect(text).toContain(words);
    }
    // No raster: the page has no image XObject, and the strokes are there as curves.
    expect(pdf.includes(Buffer.from("/Subtype /Image"))).toBe(false);
    const png = toPng(pdf, "proof-delivered");
    expect(png.length).toBeGreaterThan(1000);
  });

  it("a failed attempt shows the reason and notes and no signature box; a returned order shows the staff's signature", async () => {
    const failed: Proof = {
      ...delivered,
      outcome: "returned_to_pharmacy",
      order: { ...delivered.order, status: "returned_to_pharmacy", external_id: null },
      failure: { reason: "Patient Not Home", notes: "Rang twice" },
      recipient: null,
      signed_by: null,
      identification: null,
      payment: null,
      dob_verified: null,
      signature_url: null,
      returned: { return_id: 9, staff_first_name: "Priya", staff_last_name: "Shah", at: "2026-11-21T21:30:00.000Z", signature_url: "/x" },
    };
    const pdf = await proofPdf(failed, { timeZone: "America/New_York", signatureSvg: null, returnSignatureSvg: SIGNATURE });
    const text = pdfText(pdf);
    expect(text).toContain("Returned to the pharmacy");
    expect(text).toContain("Patient Not Home");
    expect(text).toContain("Rang twice");
    expect(text).toContain("Priya Shah (pharmacy staff)");
    expect(text).toContain("Pharmacy staff's signature");
    expect(text).not.toContain("Recipient's signature");
    toPng(pdf, "proof-returned");
  });
});

describe("proof.pdf shows a copay changed at pickup (issue 25)", { timeout: 30_000 }, () => {
  it("names the amounts, who changed it and when; nothing when custody has no change", async () => {
    const changed: Proof = {
      ...delivered,
      copay_change: { before: "12.50", after: "0.00", changed_by: "Dana Whitfield", at: "2026-11-21T13:00:00.000Z" },
    };
    const text = pdfText(await proofPdf(changed, { timeZone: "America/New_York", signatureSvg: SIGNATURE, returnSignatureSvg: null }));
    expect(text).toMatch(/Copay changed at pickup\s+From \$12\.50 to \$0\.00, by Dana Whitfield, Nov 21, 2026, 8:00 AM EST/);
    const none = pdfText(await proofPdf(delivered, { timeZone: "America/New_York", signatureSvg: SIGNATURE, returnSignatureSvg: null }));
    expect(none).not.toContain("Copay changed");
  });
});

describe("proof.pdf with the photo of the drop-off (issue 19)", () => {
  const contactless: Proof = {
    ...delivered,
    recipient: { first_name: null, last_name: null, relationship: "Contactless - No Signature Requested", other_relationship_description: null },
    signed_by: null,
    identification: null,
    payment: null,
    dob_verified: null,
    notes: "Left in the lockbox by the porch.",
    signature_url: null,
    photo_url: "/api/ops/v1/orders/4711/proof/photo",
  };

  it("draws a JPEG photo on the one page, below the facts", async () => {
    const photo = { mediaType: "image/jpeg", bytes: gradientJpeg(1280, 960) };
    const pdf = await proofPdf(contactless, { timeZone: "America/New_York", signatureSvg: null, returnSignatureSvg: null, photo });
    expect(pdfPages(pdf)).toBe(1);
    const text = pdfText(pdf);
    expect(text).toContain("Photo of the drop-off");
    expect(text).toContain("Left in the lockbox by the porch.");
    expect(pdf.includes(Buffer.from("/Subtype /Image"))).toBe(true);
    expect(toPng(pdf, "proof-contactless-photo").length).toBeGreaterThan(1000);
  });

  it("names a WebP photo (which pdfkit cannot draw) with its link instead", async () => {
    const webp = Buffer.concat([Buffer.from("RIFF\x10\x00\x00\x00WEBPVP8 ", "latin1"), Buffer.alloc(16)]);
    const pdf = await proofPdf(contactless, { timeZone: "America/New_York", signatureSvg: null, returnSignatureSvg: null, photo: { mediaType: "image/webp", bytes: webp } });
    expect(pdfPages(pdf)).toBe(1);
    expect(pdfText(pdf)).toContain("The photo (image/webp) is on file");
    expect(pdf.includes(Buffer.from("/Subtype /Image"))).toBe(false);
  });
});

const ORDER_ON_RETURN = {
  service_date: "2026-11-21",
  returned_item: true,
  item_amount: "0.00",
  cash: null,
  check: null,
};

const manifest: ReturnManifest = {
  id: 12,
  pharmacy: { id: 3, name: "Riverside Community Pharmacy" },
  courier: { id: 1, first_name: "Dana", last_name: "Whitfield" },
  document_id: "RET-12-0123456789AB",
  generated_at: "2026-11-22T09:00:00.000Z",
  time_zone: "America/New_York",
  signed_at: "2026-11-21T21:30:00.000Z",
  staff_first_name: "Priya",
  staff_last_name: "Shah",
  items: [{ order_id: 41, amount: "0.00" }],
  cash: [{ order_id: 42, amount: "17.50" }],
  checks: [{ order_id: 43, amount: "12.50" }],
  cash_total: "17.50",
  check_total: "12.50",
  orders: [
    { ...ORDER_ON_RETURN, order_id: 41, external_id: "RX-PO-0041", patient: { first_name: "王", last_name: "秀英" }, rx_numbers: ["RX-4101", "RX-4102"], reason: "Patient Not Home" },
    {
      ...ORDER_ON_RETURN,
      order_id: 42,
      external_id: "RX-PO-0042",
      patient: { first_name: "محمد", last_name: "عبد الله" },
      rx_numbers: ["RX-4201"],
      returned_item: false,
      reason: "Delivered: payment handed over",
      item_amount: null,
      cash: "17.50",
    },
    {
      ...ORDER_ON_RETURN,
      order_id: 43,
      external_id: "RX-PO-0043",
      patient: { first_name: "Nguyễn", last_name: "Thị Minh Khai" },
      rx_numbers: ["RX-4301"],
      returned_item: false,
      reason: "Delivered: payment handed over",
      item_amount: null,
      check: "12.50",
    },
  ],
  latitude: null,
  longitude: null,
  signature_url: "/x",
  pdf_url: "/y",
};

describe("return manifest pdf", { timeout: 60_000 }, () => {
  it("lists each order with its reference, Rx numbers, patient, reason and amounts, the totals and the staff's signature", async () => {
    const pdf = await returnManifestPdf(manifest, { timeZone: "America/New_York", signatureSvg: SIGNATURE });
    toPng(pdf, "return-manifest");
    const text = pdfText(pdf);
    for (const words of [
      "Return manifest",
      "RET-12-0123456789AB",
      "Priya Shah",
      "Order 41 · pharmacy reference RX-PO-0041",
      "RX-4101, RX-4102",
      "王 秀英",
      "Patient Not Home",
      "Order 42 · pharmacy reference RX-PO-0042",
      "Cash $17.50",
      "Nguyễn Thị Minh Khai",
      "Check $12.50",
      "Cash total",
      "Not sent by the phone",
    ]) {
      expect(text).toContain(words);
    }
    expect(text).not.toContain("Items returned: Order 41");
  });

  it("runs onto more pages when the orders need them, each page numbered and the signature at the end", async () => {
    const many: ReturnManifest = {
      ...manifest,
      orders: Array.from({ length: 40 }, (_, index) => ({
        ...ORDER_ON_RETURN,
        order_id: 100 + index,
        external_id: `RX-PO-${100 + index}`,
        patient: { first_name: "Ana", last_name: `Patient ${index}` },
        rx_numbers: [`RX-${index}-A`, `RX-${index}-B`],
        reason: "Patient Not Home",
      })),
    };
    const pdf = await returnManifestPdf(many, { timeZone: "America/New_York", signatureSvg: SIGNATURE });
    const pages = pdfPages(pdf);
    expect(pages).toBeGreaterThan(1);
    const text = pdfText(pdf);
    for (let index = 0; index < 40; index++) expect(text).toContain(`Order ${100 + index} · pharmacy reference RX-PO-${100 + index}`);
    expect(text).toContain(`Page ${pages} of ${pages}`);
    expect(text).toContain("Pharmacy staff's signature");
  });
});
