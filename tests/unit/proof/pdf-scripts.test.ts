import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { Proof } from "../../../domain/contract/ops-proof.ts";
import { proofPdf } from "../../../server/ops/services/proof/pdf.ts";

/**
 * Issue 24 §7: the proof of delivery in every script a name is written in,
 * checked with poppler (pdftotext for the words, pdfinfo for the page count
 * and the fonts) and rendered as PNG in test-results/proof/ to look at.
 */

const OUT = path.resolve("test-results/proof");

function saved(pdf: Buffer, name: string): string {
  mkdirSync(OUT, { recursive: true });
  const file = path.join(OUT, `${name}.pdf`);
  writeFileSync(file, pdf);
  return file;
}
const text = (file: string) => execFileSync("pdftotext", [file, "-"], { encoding: "utf8" });
const raw = (file: string) => execFileSync("pdftotext", ["-raw", file, "-"], { encoding: "utf8" });
const pages = (file: string) => Number(/Pages:\s+(\d+)/.exec(execFileSync("pdfinfo", [file], { encoding: "utf8" }))![1]);
const fonts = (file: string) => execFileSync("pdffonts", [file], { encoding: "utf8" });
/** The signature box (130 pt under its label, pdf.ts) ends above the footer. */
function signatureBoxAboveFooter(file: string): boolean {
  const words = [...execFileSync("pdftotext", ["-bbox", file, "-"], { encoding: "utf8" }).matchAll(/yMin="([\d.]+)" xMax="[\d.]+" yMax="([\d.]+)">([^<]*)</g)].map((m) => ({
    yMin: Number(m[1]),
    yMax: Number(m[2]),
    word: m[3],
  }));
  const label = words.find((w) => w.word === "Recipient&apos;s")!;
  const footer = words.filter((w) => w.word === "Rx").at(-1)!; // "… generated … by Rx Courier from the delivery record."
  return label.yMax + 2 + 130 < footer.yMin;
}
const png = (file: string, name: string) => execFileSync("pdftoppm", ["-png", "-r", "80", "-singlefile", file, path.join(OUT, name)]);

const SIGNATURE =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 354 200"><path d="M 30,150 C 60,40 90,40 110,120 S 150,190 180,80" stroke-width="4" stroke="black" fill="none"/></svg>';

const base: Proof = {
  order: { id: 4711, external_id: "RX-PO-0042", status: "delivered", service_date: "2026-11-21", rx_numbers: ["RX-1001"] },
  pharmacy: { id: 3, name: "Riverside Community Pharmacy" },
  courier: { id: 1, first_name: "Dana", last_name: "Whitfield" },
  document_id: "POD-4711-0123456789AB",
  generated_at: "2026-11-22T09:00:00.000Z",
  time_zone: "America/New_York",
  patient: { first_name: "Eleanor", last_name: "Vance" },
  delivery_address: { street_address: "12 Elm Street", street_address_2: null, city: "Philadelphia", state_abbreviation: "PA", zipcode: "19103" },
  outcome: "delivered",
  failure: null,
  recipient: { first_name: "Marta", last_name: "Kowalski", relationship: "Self", other_relationship_description: null },
  signed_by: "Marta Kowalski",
  signature_refusal_reason: null,
  dob_verified: true,
  identification: null,
  payment: null,
  copay_change: null,
  notes: null,
  client_occurred_at: "2026-11-21T15:04:05.000Z",
  received_at: "2026-11-21T15:04:07.000Z",
  latitude: null,
  longitude: null,
  grouped_order_ids: [],
  signature_url: "/s",
  photo_url: null,
  returned: null,
};

const render = (proof: Proof) => proofPdf(proof, { timeZone: "America/New_York", signatureSvg: SIGNATURE, returnSignatureSvg: null });

