import PDFDocument from "pdfkit";
import type { Proof, ReturnManifest } from "../../../../domain/contract/ops-proof.ts";
import { SIGNATURE_REFUSAL_REASONS } from "../../../../domain/vocabulary.ts";
import { PdfText, type TextStyle } from "./pdf-text.ts";
import { cleanText } from "./text-layout.ts";
import { drawablePhoto, drawStoredSignature, PHOTO_UNDRAWABLE, SIGNATURE_UNDRAWABLE } from "./drawable.ts";

/**
 * The PDFs a pharmacy files: the proof of delivery (always one page, the
 * signature box in place) and the return manifest (as many pages as its
 * orders need), laid out for a person, in any script (pdf-text.ts: embedded
 * Noto subsets, bidi order, wrapping), with the signature drawn as vectors.
 * Written as PDF/A-2b (every font embedded, XMP metadata, an sRGB output
 * intent), titled, carrying the document id and when it was generated.
 */

const MARGIN = 44;
const PAGE = { width: 612, height: 792 }; // US Letter
const CONTENT_WIDTH = PAGE.width - 2 * MARGIN;
const LABEL_WIDTH = 150;
const VALUE_WIDTH = CONTENT_WIDTH - LABEL_WIDTH;
/** Where content stops: the footer lives below. */
const BOTTOM = PAGE.height - MARGIN - 22;
const SIGNATURE_BOX = { width: 300, height: 130 };
/** Notes are shown up to this many lines; the rest is in the JSON proof. */
const NOTE_LINES = 4;

const GREY = "#444";
const LABEL: TextStyle = { style: "bold", size: 9, color: "#333" };
/** How rows are written, roomiest first: a page too full for one tries the next (identifiers are never clipped). */
const FITS: Fit[] = [
  { size: 9.5, noteLines: NOTE_LINES },
  { size: 8.5, noteLines: NOTE_LINES },
  { size: 7.5, noteLines: NOTE_LINES },
  { size: 6.5, noteLines: NOTE_LINES },
  { size: 6, noteLines: 2 },
  { size: 5, noteLines: 2 },
];
interface Fit {
  size: number;
  noteLines: number;
}
const labelStyle = (fit: Fit): TextStyle => ({ ...LABEL, size: Math.min(LABEL.size, fit.size) });
const rowGap = (fit: Fit) => (fit.size < 7 ? 1.5 : 3);

function render(
  build: (doc: PDFKit.PDFDocument, text: PdfText) => void,
  info: { title: string; subject: string; documentId: string; author: string },
): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const doc = new PDFDocument({
      size: "LETTER",
      margin: MARGIN,
      bufferPages: true,
      pdfVersion: "1.7",
      subset: "PDF/A-2b",
      // No default font: pdfkit's would be a non-embedded Helvetica; every font is given by PdfText, embedded.
      font: null as unknown as string,
      displayTitle: true,
      lang: "en-US",
      // Stored values reach the metadata too: without direction controls or line breaks.
      info: {
        Title: cleanText(info.title),
        Subject: cleanText(info.subject).replace(/\n/g, " "),
        Author: cleanText(info.author).replace(/\n/g, " "),
        Keywords: info.documentId,
        Producer: "Rx Courier",
        Creator: "Rx Courier",
      },
    });
    const chunks: Buffer[] = [];
    doc.on("data", (chunk: Buffer) => chunks.push(chunk));
    doc.on("end", () => resolve(Buffer.concat(chunks)));
    doc.on("error", reject);
    try {
      build(doc, new PdfText(doc));
      doc.end();
    } catch (error) {
      reject(error);
    }
  });
}

function timeIn(zone: string) {
  const format = new Intl.DateTimeFormat("en-US", {
    timeZone: zone,
    month: "short",
    day: "numeric",
    year: "numeric",
    hour: "numeric",
    minute: "2-digit",
    timeZoneName: "short",
  });
  return (iso: string | null) => (iso ? format.format(new Date(iso)) : "—");
}

/** A calendar day as words, read as the day itself (no zone shift). */
function day(iso: string): string {
  const date = new Date(`${iso}T12:00:00Z`);
  if (Number.isNaN(date.getTime())) return iso;
  const words = new Intl.DateTimeFormat("en-US", { timeZone: "UTC", weekday: "short", month: "short", day: "numeric", year: "numeric" }).format(date);
  return `${words} (${iso})`;
}

