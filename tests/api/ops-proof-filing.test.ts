import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { eq } from "drizzle-orm";
import { expect, it } from "vitest";
import { Proof } from "../../domain/contract/ops-proof.ts";
import { orders } from "../../server/db/schema.ts";
import { completion, returnForm, type CourierSession } from "../support/courier-actions.ts";
import { describeOps } from "../support/ops-harness.ts";
import { courierAtFreshPharmacy, proofOf, returnsOf } from "../support/proof-fixtures.ts";
import { TEST_DAY } from "../support/api-harness.ts";

/**
 * Issue 25 "Proof a pharmacy can file" and issue 24 §7 "PDFs in every
 * script", end to end on the operations API: orders for patients whose names
 * are written in CJK, Arabic, Vietnamese and Cyrillic, delivered to a
 * recipient written in Hebrew who typed U+202E and 80 line breaks into the
 * notes, one failed and returned, one paid in cash. The JSON and the PDFs
 * name what was delivered and to whom; poppler reads them back.
 */

const OUT = path.resolve("test-results/proof");
function pdfFile(bytes: Buffer, name: string): string {
  mkdirSync(OUT, { recursive: true });
  const file = path.join(OUT, `${name}.pdf`);
  writeFileSync(file, bytes);
  return file;
}
const pdftotext = (file: string) => execFileSync("pdftotext", [file, "-"], { encoding: "utf8" });
/** In drawing order: poppler's reading-order guesses can move a line with an RTL island in it. */
const rawText = (file: string) => execFileSync("pdftotext", ["-raw", file, "-"], { encoding: "utf8" });
const pageCount = (file: string) => Number(/Pages:\s+(\d+)/.exec(execFileSync("pdfinfo", [file], { encoding: "utf8" }))![1]);
const toPng = (file: string, name: string) => execFileSync("pdftoppm", ["-png", "-r", "80", file, path.join(OUT, name)]);

const PHARMACY = "Farmacia Internacional — 国际药房 — صيدلية الشفاء — Аптека Здоровье, Riverside Branch Number Two";
const NOTES = `Left with the neighbour 😀 \u202Ereversed?\n${"\n".repeat(80)}${"The side gate was open so the parcel went to the back door. ".repeat(12)}END`;

