import PDFDocument from "pdfkit";
import type { Proof, ReturnManifest } from "../../../domain/contract/ops-proof.ts";
import { SIGNATURE_REFUSAL_REASONS } from "../../../domain/vocabulary.ts";
import { drawablePhoto, drawStoredSignature, PHOTO_UNDRAWABLE, SIGNATURE_UNDRAWABLE } from "./drawable.ts";

/**
 * One-page PDFs a pharmacy can file: the proof of delivery and the return
 * manifest, laid out for a person, with the signature drawn as vectors
 * (pdfkit; its built-in Helvetica, so no font files ship with the server).
 */

const MARGIN = 48;
const PAGE = { width: 612, height: 792 }; // US Letter
const LABEL_WIDTH = 170;

function render(build: (doc: PDFKit.PDFDocument) => void, info: { title: string }): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const doc = new PDFDocument({ size: "LETTER", margin: MARGIN, info: { Title: info.title, Producer: "Rx Courier", Creator: "Rx Courier" } });
    const chunks: Buffer[] = [];
    doc.on("data", (chunk: Buffer) => chunks.push(chunk));
    doc.on("end", () => resolve(Buffer.concat(chunks)));
    doc.on("error", reject);
    build(doc);
    doc.end();
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

function heading(doc: PDFKit.PDFDocument, title: string, pharmacy: string, subtitle: string): void {
  doc.font("Helvetica-Bold").fontSize(20).fillColor("black").text(title, MARGIN, MARGIN);
  doc.font("Helvetica").fontSize(13).text(pharmacy);
  doc.fontSize(10).fillColor("#444").text(subtitle);
  doc.moveDown(0.6);
  const y = doc.y;
  doc.moveTo(MARGIN, y).lineTo(PAGE.width - MARGIN, y).lineWidth(0.75).stroke("#888");
  doc.moveDown(0.6);
}

function rows(doc: PDFKit.PDFDocument, entries: [string, string][]): void {
  const valueWidth = PAGE.width - 2 * MARGIN - LABEL_WIDTH;
  for (const [label, value] of entries) {
    const y = doc.y;
    doc.font("Helvetica-Bold").fontSize(10).fillColor("#333").text(label, MARGIN, y, { width: LABEL_WIDTH - 8 });
    const afterLabel = doc.y;
    doc.font("Helvetica").fontSize(10).fillColor("black").text(value, MARGIN + LABEL_WIDTH, y, { width: valueWidth });
    doc.y = Math.max(afterLabel, doc.y) + 3;
  }
}

function signatureBox(doc: PDFKit.PDFDocument, label: string, svg: string | null, missing: string): void {
  doc.moveDown(0.5);
  doc.font("Helvetica-Bold").fontSize(10).fillColor("#333").text(label, MARGIN, doc.y);
  const box = { x: MARGIN, y: doc.y + 4, width: 300, height: 130 };
  doc.rect(box.x, box.y, box.width, box.height).lineWidth(0.75).stroke("#888");
  // Issue 24: a stored signature the PDF cannot hold is named, never a broken proof.
  const drawn = svg ? drawStoredSignature(doc, svg, { x: box.x + 6, y: box.y + 6, width: box.width - 12, height: box.height - 12 }) : false;
  if (!drawn) {
    doc
      .font("Helvetica-Oblique")
      .fontSize(10)
      .fillColor("#666")
      .text(svg ? SIGNATURE_UNDRAWABLE : missing, box.x + 10, box.y + box.height / 2 - 6, { width: box.width - 20 });
  }
  doc.y = box.y + box.height + 8;
  doc.x = MARGIN;
}

function footer(doc: PDFKit.PDFDocument, text: string): void {
  doc.font("Helvetica").fontSize(8).fillColor("#666").text(text, MARGIN, PAGE.height - MARGIN - 10, { width: PAGE.width - 2 * MARGIN, lineBreak: false });
}