const fullName = (first: string | null | undefined, last: string | null | undefined) => [first, last].filter(Boolean).join(" ") || "—";

/** The title block; returns the y below its rule. */
function heading(doc: PDFKit.PDFDocument, text: PdfText, title: string, pharmacy: string, meta: string): number {
  let y = text.write(title, MARGIN, MARGIN, CONTENT_WIDTH, { style: "bold", size: 18 });
  y = text.write(pharmacy, MARGIN, y + 1, CONTENT_WIDTH, { size: 12 });
  y = text.write(meta, MARGIN, y + 2, CONTENT_WIDTH, { size: 8.5, color: GREY });
  y += 5;
  doc.moveTo(MARGIN, y).lineTo(PAGE.width - MARGIN, y).lineWidth(0.75).stroke("#888");
  return y + 7;
}

interface Row {
  label: string;
  value: string;
  /** A courier's free text: shown up to NOTE_LINES lines, then a mark that the rest is in the JSON. */
  note?: boolean;
}

const CUT_MARK = "… [cut here: the full text is in the JSON proof]";

/** The lines of a row's value at a size, a long note cut with a visible mark. */
function valueLines(text: PdfText, row: Row, { size, noteLines }: Fit) {
  const style: TextStyle = { size };
  // Blank lines in a note would only push its words past the cut: the PDF closes them up, the JSON keeps them.
  const lines = text.lines(row.note ? row.value.replace(/\r?\n(\s*\r?\n)+/g, "\n") : row.value, VALUE_WIDTH, style);
  if (!row.note || lines.length <= noteLines) return { lines, cut: null };
  return { lines: lines.slice(0, noteLines), cut: text.lines(CUT_MARK, VALUE_WIDTH, { style: "italic", size }) };
}

function rowHeight(text: PdfText, row: Row, fit: Fit): number {
  const { lines, cut } = valueLines(text, row, fit);
  const value = (lines.length + (cut?.length ?? 0)) * text.lineHeight(fit.size);
  return Math.max(text.height(row.label, LABEL_WIDTH - 8, labelStyle(fit)), value) + rowGap(fit);
}

/**
 * The roomiest way of writing the rows that fits them above `reserve` points
 * of boxes: identifiers are never clipped, so a page too full writes smaller
 * (every field at its cap still fits).
 */
function fitting(text: PdfText, rows: Row[], top: number, reserve: number): Fit {
  for (const fit of FITS) {
    const total = rows.reduce((sum, row) => sum + rowHeight(text, row, fit), 0);
    if (top + total + reserve <= BOTTOM) return fit;
  }
  return FITS[FITS.length - 1]!;
}

/** Draws label/value rows from `top`; returns the y below them. */
function drawRows(text: PdfText, rows: Row[], top: number, fit: Fit): number {
  const x = MARGIN;
  const { size } = fit;
  let y = top;
  for (const row of rows) {
    const afterLabel = text.write(row.label, x, y, LABEL_WIDTH - 8, labelStyle(fit));
    const { lines, cut } = valueLines(text, row, fit);
    let afterValue = text.draw(lines, x + LABEL_WIDTH, y, { size });
    if (cut) afterValue = text.draw(cut, x + LABEL_WIDTH, afterValue, { style: "italic", size, color: "#7a0000" });
    y = Math.max(afterLabel, afterValue) + rowGap(fit);
  }
  return y;
}

function box(doc: PDFKit.PDFDocument, x: number, y: number, width: number, height: number): void {
  doc.rect(x, y, width, height).lineWidth(0.75).stroke("#888");
}

/** A signature in its box, with its label; returns the y below. */
function signatureBox(doc: PDFKit.PDFDocument, text: PdfText, label: string, svg: string | null, missing: string, top: number): number {
  const y = text.write(label, MARGIN, top + 4, CONTENT_WIDTH, LABEL);
  const area = { x: MARGIN, y: y + 2, ...SIGNATURE_BOX };
  box(doc, area.x, area.y, area.width, area.height);
  // Issue 24: a stored signature the PDF cannot hold is named, never a broken proof.
  const drawn = svg ? drawStoredSignature(doc, svg, { x: area.x + 6, y: area.y + 6, width: area.width - 12, height: area.height - 12 }) : false;
  if (!drawn) {
    text.write(svg ? SIGNATURE_UNDRAWABLE : missing, area.x + 10, area.y + area.height / 2 - 7, area.width - 20, { style: "italic", size: 10, color: "#666" });
  }
  return area.y + area.height + 6;
}
const SIGNATURE_HEIGHT = 4 + 9 * 1.32 + 2 + SIGNATURE_BOX.height + 6;

