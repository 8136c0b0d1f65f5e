import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { count, eq } from "drizzle-orm";
import exifr from "exifr";
import sharp from "sharp";
import { expect, it } from "vitest";
import { deliveryFormEntries, type RecipientSubmission } from "../../domain/contract/deliveries.ts";
import type { FormValue } from "../../domain/contract/form-fields.ts";
import { Proof } from "../../domain/contract/ops-proof.ts";
import { PHOTO_FIELD, PHOTO_MAX_SIDE, type DeliveryPhoto } from "../../domain/delivery-photo.ts";
import { deliveries, deliveryPhotos, orders, pharmacies } from "../../server/db/schema.ts";
import { courierActions, OCCURRED, type CourierSession } from "../support/courier-actions.ts";
import { HOSTILE_PHOTOS } from "../support/hostile-sweep.ts";
import { describeOps } from "../support/ops-harness.ts";
import { freshOrder, freshPharmacy } from "../support/security-fixtures.ts";
import { dataUrlOf, gradientJpeg, hasExif, jpegHtmlPolyglot, pngBomb, withExifGps } from "../support/test-images.ts";

/**
 * Issue 24 §1 and §6: a drop-off photo is decoded by the server only when its
 * header declares a bounded size, and what is stored and served is always the
 * server's own JPEG — no EXIF (so no GPS), nothing appended, upright, at most
 * 1280 px — while the delivery's position comes from the phone's fields only.
 * A bomb already stored (before this) still gives a proof PDF, with the photo
 * named as one that could not be drawn.
 */

const CONTACTLESS = 4;

function pdfText(pdf: Buffer): string {
  const file = path.join(mkdtempSync(path.join(tmpdir(), "rxc-images-")), "doc.pdf");
  writeFileSync(file, pdf);
  return execFileSync("pdftotext", [file, "-"], { encoding: "utf8" }).replace(/\s+/g, " ");
}