const OUTCOME_WORDS: Record<Proof["outcome"], string> = {
  delivered: "Delivered",
  delivery_attempted: "Delivery attempted — not delivered",
  returned_to_pharmacy: "Returned to the pharmacy",
};
const ID_WORDS: Record<string, string> = { driver: "Driver license", military: "Military id", passport: "Passport", state: "State id" };
const PAYMENT_WORDS: Record<string, string> = { cash: "Cash", check: "Check", credit_card: "Card" };

/**
 * The photo of the drop-off, fitted in a box. pdfkit draws JPEG and PNG; the
 * phone sends JPEG, so a WebP (accepted from other clients) is named, not drawn.
 */
function photoBox(doc: PDFKit.PDFDocument, photo: { mediaType: string; bytes: Buffer }, link: string | null): void {
  doc.moveDown(0.5);
  doc.font("Helvetica-Bold").fontSize(10).fillColor("#333").text("Photo of the drop-off", MARGIN, doc.y);
  const box = { x: MARGIN, y: doc.y + 4, width: 300, height: 200 };
  const bottom = PAGE.height - MARGIN - 24;
  if (box.y + box.height > bottom) box.height = Math.max(80, bottom - box.y);
  // Issue 24: only a photo whose header says it is small enough is decoded (server/services/proof/drawable.ts).
  const drawable = photo.mediaType === "image/jpeg" || photo.mediaType === "image/png";
  const image = drawable ? drawablePhoto(doc, photo.bytes) : null;
  if (image) {
    doc.image(image as unknown as Buffer, box.x, box.y, { fit: [box.width, box.height] });
  } else {
    doc.rect(box.x, box.y, box.width, box.height).lineWidth(0.75).stroke("#888");
    const words = drawable ? `${PHOTO_UNDRAWABLE}; it is on file` : `The photo (${photo.mediaType}) is on file`;
    doc
      .font("Helvetica-Oblique")
      .fontSize(10)
      .fillColor("#666")
      .text(`${words}${link ? `: ${link}` : ""}.`, box.x + 10, box.y + box.height / 2 - 6, { width: box.width - 20 });
  }
  doc.y = box.y + box.height + 8;
  doc.x = MARGIN;
}