/**
 * The photo of the drop-off, fitted in what is left of the page (at least
 * 80 points). pdfkit draws JPEG and PNG; a WebP (accepted from other
 * clients) is named, not drawn.
 */
function photoBox(doc: PDFKit.PDFDocument, text: PdfText, photo: { mediaType: string; bytes: Buffer }, link: string | null, top: number): number {
  const y = text.write("Photo of the drop-off", MARGIN, top + 4, CONTENT_WIDTH, LABEL);
  const area = { x: MARGIN, y: y + 2, width: 300, height: Math.max(80, Math.min(200, BOTTOM - y - 2)) };
  // Issue 24: only a photo whose header says it is small enough is decoded (server/ops/services/proof/drawable.ts).
  const drawable = photo.mediaType === "image/jpeg" || photo.mediaType === "image/png";
  const image = drawable ? drawablePhoto(doc, photo.bytes) : null;
  if (image) {
    doc.image(image as unknown as Buffer, area.x, area.y, { fit: [area.width, area.height] });
  } else {
    box(doc, area.x, area.y, area.width, area.height);
    const words = drawable ? `${PHOTO_UNDRAWABLE}; it is on file` : `The photo (${photo.mediaType}) is on file`;
    text.write(`${words}${link ? `: ${link}` : ""}.`, area.x + 10, area.y + area.height / 2 - 7, area.width - 20, {
      style: "italic",
      size: 10,
      color: "#666",
    });
  }
  return area.y + area.height + 6;
}

/** The footer of every page: what the document is, its id, when it was made, and the page. */
function footers(doc: PDFKit.PDFDocument, text: PdfText, words: string): void {
  const range = doc.bufferedPageRange();
  for (let index = range.start; index < range.start + range.count; index++) {
    doc.switchToPage(index);
    const page = range.count > 1 ? ` · Page ${index - range.start + 1} of ${range.count}` : "";
    text.write(`${words}${page}`, MARGIN, PAGE.height - MARGIN - 12, CONTENT_WIDTH, { size: 7.5, color: "#666" });
  }
}

const OUTCOME_WORDS: Record<Proof["outcome"], string> = {
  delivered: "Delivered",
  delivery_attempted: "Delivery attempted — not delivered",
  returned_to_pharmacy: "Returned to the pharmacy",
};
const ID_WORDS: Record<string, string> = { driver: "Driver license", military: "Military id", passport: "Passport", state: "State id" };
const PAYMENT_WORDS: Record<string, string> = { cash: "Cash", check: "Check", credit_card: "Card" };

export function addressLines(address: Proof["delivery_address"]): string {
  return [address.street_address, address.street_address_2, `${address.city}, ${address.state_abbreviation} ${address.zipcode}`].filter(Boolean).join("\n");
}