describeOps("hostile photos (issue 24)", (ctx) => {
  const db = () => ctx().database.db;
  let courier: CourierSession;
  let pharmacyId: number;

  async function pickedUpOrder(): Promise<number> {
    return freshOrder(db(), { courierId: courier.courierId, pharmacyId, status: "picked_up" });
  }

  const submission = (orderId: number, position?: { latitude: number; longitude: number }): RecipientSubmission => ({
    order_ids: [orderId],
    relationship: "Contactless - No Signature Requested",
    relationship_id: CONTACTLESS,
    recipient_called_at: null,
    client_occurred_at: OCCURRED,
    body: "Left at the door",
    photo: { data_url: dataUrlOf(gradientJpeg()), media_type: "image/jpeg", bytes: 1, width: 64, height: 48, latitude: null, longitude: null } as DeliveryPhoto,
    ...(position ?? {}),
  });

  /** A contactless drop-off whose photo part carries exactly these bytes. */
  async function postPhoto(orderId: number, bytes: Buffer, position?: { latitude: number; longitude: number }) {
    const entries = deliveryFormEntries(submission(orderId, position)).map(([name, value]): [string, FormValue] =>
      name === PHOTO_FIELD ? [name, { filename: "photo.jpg", type: "image/jpeg", content: dataUrlOf(bytes) }] : [name, value],
    );
    return courierActions(ctx().app, courier).form("/api/courier/deliveries", entries);
  }

  async function storedPhoto(deliveryId: number): Promise<Buffer> {
    const [row] = await db().select().from(deliveryPhotos).where(eq(deliveryPhotos.deliveryId, deliveryId));
    return row!.bytes;
  }

  it("sets up a contactless pharmacy", async () => {
    courier = await ctx().loginCourier("courier@example.com");
    pharmacyId = await freshPharmacy(db(), courier.courierId, "Hostile Photo Pharmacy");
    await db().update(pharmacies).set({ podRecipientConfig: "covid19_contactless" }).where(eq(pharmacies.id, pharmacyId));
  });

  it.each(HOSTILE_PHOTOS.map((photo) => [photo.name, photo] as const))("refuses %s before decoding it, with a 400 that says its size", async (_name, photo) => {
    const orderId = await pickedUpOrder();
    const before = (await db().select({ n: count() }).from(deliveries))[0]!.n;
    const started = performance.now();
    const response = await postPhoto(orderId, photo.bytes());
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json().message).toContain(photo.words);
    expect(response.json().message).toContain("may be at most 12,000 pixels a side and 40 megapixels");
    // Read from the header only: no 3.6 GB of pixels was inflated to say so.
    expect(performance.now() - started).toBeLessThan(5_000);
    expect((await db().select({ n: count() }).from(deliveries))[0]!.n).toBe(before);
  });

  it("stores no EXIF: the GPS a camera wrote is absent from the stored and served bytes, and the proof's position is the phone's only", async () => {
    const withGps = withExifGps(gradientJpeg(64, 48), 39.9526, -75.1652);
    expect((await exifr.gps(withGps))?.latitude).toBeCloseTo(39.9526, 3);
    const orderId = await pickedUpOrder();
    const response = await postPhoto(orderId, withGps);
    expect(response.statusCode, response.body).toBe(200);
    const stored = await storedPhoto(response.json().delivery.id);
    expect(hasExif(stored)).toBe(false);
    expect(await exifr.gps(stored).catch(() => undefined)).toBeUndefined();
    const served = await ctx().ops("GET", `/api/ops/v1/orders/${orderId}/proof/photo`);
    expect(Buffer.compare(served.rawPayload, stored)).toBe(0);
    expect(hasExif(served.rawPayload)).toBe(false);
    const proof = Proof.parse((await ctx().ops("GET", `/api/ops/v1/orders/${orderId}/proof`)).json());
    expect([proof.latitude, proof.longitude]).toEqual([null, null]);
  });

  it("keeps the phone's own position, whatever the file says", async () => {
    const orderId = await pickedUpOrder();
    const response = await postPhoto(orderId, withExifGps(gradientJpeg(64, 48), 10, 10), { latitude: 40.1, longitude: -75.2 });
    expect(response.statusCode, response.body).toBe(200);
    const proof = Proof.parse((await ctx().ops("GET", `/api/ops/v1/orders/${orderId}/proof`)).json());
    expect([proof.latitude, proof.longitude]).toEqual([40.1, -75.2]);
  });

  it("stores a JPEG+HTML polyglot as a plain JPEG: no markup in the stored bytes, nothing after the end of the image", async () => {
    const polyglot = jpegHtmlPolyglot();
    expect(polyglot.includes(Buffer.from("<script"))).toBe(true);
    const orderId = await pickedUpOrder();
    const response = await postPhoto(orderId, polyglot);
    expect(response.statusCode, response.body).toBe(200);
    const stored = await storedPhoto(response.json().delivery.id);
    expect(stored.includes(Buffer.from("<script"))).toBe(false);
    expect(stored.includes(Buffer.from("<html"))).toBe(false);
    expect([...stored.subarray(0, 3)]).toEqual([0xff, 0xd8, 0xff]);
    expect([...stored.subarray(-2)]).toEqual([0xff, 0xd9]);
    expect(await sharp(stored).metadata()).toMatchObject({ format: "jpeg", width: 64, height: 48 });
  });

  it("turns the picture upright by its EXIF orientation and shrinks it to 1280 px, then drops the orientation too", async () => {
    // 2000×1000 as stored, orientation 6 (turn 90° clockwise to view): upright it is 1000×2000.
    const sideways = await sharp(gradientJpeg(2000, 1000, 60)).withMetadata({ orientation: 6 }).jpeg({ quality: 40 }).toBuffer();
    const orderId = await pickedUpOrder();
    const response = await postPhoto(orderId, sideways);
    expect(response.statusCode, response.body).toBe(200);
    const meta = await sharp(await storedPhoto(response.json().delivery.id)).metadata();
    expect(meta).toMatchObject({ format: "jpeg", width: PHOTO_MAX_SIDE / 2, height: PHOTO_MAX_SIDE });
    expect(meta.orientation).toBeUndefined();
    expect(meta.exif).toBeUndefined();
  });

  it("draws a proof PDF for a bomb stored before this check, naming the photo it could not draw", async () => {
    const orderId = await pickedUpOrder();
    const response = await postPhoto(orderId, gradientJpeg());
    expect(response.statusCode, response.body).toBe(200);
    await db().update(deliveryPhotos).set({ mediaType: "image/png", bytes: pngBomb(), byteSize: pngBomb().length }).where(eq(deliveryPhotos.deliveryId, response.json().delivery.id));
    const pdf = await ctx().ops("GET", `/api/ops/v1/orders/${orderId}/proof.pdf`);
    expect(pdf.statusCode, pdf.body.slice(0, 200)).toBe(200);
    const text = pdfText(pdf.rawPayload);
    expect(text).toContain("Proof of delivery");
    expect(text).toContain("photo could not be drawn");
    expect((await db().select({ s: orders.statusId }).from(orders).where(eq(orders.id, orderId))).length).toBe(1);
  });
});