describeOps("a proof and a return manifest a pharmacy can file (/api/ops/v1)", (ctx) => {
  const db = () => ctx().database.db;
  let courier: CourierSession;
  let pharmacyId: number;
  let ids: Record<"cjk" | "arabic" | "cash", number>;

  it("sets up a day: a delivery in CJK and Hebrew, a failed order in Arabic, a cash delivery in Vietnamese, and the return", async () => {
    const day = await courierAtFreshPharmacy(ctx(), PHARMACY, { cjk: 0, arabic: 0, cash: 1250 });
    ({ courier, pharmacyId, ids } = day);
    const { act } = day;
    const name = async (id: number, values: Partial<typeof orders.$inferInsert>) => db().update(orders).set(values).where(eq(orders.id, id));
    await name(ids.cjk, {
      patientFirstName: "王",
      patientLastName: "秀英",
      externalId: "RX-CN-0001",
      rxNumbers: ["RX-8801", "RX-8802"],
      streetAddress: "建国路 88 号",
      streetAddress2: "Кв. 12",
    });
    await name(ids.arabic, { patientFirstName: "محمد", patientLastName: "عبد الله", externalId: "RX-AR-0002", rxNumbers: ["RX-7701"] });
    await name(ids.cash, { patientFirstName: "Nguyễn", patientLastName: "Thị Minh Khai", externalId: "RX-VN-0003", rxNumbers: ["RX-6601", "RX-6602"] });
    for (const id of Object.values(ids)) await act.pickUp(id);

    await act.deliver(
      completion([ids.cjk], {
        relationship_id: 2,
        recipient_first_name: "שרה",
        recipient_last_name: "כהן",
        other_relationship_description: "Ελένη's neighbour",
        signed_by: "\u202Eשרה כהן",
        body: NOTES,
        latitude: 39.94,
        longitude: -75.16,
      }),
    );
    await act.fail([ids.arabic], "Patient Not Home", "Rang twice", { latitude: 39.95, longitude: -75.16 });
    await act.deliver(completion([ids.cash], { order_payment: { payment_type: "cash", amount: "12.50", new_copay: null, transaction_id: null } }));
    await act.returnTo(
      pharmacyId,
      returnForm(courier.courierId, pharmacyId, {
        cash_collected: "12.50",
        returns: [
          { type: "item", amount: "0.00", order_id: ids.arabic },
          { type: "cash", amount: "12.50", order_id: ids.cash },
        ],
      }),
    );
  });

  it("the proof's JSON names the patient, the address, the Rx numbers and the service date, with a stable document id", async () => {
    const proof = await proofOf(ctx(), ids.cjk);
    expect(proof).toMatchObject({
      order: { id: ids.cjk, external_id: "RX-CN-0001", service_date: TEST_DAY, rx_numbers: ["RX-8801", "RX-8802"] },
      patient: { first_name: "王", last_name: "秀英" },
      delivery_address: { street_address: "建国路 88 号", street_address_2: "Кв. 12", city: "Philadelphia", state_abbreviation: "PA", zipcode: "19103" },
      recipient: { first_name: "שרה", last_name: "כהן" },
      copay_change: null,
      time_zone: expect.any(String),
    });
    // The JSON keeps everything the courier wrote (line breaks as the form sent them).
    expect(proof.notes!.replace(/\r\n/g, "\n")).toBe(NOTES);
    expect(proof.document_id).toMatch(new RegExp(`^POD-${ids.cjk}-[0-9A-F]{12}$`));
    expect(Date.parse(proof.generated_at)).not.toBeNaN();
    const again = Proof.parse((await ctx().ops("GET", `/api/ops/v1/orders/${ids.cjk}/proof`)).json());
    expect(again.document_id).toBe(proof.document_id);
    const other = Proof.parse((await ctx().ops("GET", `/api/ops/v1/orders/${ids.cash}/proof`)).json());
    expect(other.document_id).not.toBe(proof.document_id);
    expect(other.payment).toMatchObject({ type: "cash", amount: "12.50" });
  });

  it("the proof's PDF: one page, every script as text, U+202E harmless, notes cut with a mark, the signature box in place", async () => {
    const response = await ctx().ops("GET", `/api/ops/v1/orders/${ids.cjk}/proof.pdf`);
    expect(response.statusCode).toBe(200);
    const file = pdfFile(response.rawPayload, "api-proof-cjk-hebrew");
    toPng(file, "api-proof-cjk-hebrew");
    expect(pageCount(file)).toBe(1);
    const text = pdftotext(file);
    const flat = rawText(file).replace(/\s+/g, " ");
    for (const words of ["Proof of delivery", "王 秀英", "建国路 88 号", "Кв. 12", "RX-8801, RX-8802", "RX-CN-0001", "Ελένη's neighbour", "😀", "Recipient's signature"]) {
      expect(text).toContain(words);
    }
    for (const words of ["Farmacia Internacional — 国际药房", "Аптека Здоровье, Riverside Branch Number Two"]) expect(flat).toContain(words);
    for (const hebrew of ["שרה", "כהן"]) expect(text).toContain(hebrew);
    expect(text).toContain("the full text is in the JSON proof");
    expect(text).not.toContain("END");
    // (poppler marks RTL text it finds with U+202B…U+202C itself; an override U+202E never reaches the page.)
    expect(text).not.toMatch(/[\u202D\u202E\uFFFD]/);
    const proof = Proof.parse((await ctx().ops("GET", `/api/ops/v1/orders/${ids.cjk}/proof`)).json());
    expect(text).toContain(`Document ${proof.document_id}`);
  });

  it("the return manifest lists each order: reference, Rx numbers, patient, reason, amounts, service date, courier and staff", async () => {
    const [manifest] = await returnsOf(ctx(), pharmacyId);
    expect(manifest!.document_id).toMatch(new RegExp(`^RET-${manifest!.id}-[0-9A-F]{12}$`));
    expect(manifest!.orders).toEqual([
      {
        order_id: ids.arabic,
        external_id: "RX-AR-0002",
        service_date: TEST_DAY,
        patient: { first_name: "محمد", last_name: "عبد الله" },
        rx_numbers: ["RX-7701"],
        returned_item: true,
        reason: "Patient Not Home",
        item_amount: "0.00",
        cash: null,
        check: null,
      },
      {
        order_id: ids.cash,
        external_id: "RX-VN-0003",
        service_date: TEST_DAY,
        patient: { first_name: "Nguyễn", last_name: "Thị Minh Khai" },
        rx_numbers: ["RX-6601", "RX-6602"],
        returned_item: false,
        reason: "Delivered: payment handed over",
        item_amount: null,
        cash: "12.50",
        check: null,
      },
    ]);
    // The old fields stay.
    expect(manifest).toMatchObject({ items: [{ order_id: ids.arabic }], cash: [{ order_id: ids.cash, amount: "12.50" }], cash_total: "12.50" });

    const pdf = await ctx().ops("GET", manifest!.pdf_url);
    expect(pdf.statusCode).toBe(200);
    const file = pdfFile(pdf.rawPayload, "api-return-manifest");
    toPng(file, "api-return-manifest");
    const text = pdftotext(file);
    for (const words of [
      "Return manifest",
      `Document ${manifest!.document_id}`,
      `Order ${ids.arabic} · pharmacy reference RX-AR-0002`,
      "RX-7701",
      "Patient Not Home",
      "Returned item: $0.00",
      `Order ${ids.cash} · pharmacy reference RX-VN-0003`,
      "Nguyễn Thị Minh Khai",
      "RX-6601, RX-6602",
      "Cash $12.50",
      "Dana Whitfield",
      "Priya Raman",
    ]) {
      expect(text).toContain(words);
    }
    for (const arabic of ["محمد", "عبد"]) expect(rawText(file)).toContain(arabic);
  });

  it("the OpenAPI document describes the new fields", async () => {
    const doc = (await ctx().raw("GET", "/api/openapi.json")).json();
    type Schema = { $ref?: string; properties?: Record<string, Schema>; items?: Schema };
    const resolve = (schema: Schema): Schema =>
      schema.$ref ? resolve(schema.$ref.split("/").slice(1).reduce((node: Record<string, unknown>, key) => node[key] as Record<string, unknown>, doc) as Schema) : schema;
    const response = (path: string) => resolve(doc.paths[path].get.responses["200"].content["application/json"].schema);
    const proof = response("/api/ops/v1/orders/{id}/proof");
    for (const field of ["document_id", "generated_at", "time_zone", "patient", "delivery_address", "copay_change"]) expect(proof.properties, field).toHaveProperty(field);
    expect(resolve(proof.properties!.order!).properties).toHaveProperty("rx_numbers");
    const manifest = resolve(resolve(response("/api/ops/v1/returns").properties!.returns!).items!);
    for (const field of ["document_id", "orders"]) expect(manifest.properties, field).toHaveProperty(field);
    expect(resolve(resolve(manifest.properties!.orders!).items!).properties).toHaveProperty("rx_numbers");
  });
});
