import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import { expect, it } from "vitest";
import { deliveryFormEntries } from "../../domain/contract/deliveries.ts";
import { ReturnsResponse } from "../../domain/contract/ops-proof.ts";
import { deliveries, deliveryOrders, returnSignatures } from "../../server/db/schema.ts";
import { TEST_DAY } from "../support/api-harness.ts";
import { completion, courierActions, SIGNATURE_SVG, type CourierSession } from "../support/courier-actions.ts";
import { HOSTILE_SIGNATURES } from "../support/hostile-sweep.ts";
import { describeOps } from "../support/ops-harness.ts";
import { freshOrder, freshPharmacy } from "../support/security-fixtures.ts";

/**
 * Issue 24 §2: a signature whose numbers a PDF cannot write is refused at
 * upload (the delivery's and the pharmacy staff's on a return), and one
 * already stored that way still gives a proof and a return manifest: 200, the
 * rest of the document intact, the signature named as one that could not be
 * drawn.
 */

function pdfText(pdf: Buffer): string {
  const file = path.join(mkdtempSync(path.join(tmpdir(), "rxc-signatures-")), "doc.pdf");
  writeFileSync(file, pdf);
  return execFileSync("pdftotext", [file, "-"], { encoding: "utf8" }).replace(/\s+/g, " ");
}

const PLACEHOLDER = "signature could not be drawn";

describeOps("hostile signatures (issue 24)", (ctx) => {
  const db = () => ctx().database.db;
  let courier: CourierSession;
  let act: ReturnType<typeof courierActions>;
  let pharmacyId: number;

  const pickedUp = () => freshOrder(db(), { courierId: courier.courierId, pharmacyId, status: "picked_up" });
  /** The completion form the app sends (multipart), signed with `svg`. */
  async function deliver(orderId: number, svg: string) {
    return act.form("/api/courier/deliveries", deliveryFormEntries(completion([orderId], { signature_svg: svg })));
  }

  it("sets up a courier and a pharmacy", async () => {
    courier = await ctx().loginCourier("courier@example.com");
    act = courierActions(ctx().app, courier);
    pharmacyId = await freshPharmacy(db(), courier.courierId, "Hostile Signature Pharmacy");
  });

  it.each(HOSTILE_SIGNATURES.map((signature) => [signature.name, signature] as const))(
    "a delivery signed with %s is refused at upload in words, or accepted and drawn",
    async (_name, signature) => {
      const orderId = await pickedUp();
      const response = await deliver(orderId, signature.svg);
      if (signature.refused) {
        expect(response.statusCode, response.body).toBe(400);
        expect(response.json()).toMatchObject({ error: "invalid_signature" });
        expect(response.json().message).toMatch(/^The signature's /);
        return;
      }
      expect(response.statusCode, response.body).toBe(200);
      const pdf = await ctx().ops("GET", `/api/ops/v1/orders/${orderId}/proof.pdf`);
      expect(pdf.statusCode).toBe(200);
      expect(pdfText(pdf.rawPayload)).not.toContain(PLACEHOLDER);
    },
  );

  it("every hostile signature stored directly in the database gives a proof PDF: 200, the record intact, the signature named", async () => {
    const orderId = await pickedUp();
    const response = await deliver(orderId, SIGNATURE_SVG);
    expect(response.statusCode, response.body).toBe(200);
    const deliveryId = response.json().delivery.id as number;
    const good = pdfText((await ctx().ops("GET", `/api/ops/v1/orders/${orderId}/proof.pdf`)).rawPayload);
    expect(good).not.toContain(PLACEHOLDER);
    for (const signature of HOSTILE_SIGNATURES.filter((s) => s.refused)) {
      await db().update(deliveries).set({ signatureSvg: signature.svg }).where(eq(deliveries.id, deliveryId));
      const pdf = await ctx().ops("GET", `/api/ops/v1/orders/${orderId}/proof.pdf`);
      expect(pdf.statusCode, `${signature.name}: ${pdf.body.slice(0, 200)}`).toBe(200);
      const text = pdfText(pdf.rawPayload);
      expect(text, signature.name).toContain(PLACEHOLDER);
      expect(text).toContain("Proof of delivery");
      expect(text).toContain("Recipient's signature");
      expect(text).toContain(`Order ${orderId}`);
    }
    expect((await db().select().from(deliveryOrders).where(eq(deliveryOrders.deliveryId, deliveryId))).length).toBe(1);
  });

  it("a return's staff signature: refused at upload; stored bad, its manifest and the proofs of its orders still draw", async () => {
    // A pharmacy of its own: a return takes every undelivered order of the pharmacy, and the refusals above left some.
    const returnPharmacyId = await freshPharmacy(db(), courier.courierId, "Hostile Return Pharmacy");
    const orderId = await freshOrder(db(), { courierId: courier.courierId, pharmacyId: returnPharmacyId, status: "picked_up" });
    await act.fail([orderId], "Patient Not Home", "No answer");
    const form = (svg: string) => ({
      recipient_first_name: "Priya",
      recipient_last_name: "Raman",
      signature_svg: svg,
      courier_id: courier.courierId,
      pharmacy_id: returnPharmacyId,
      cash_collected: "0.00",
      check_collected: "0.00",
      latitude: null,
      longitude: null,
      returns: [{ type: "item" as const, amount: "0.00", order_id: orderId }],
    });
    const hostile = HOSTILE_SIGNATURES.find((s) => s.name === "coordinate 1e21")!;
    await expect(act.returnTo(returnPharmacyId, form(hostile.svg))).rejects.toThrow(/400 .*invalid_signature/);
    await act.returnTo(returnPharmacyId, form(SIGNATURE_SVG));

    const listed = ReturnsResponse.parse((await ctx().ops("GET", `/api/ops/v1/returns?pharmacy_id=${returnPharmacyId}&service_date=${TEST_DAY}`)).json());
    const manifest = listed.returns.find((entry) => entry.items.some((item) => item.order_id === orderId))!;
    for (const signature of HOSTILE_SIGNATURES.filter((s) => s.refused).slice(0, 4)) {
      await db().update(returnSignatures).set({ signatureSvg: signature.svg }).where(eq(returnSignatures.id, manifest.id));
      const pdf = await ctx().ops("GET", manifest.pdf_url);
      expect(pdf.statusCode, `${signature.name}: ${pdf.body.slice(0, 200)}`).toBe(200);
      const text = pdfText(pdf.rawPayload);
      expect(text).toContain("Return manifest");
      expect(text).toContain(PLACEHOLDER);
      const proof = await ctx().ops("GET", `/api/ops/v1/orders/${orderId}/proof.pdf`);
      expect(proof.statusCode).toBe(200);
      expect(pdfText(proof.rawPayload)).toContain(PLACEHOLDER);
    }
  });
});