describe("proof.pdf in every script", { timeout: 60_000 }, () => {
  it("writes CJK, Arabic, Hebrew, Vietnamese, Cyrillic, Greek names and emoji as text, with embedded fonts", async () => {
    const file = saved(
      await render({
        ...base,
        patient: { first_name: "王秀英", last_name: "محمد عبد الله" },
        recipient: { first_name: "שרה", last_name: "כהן", relationship: "Other", other_relationship_description: "Nguyễn Thị Minh Khai" },
        signed_by: "Дмитрий Иванов · Ελένη Παπαδοπούλου",
        notes: "Left with the neighbour 😀👍 — thanks!",
        delivery_address: { street_address: "北京市朝阳区建国路 88 号", street_address_2: "شارع الملك فهد 12", city: "Hà Nội", state_abbreviation: "PA", zipcode: "19103" },
      }),
      "proof-scripts",
    );
    png(file, "proof-scripts");
    expect(pages(file)).toBe(1);
    const words = text(file);
    for (const expected of ["王秀英", "Nguyễn Thị Minh Khai", "Дмитрий Иванов", "Ελένη Παπαδοπούλου", "北京市朝阳区建国路", "Hà Nội", "😀"]) {
      expect(words).toContain(expected);
    }
    // Right-to-left words come back from poppler as words (a letter whose dots the font positions as a mark, like ش,
    // comes back split by poppler's word heuristics; the PNG shows it joined).
    for (const expected of ["محمد", "عبد", "الله", "שרה", "כהן", "الملك"]) expect(raw(file)).toContain(expected);
    // Never the mojibake of a font without the glyphs.
    expect(words).not.toMatch(/s‹yÀ|\uFFFD/);
    // Every font is embedded (a subset): no reliance on what the reader has installed.
    const table = fonts(file);
    for (const family of ["NotoSans-Regular", "NotoSansArabic", "NotoSansHebrew", "NotoSansSC", "NotoEmoji"]) expect(table).toContain(family);
    for (const line of table.split("\n").slice(2).filter(Boolean)) expect(line).toMatch(/\byes\s+yes\b/); // emb, sub
  });

  it("does not load or embed the CJK font for a document without CJK", async () => {
    const file = saved(await render(base), "proof-latin");
    expect(fonts(file)).not.toContain("NotoSansSC");
  });

  it("drops U+202E and the other direction controls from stored values: our labels keep their order", async () => {
    const file = saved(
      await render({ ...base, patient: { first_name: "\u202EEvil", last_name: "Name\u2066\u200F" }, signed_by: "\u202Bsigned\u202C" }),
      "proof-bidi-controls",
    );
    const words = text(file);
    expect(words).toContain("Evil Name");
    expect(words).toContain("Recipient's signature");
    expect(words).toContain("signed");
    expect(words).not.toContain("lavE");
    expect(words).not.toMatch(/[\u202A-\u202E\u2066-\u2069\u200E\u200F]/);
  });

  it("stays one page with the signature box in place: 1,000-character notes, 80 line breaks, a long pharmacy name, wrapped identifiers", async () => {
    const note = `${"The parcel was left at the side door as the patient asked on the phone. ".repeat(14)}END-OF-NOTE`;
    const lines = Array.from({ length: 81 }, (_, index) => `line ${index + 1}`).join("\n");
    const longName = "The Very Long Name Of A Community Pharmacy And Wellness Centre Serving The Greater Riverside Metropolitan Area Since 1921";
    const reference = "REF-".padEnd(100, "X") + "-TAIL";
    for (const [name, proof] of [
      ["proof-long-notes", { ...base, notes: note }],
      ["proof-line-breaks", { ...base, notes: lines, failure: null }],
      ["proof-long-names", { ...base, pharmacy: { id: 3, name: longName }, order: { ...base.order, external_id: reference } }],
      [
        "proof-every-field-at-its-cap",
        {
          ...base,
          pharmacy: { id: 3, name: longName },
          order: { ...base.order, external_id: reference, rx_numbers: Array.from({ length: 50 }, (_, i) => `RX-${String(i).padStart(3, "0")}-`.padEnd(50, "9")) },
          patient: { first_name: "Maximilian".repeat(10), last_name: "Wolfeschlegelsteinhausenbergerdorff".repeat(3) },
          delivery_address: { street_address: "1234 ".repeat(40), street_address_2: "Building ".repeat(22), city: "Llanfairpwllgwyngyll".repeat(5), state_abbreviation: "PA", zipcode: "19103-0001" },
          notes: note,
        },
      ],
    ] as const) {
      const file = saved(await render(proof as Proof), name);
      png(file, name);
      expect(pages(file), name).toBe(1);
      const words = text(file);
      expect(words, name).toContain("Recipient's signature");
      expect(signatureBoxAboveFooter(file), name).toBe(true);
      if (name === "proof-every-field-at-its-cap") {
        expect(words.replace(/\s+/g, "")).toContain(`RX-049-${"9".repeat(43)}`);
      } else if (name !== "proof-long-names") {
        expect(words, name).toContain("the full text is in the JSON proof");
        expect(words, name).not.toContain("END-OF-NOTE");
        expect(words, name).not.toContain("line 80");
      } else {
        // Wrapped, not clipped: every part of the name and the reference is on the page.
        expect(words.replace(/\s+/g, " ")).toContain("Serving The Greater Riverside Metropolitan Area Since 1921");
        expect(words.replace(/\s+/g, "")).toContain(reference);
      }
    }
  });

  it("says what it is: a title, the document id and the time it was generated, as PDF/A", async () => {
    const file = saved(await render(base), "proof-latin");
    const info = execFileSync("pdfinfo", [file], { encoding: "utf8" });
    expect(info).toMatch(/Title:\s+Proof of delivery — order 4711/);
    expect(info).toMatch(/Keywords:\s+POD-4711-0123456789AB/);
    expect(execFileSync("pdfinfo", ["-meta", file], { encoding: "utf8" })).toContain("<pdfaid:part>2</pdfaid:part>");
    const words = text(file);
    expect(words).toContain("Document POD-4711-0123456789AB");
    expect(words).toContain("generated Nov 22, 2026, 4:00 AM EST");
  });
});