export function proofPdf(
  proof: Proof,
  options: { timeZone: string; signatureSvg: string | null; returnSignatureSvg: string | null; photo?: { mediaType: string; bytes: Buffer } | null },
): Promise<Buffer> {
  const time = timeIn(options.timeZone);
  return render(
    (doc) => {
      const ref = proof.order.external_id ? `Order ${proof.order.id} (pharmacy ref. ${proof.order.external_id})` : `Order ${proof.order.id}`;
      heading(doc, "Proof of delivery", proof.pharmacy.name, `${ref} · service date ${proof.order.service_date}`);
      const entries: [string, string][] = [
        ["Outcome", OUTCOME_WORDS[proof.outcome]],
        ["Courier", proof.courier ? `${proof.courier.first_name} ${proof.courier.last_name}` : "—"],
      ];
      if (proof.failure) {
        entries.push(["Reason", proof.failure.reason]);
        if (proof.failure.notes) entries.push(["Courier's notes", proof.failure.notes]);
      }
      if (proof.recipient) {
        const name = [proof.recipient.first_name, proof.recipient.last_name].filter(Boolean).join(" ");
        entries.push(["Received by", name || "—"]);
        entries.push([
          "Relationship",
          proof.recipient.other_relationship_description ? `${proof.recipient.relationship}: ${proof.recipient.other_relationship_description}` : proof.recipient.relationship,
        ]);
      }
      if (proof.signed_by) entries.push(["Signed by", proof.signed_by]);
      if (proof.signature_refusal_reason) {
        const reason = SIGNATURE_REFUSAL_REASONS.find((r) => r.key === proof.signature_refusal_reason)?.display_name ?? proof.signature_refusal_reason;
        entries.push(["Not signed", reason]);
      }
      if (proof.dob_verified !== null) entries.push(["Date of birth verified", proof.dob_verified ? "Yes" : "No"]);
      if (proof.identification) {
        const id = proof.identification;
        entries.push([
          "ID shown",
          `${ID_WORDS[id.type ?? ""] ?? id.type ?? "—"}${id.state ? `, ${id.state}` : ""}, number ending ${id.number_last4 ?? "—"}, expires ${id.expiration ?? "—"}`,
        ]);
      }
      if (proof.payment) {
        const card = proof.payment.type === "credit_card" ? ` (card ending ${proof.payment.card_last4 ?? "not available"})` : "";
        entries.push(["Payment collected", `${PAYMENT_WORDS[proof.payment.type]} $${proof.payment.amount}${card}`]);
      }
      if (proof.notes && !proof.failure) entries.push(["Courier's notes", proof.notes]);
      entries.push(["Time at the door", time(proof.client_occurred_at)]);
      entries.push(["Received by the server", time(proof.received_at)]);
      entries.push([
        "Position",
        proof.latitude !== null && proof.longitude !== null ? `${proof.latitude.toFixed(5)}, ${proof.longitude.toFixed(5)}` : "Not sent by the phone",
      ]);
      if (proof.grouped_order_ids.length) entries.push(["Delivered together with", proof.grouped_order_ids.map((id) => `Order ${id}`).join(", ")]);
      if (proof.returned) {
        entries.push(["Returned to", `${proof.returned.staff_first_name} ${proof.returned.staff_last_name} (pharmacy staff)`]);
        entries.push(["Returned at", time(proof.returned.at)]);
      }
      rows(doc, entries);
      if (proof.outcome === "delivered") signatureBox(doc, "Recipient's signature", options.signatureSvg, "No signature was taken.");
      if (options.photo) photoBox(doc, options.photo, proof.photo_url);
      if (proof.returned) signatureBox(doc, "Pharmacy staff's signature", options.returnSignatureSvg, "No signature on file.");
      footer(doc, `Generated ${time(new Date().toISOString())} by Rx Courier from the delivery record.`);
    },
    { title: `Proof of delivery — order ${proof.order.id}` },
  );
}

export function returnManifestPdf(manifest: ReturnManifest, options: { timeZone: string; signatureSvg: string }): Promise<Buffer> {
  const time = timeIn(options.timeZone);
  return render(
    (doc) => {
      heading(doc, "Return manifest", manifest.pharmacy.name, `Return ${manifest.id} · signed ${time(manifest.signed_at)}`);
      const list = (lines: { order_id: number | null; amount: string }[]) =>
        lines.length ? lines.map((line) => `${line.order_id ? `Order ${line.order_id}` : "—"}: $${line.amount}`).join("\n") : "None";
      rows(doc, [
        ["Courier", `${manifest.courier.first_name} ${manifest.courier.last_name}`],
        ["Received by (staff)", `${manifest.staff_first_name} ${manifest.staff_last_name}`],
        ["Items returned", manifest.items.length ? manifest.items.map((item) => `Order ${item.order_id}`).join(", ") : "None"],
        ["Cash", list(manifest.cash)],
        ["Checks", list(manifest.checks)],
        ["Cash total", `$${manifest.cash_total}`],
        ["Check total", `$${manifest.check_total}`],
        [
          "Position",
          manifest.latitude !== null && manifest.longitude !== null ? `${manifest.latitude.toFixed(5)}, ${manifest.longitude.toFixed(5)}` : "Not sent by the phone",
        ],
      ]);
      signatureBox(doc, "Pharmacy staff's signature", options.signatureSvg, "No signature on file.");
      footer(doc, `Generated ${time(new Date().toISOString())} by Rx Courier from the return record.`);
    },
    { title: `Return manifest ${manifest.id}` },
  );
}