function proofRows(proof: Proof, time: (iso: string | null) => string): Row[] {
  const delivered = proof.outcome === "delivered";
  const rows: Row[] = [
    { label: "Patient", value: fullName(proof.patient.first_name, proof.patient.last_name) },
    { label: "Delivery address", value: addressLines(proof.delivery_address) },
    { label: "Rx numbers", value: proof.order.rx_numbers.length ? proof.order.rx_numbers.join(", ") : "None on the order" },
    { label: "Service date", value: day(proof.order.service_date) },
    { label: "Order", value: `Order ${proof.order.id}` },
    { label: "Pharmacy reference", value: proof.order.external_id ?? "None sent" },
    { label: "Outcome", value: OUTCOME_WORDS[proof.outcome] },
    { label: "Courier", value: proof.courier ? fullName(proof.courier.first_name, proof.courier.last_name) : "—" },
  ];
  if (proof.failure) {
    rows.push({ label: "Reason", value: proof.failure.reason });
    if (proof.failure.notes) rows.push({ label: "Courier's notes", value: proof.failure.notes, note: true });
  }
  if (proof.recipient) {
    rows.push({ label: "Received by", value: fullName(proof.recipient.first_name, proof.recipient.last_name) });
    rows.push({
      label: "Relationship",
      value: proof.recipient.other_relationship_description
        ? `${proof.recipient.relationship}: ${proof.recipient.other_relationship_description}`
        : proof.recipient.relationship,
    });
  }
  if (proof.signed_by) rows.push({ label: "Signed by", value: proof.signed_by });
  if (proof.signature_refusal_reason) {
    const reason = SIGNATURE_REFUSAL_REASONS.find((r) => r.key === proof.signature_refusal_reason)?.display_name ?? proof.signature_refusal_reason;
    rows.push({ label: "Not signed", value: reason });
  }
  if (delivered) {
    rows.push({ label: "Date of birth checked", value: proof.dob_verified === null ? "Not asked" : proof.dob_verified ? "Yes, verified" : "No, not verified" });
    const id = proof.identification;
    rows.push({
      label: "ID checked",
      value: id
        ? `${ID_WORDS[id.type ?? ""] ?? id.type ?? "—"}${id.state ? `, ${id.state}` : ""}, number ending ${id.number_last4 ?? "—"}, expires ${id.expiration ?? "—"}`
        : "No ID recorded",
    });
  }
  if (proof.copay_change) {
    const amount = (value: string | null) => (value === null ? "none" : `$${value}`);
    rows.push({
      label: "Copay changed at pickup",
      value: `From ${amount(proof.copay_change.before)} to ${amount(proof.copay_change.after)}, by ${proof.copay_change.changed_by}, ${time(proof.copay_change.at)}`,
    });
  }
  if (proof.payment) {
    const card = proof.payment.type === "credit_card" ? ` (card ending ${proof.payment.card_last4 ?? "not available"})` : "";
    rows.push({ label: "Payment collected", value: `${PAYMENT_WORDS[proof.payment.type]} $${proof.payment.amount}${card}` });
  } else if (delivered) rows.push({ label: "Payment collected", value: "None" });
  if (proof.notes && !proof.failure) rows.push({ label: "Courier's notes", value: proof.notes, note: true });
  rows.push({ label: "Time at the door", value: time(proof.client_occurred_at) });
  rows.push({ label: "Received by the server", value: time(proof.received_at) });
  rows.push({
    label: "Position",
    value: proof.latitude !== null && proof.longitude !== null ? `${proof.latitude.toFixed(5)}, ${proof.longitude.toFixed(5)}` : "Not sent by the phone",
  });
  if (proof.grouped_order_ids.length) rows.push({ label: "Delivered together with", value: proof.grouped_order_ids.map((id) => `Order ${id}`).join(", ") });
  if (proof.returned) {
    rows.push({ label: "Returned to", value: `${fullName(proof.returned.staff_first_name, proof.returned.staff_last_name)} (pharmacy staff)` });
    rows.push({ label: "Returned at", value: time(proof.returned.at) });
  }
  return rows;
}

export function proofPdf(
  proof: Proof,
  options: { timeZone: string; signatureSvg: string | null; returnSignatureSvg: string | null; photo?: { mediaType: string; bytes: Buffer } | null },
): Promise<Buffer> {
  const time = timeIn(options.timeZone);
  const generated = time(proof.generated_at);
  return render(
    (doc, text) => {
      const top = heading(
        doc,
        text,
        "Proof of delivery",
        proof.pharmacy.name,
        `Document ${proof.document_id} · generated ${generated} · times in ${options.timeZone}`,
      );
      const rows = proofRows(proof, time);
      const boxes =
        (proof.outcome === "delivered" ? SIGNATURE_HEIGHT : 0) + (options.photo ? 4 + 14 + 2 + 80 + 6 : 0) + (proof.returned ? SIGNATURE_HEIGHT : 0);
      let y = drawRows(text, rows, top, fitting(text, rows, top, boxes));
      if (proof.outcome === "delivered") y = signatureBox(doc, text, "Recipient's signature", options.signatureSvg, "No signature was taken.", y);
      if (options.photo) y = photoBox(doc, text, options.photo, proof.photo_url, y);
      if (proof.returned) signatureBox(doc, text, "Pharmacy staff's signature", options.returnSignatureSvg, "No signature on file.", y);
      footers(doc, text, `Proof of delivery ${proof.document_id} for order ${proof.order.id}, generated ${generated} by Rx Courier from the delivery record.`);
    },
    {
      title: `Proof of delivery — order ${proof.order.id}`,
      subject: `Proof of delivery of order ${proof.order.id}${proof.order.external_id ? ` (pharmacy reference ${proof.order.external_id})` : ""}`,
      documentId: proof.document_id,
      author: `Rx Courier for ${proof.pharmacy.name}`,
    },
  );
}

function amounts(order: ReturnManifest["orders"][number]): string {
  const parts = [
    order.item_amount !== null ? `Returned item: $${order.item_amount}` : null,
    order.cash !== null ? `Cash $${order.cash}` : null,
    order.check !== null ? `Check $${order.check}` : null,
  ].filter(Boolean);
  return parts.length ? parts.join(" · ") : "None";
}

export function returnManifestPdf(manifest: ReturnManifest, options: { timeZone: string; signatureSvg: string }): Promise<Buffer> {
  const time = timeIn(options.timeZone);
  const generated = time(manifest.generated_at);
  const roomy = FITS[0]!;
  const size = roomy.size;
  return render(
    (doc, text) => {
      const meta = `Document ${manifest.document_id} · return ${manifest.id} · signed ${time(manifest.signed_at)} · generated ${generated} · times in ${options.timeZone}`;
      let y = heading(doc, text, "Return manifest", manifest.pharmacy.name, meta);
      const newPage = () => {
        doc.addPage();
        y = text.write(`Return manifest ${manifest.document_id} (continued)`, MARGIN, MARGIN, CONTENT_WIDTH, { style: "bold", size: 10, color: GREY }) + 6;
      };
      const fits = (height: number) => {
        if (y + height > BOTTOM) newPage();
      };
      const summary: Row[] = [
        { label: "Courier", value: fullName(manifest.courier.first_name, manifest.courier.last_name) },
        { label: "Received and signed by", value: `${fullName(manifest.staff_first_name, manifest.staff_last_name)} (pharmacy staff)` },
        { label: "Orders on this return", value: String(manifest.orders.length) },
        { label: "Cash total", value: `$${manifest.cash_total}` },
        { label: "Check total", value: `$${manifest.check_total}` },
        {
          label: "Position",
          value:
            manifest.latitude !== null && manifest.longitude !== null ? `${manifest.latitude.toFixed(5)}, ${manifest.longitude.toFixed(5)}` : "Not sent by the phone",
        },
      ];
      y = drawRows(text, summary, y, roomy);

      for (const order of manifest.orders) {
        const title = `Order ${order.order_id} · pharmacy reference ${order.external_id ?? "none sent"}`;
        const rows: Row[] = [
          { label: "Patient", value: fullName(order.patient.first_name, order.patient.last_name) },
          { label: "Rx numbers", value: order.rx_numbers.length ? order.rx_numbers.join(", ") : "None on the order" },
          { label: "Service date", value: day(order.service_date) },
          { label: order.returned_item ? "Came back because" : "On this return", value: order.reason },
          { label: "Amounts", value: amounts(order) },
          {
            label: "Handed over",
            value: `By ${fullName(manifest.courier.first_name, manifest.courier.last_name)} (courier), signed for by ${fullName(manifest.staff_first_name, manifest.staff_last_name)}`,
          },
        ];
        const height = 10 + text.height(title, CONTENT_WIDTH, { style: "bold", size: 10.5 }) + rows.reduce((sum, row) => sum + rowHeight(text, row, roomy), 0);
        fits(height);
        y += 4;
        doc.moveTo(MARGIN, y).lineTo(PAGE.width - MARGIN, y).lineWidth(0.5).stroke("#bbb");
        y = text.write(title, MARGIN, y + 4, CONTENT_WIDTH, { style: "bold", size: 10.5 }) + 2;
        y = drawRows(text, rows, y, roomy);
      }
      if (manifest.orders.length === 0) y = text.write("No orders on this return.", MARGIN, y + 4, CONTENT_WIDTH, { style: "italic", size });

      fits(SIGNATURE_HEIGHT);
      signatureBox(doc, text, "Pharmacy staff's signature", options.signatureSvg, "No signature on file.", y);
      footers(doc, text, `Return manifest ${manifest.document_id}, generated ${generated} by Rx Courier from the return record.`);
    },
    {
      title: `Return manifest ${manifest.id}`,
      subject: `Return manifest ${manifest.id}: ${manifest.orders.length} orders handed back to ${manifest.pharmacy.name}`,
      documentId: manifest.document_id,
      author: `Rx Courier for ${manifest.pharmacy.name}`,
    },
  );
}
