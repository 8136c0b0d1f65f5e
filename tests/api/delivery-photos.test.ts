import { and, count, eq } from "drizzle-orm";
import sharp from "sharp";
import { expect, it } from "vitest";
import { deliveryFormEntries, type RecipientSubmission } from "../../domain/contract/deliveries.ts";
import { toFormData, type FormValue } from "../../domain/contract/form-fields.ts";
import { Proof } from "../../domain/contract/ops-proof.ts";
import { PHOTO_FIELD, PHOTO_MAX_BYTES, type DeliveryPhoto } from "../../domain/delivery-photo.ts";
import { API_MEDIA_TYPE } from "../../domain/contract/common.ts";
import { statusByName } from "../../domain/vocabulary.ts";
import { deliveries, deliveryPhotos, orders, pharmacies } from "../../server/db/schema.ts";
import { completion, courierActions, OCCURRED, SIGNATURE_SVG, type CourierSession } from "../support/courier-actions.ts";
import { describeOps } from "../support/ops-harness.ts";
import { freshOrder, freshPharmacy } from "../support/security-fixtures.ts";
import { dataUrlOf, gradientJpeg } from "../support/test-images.ts";

/**
 * Issue 19: the photo of the drop-off on POST /api/courier/deliveries — only
 * where nobody signs, only a JPEG, WebP or PNG by its bytes, at most 300 KB —
 * stored once per delivery whatever a retry sends, and shown in the order's
 * proof (JSON link, the photo itself served inert, the PDF).
 */

const NO_RECIPIENT = 3;
const CONTACTLESS = 4;
const KEY = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, "0")}`;

const photoOf = (bytes: Buffer, type: DeliveryPhoto["media_type"] = "image/jpeg"): DeliveryPhoto => ({
  data_url: dataUrlOf(bytes, type),
  media_type: type,
  bytes: bytes.length,
  width: 64,
  height: 48,
  latitude: null,
  longitude: null,
});

describeOps("photo proof at the door (issue 19)", (ctx) => {
  const db = () => ctx().database.db;
  let courier: CourierSession;
  let pharmacyId: number;
  /** A covid19_contactless pharmacy: contactless is its only recipient option. */
  let contactlessPharmacyId: number;
  const JPEG = gradientJpeg(64, 48);

  async function pickedUpOrder(contactless = false): Promise<number> {
    const id = await freshOrder(db(), { courierId: courier.courierId, pharmacyId: contactless ? contactlessPharmacyId : pharmacyId, status: "picked_up" });
    // A signature is required: No Recipient and contactless are offered, and the pharmacy lets the recipient not sign.
    await db().update(orders).set({ signatureRequired: true }).where(eq(orders.id, id));
    return id;
  }

  async function post(entries: [string, FormValue][], key?: string) {
    const request = new Request("http://localhost/", { method: "POST", body: toFormData([["_csrf_token", courier.csrf], ...entries]) });
    return ctx().app.inject({
      method: "POST",
      url: "/api/courier/deliveries",
      headers: {
        accept: API_MEDIA_TYPE,
        cookie: courier.cookie,
        "content-type": request.headers.get("content-type")!,
        ...(key ? { "idempotency-key": key } : {}),
      },
      payload: Buffer.from(await request.arrayBuffer()),
    });
  }

  const recipient = (orderId: number, photo: DeliveryPhoto | null, relationship_id = CONTACTLESS): RecipientSubmission => ({
    order_ids: [orderId],
    relationship: relationship_id === CONTACTLESS ? "Contactless - No Signature Requested" : "No Recipient",
    relationship_id,
    recipient_called_at: null,
    client_occurred_at: OCCURRED,
    body: "Left in the porch box",
    photo,
  });

  /** The entries of a submission with the photo part's bytes replaced (what a hostile or broken client might send). */
  const withPhotoBytes = (entries: [string, FormValue][], bytes: Buffer, type: string) =>
    entries.map(([name, value]): [string, FormValue] =>
      name === PHOTO_FIELD ? [name, { filename: "photo.jpg", type, content: dataUrlOf(bytes, type) }] : [name, value],
    );

  const photoCount = async () => (await db().select({ n: count() }).from(deliveryPhotos))[0]!.n;

  it("sets up a courier at a pharmacy that lets recipients not sign", async () => {
    courier = await ctx().loginCourier("courier@example.com");
    pharmacyId = await freshPharmacy(db(), courier.courierId, "Photo Proof Pharmacy");
    await db().update(pharmacies).set({ canSkipSignature: true }).where(eq(pharmacies.id, pharmacyId));
    contactlessPharmacyId = await freshPharmacy(db(), courier.courierId, "Contactless Pharmacy");
    await db().update(pharmacies).set({ podRecipientConfig: "covid19_contactless" }).where(eq(pharmacies.id, contactlessPharmacyId));
    expect(JPEG.subarray(0, 3)).toEqual(Buffer.from([0xff, 0xd8, 0xff]));
  });

  it("stores the photo of a contactless drop-off with its delivery, as the server's own JPEG, and links it in the proof", async () => {
    const orderId = await pickedUpOrder(true);
    const response = await post(deliveryFormEntries(recipient(orderId, photoOf(JPEG))), KEY(1));
    expect(response.statusCode, response.body).toBe(200);
    const deliveryId = response.json().delivery.id as number;
    const [stored] = await db().select().from(deliveryPhotos).where(eq(deliveryPhotos.deliveryId, deliveryId));
    // Issue 24: re-encoded by the server (same picture, its own bytes).
    expect(stored).toMatchObject({ mediaType: "image/jpeg", byteSize: stored!.bytes.length });
    expect(await sharp(stored!.bytes).metadata()).toMatchObject({ format: "jpeg", width: 64, height: 48 });

    const proof = Proof.parse((await ctx().ops("GET", `/api/ops/v1/orders/${orderId}/proof`)).json());
    expect(proof.photo_url).toBe(`/api/ops/v1/orders/${orderId}/proof/photo`);
    expect(proof.signature_url).toBeNull();
    const photo = await ctx().ops("GET", proof.photo_url!);
    expect(photo.statusCode).toBe(200);
    expect(photo.headers["content-type"]).toBe("image/jpeg");
    expect(photo.headers["x-content-type-options"]).toBe("nosniff");
    expect(photo.headers["content-security-policy"]).toContain("default-src 'none'");
    expect(photo.headers["content-security-policy"]).toContain("sandbox");
    expect(Buffer.compare(photo.rawPayload, stored!.bytes)).toBe(0);

    const pdf = await ctx().ops("GET", `/api/ops/v1/orders/${orderId}/proof.pdf`);
    expect(pdf.statusCode).toBe(200);
    // pdfkit embeds a JPEG as an image XObject with the DCT filter.
    expect(pdf.rawPayload.toString("latin1")).toMatch(/\/Subtype \/Image[\s\S]*\/Filter \/DCTDecode|\/Filter \/DCTDecode[\s\S]*\/Subtype \/Image/);
  });

  it("a replay under the same Idempotency-Key answers the same delivery and stores no second photo", async () => {
    const orderId = await pickedUpOrder();
    const entries = deliveryFormEntries(recipient(orderId, photoOf(JPEG), NO_RECIPIENT));
    const first = await post(entries, KEY(2));
    expect(first.statusCode, first.body).toBe(200);
    const before = await photoCount();
    const again = await post(entries, KEY(2));
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json()).toEqual(first.json());
    expect(await photoCount()).toBe(before);
    const rows = await db().select({ id: deliveries.id }).from(deliveries).where(and(eq(deliveries.courierId, courier.courierId), eq(deliveries.idempotencyKey, KEY(2))));
    expect(rows).toHaveLength(1);
    // The same drop-off sent as a new action is refused by the lifecycle: still one photo.
    const other = await post(entries, KEY(3));
    expect(other.statusCode).toBe(409);
    expect(await photoCount()).toBe(before);
  });

  it("keeps a photo where the recipient gave a reason for not signing", async () => {
    const orderId = await pickedUpOrder();
    const submission = completion([orderId], {
      signature_svg: null,
      signature_refusal_reason: "refused",
      body: "Would not sign",
      recipient_first_name: "Fixture",
      recipient_last_name: "Patient",
      photo: photoOf(JPEG),
    });
    const response = await post(deliveryFormEntries(submission), KEY(4));
    expect(response.statusCode, response.body).toBe(200);
    const proof = Proof.parse((await ctx().ops("GET", `/api/ops/v1/orders/${orderId}/proof`)).json());
    expect(proof.photo_url).not.toBeNull();
    expect(proof.signature_refusal_reason).toBe("refused");
  });

  it.each([
    ["text declared as a JPEG", Buffer.from("this is not a picture at all"), "image/jpeg", "The photo must be a JPEG, WebP or PNG image."],
    ["an SVG declared as a PNG", Buffer.from(SIGNATURE_SVG), "image/png", "The photo must be a JPEG, WebP or PNG image."],
    ["a GIF", Buffer.from("GIF89a\x01\x00\x01\x00\x00\x00\x00;", "latin1"), "image/gif", "The photo must be a JPEG, WebP or PNG image."],
    ["an empty file", Buffer.alloc(0), "image/jpeg", "The photo"],
    ["over 300 KB", Buffer.concat([JPEG.subarray(0, 3), Buffer.alloc(PHOTO_MAX_BYTES + 10_000, 7)]), "image/jpeg", "may be at most 300 KB"],
  ])("refuses %s with a 400 in words and writes nothing", async (_name, bytes, type, words) => {
    const orderId = await pickedUpOrder(true);
    const before = { photos: await photoCount(), deliveries: (await db().select({ n: count() }).from(deliveries))[0]!.n };
    const entries = withPhotoBytes(deliveryFormEntries(recipient(orderId, photoOf(JPEG))), bytes, type);
    const response = await post(entries);
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json().message).toContain(words);
    expect(await photoCount()).toBe(before.photos);
    expect((await db().select({ n: count() }).from(deliveries))[0]!.n).toBe(before.deliveries);
    expect((await db().select({ statusId: orders.statusId }).from(orders).where(eq(orders.id, orderId)))[0]!.statusId).toBe(statusByName("picked_up").id);
  });

  it("accepts a WebP and a PNG by their bytes, and stores and serves each as the server's JPEG", async () => {
    const webp = await sharp(JPEG).webp().toBuffer();
    const png = await sharp(JPEG).png().toBuffer();
    for (const [bytes, declared, served] of [
      [webp, "image/jpeg", "image/jpeg"],
      [png, "application/octet-stream", "image/jpeg"],
    ] as const) {
      const orderId = await pickedUpOrder();
      const response = await post(withPhotoBytes(deliveryFormEntries(recipient(orderId, photoOf(JPEG), NO_RECIPIENT)), bytes, declared));
      expect(response.statusCode, response.body).toBe(200);
      const photo = await ctx().ops("GET", `/api/ops/v1/orders/${orderId}/proof/photo`);
      expect(photo.headers["content-type"]).toBe(served);
    }
  });

  it("refuses a photo where the recipient signed, and on a failed delivery", async () => {
    const orderId = await pickedUpOrder();
    const signed = completion([orderId], { recipient_first_name: "Fixture", recipient_last_name: "Patient", photo: photoOf(JPEG) });
    const response = await post(deliveryFormEntries(signed));
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json().message).toBe(
      "A photo of the drop-off goes only with a delivery nobody signed for: No Recipient, contactless, or a reason for not signing.",
    );
    const failed = await courierActions(ctx().app, courier).json("POST", "/api/courier/deliveries", {
      delivery: {
        failure_reason: "Patient Not Home",
        client_occurred_at: OCCURRED,
        order_ids: [orderId],
        photo: { attachment: { file: { filename: "photo.jpg", type: "image/jpeg", content: JPEG.toString("base64") } } },
      },
    });
    expect(failed.statusCode, failed.body).toBe(400);
    expect(failed.json().message).toBe("A failed delivery has no recipient, signature, payment or photo.");
  });

  it("a signed delivery's proof has no photo link, and its photo is not found", async () => {
    const orderId = await pickedUpOrder();
    await courierActions(ctx().app, courier).deliver(completion([orderId], { recipient_first_name: "Fixture", recipient_last_name: "Patient" }));
    expect(Proof.parse((await ctx().ops("GET", `/api/ops/v1/orders/${orderId}/proof`)).json()).photo_url).toBeNull();
    expect((await ctx().ops("GET", `/api/ops/v1/orders/${orderId}/proof/photo`)).statusCode).toBe(404);
  });

  it("pod_photo_required: off by default, set through the operations API, shown to the courier", async () => {
    const created = await ctx().ops("POST", "/api/ops/v1/pharmacies", {
      name: "Photo Flag Pharmacy",
      phone_number: "2155550100",
      address: { street_address: "2 Flag St", city: "Philadelphia", state_abbreviation: "PA", zipcode: "19103", latitude: 39.95, longitude: -75.17 },
      payment_methods: [{ type: "cash", allowed: true }],
      allow_pod_copay_collection: false,
      routing_enabled: false,
      dob_verification_enabled: false,
      pod_recipient_config: null,
      can_skip_copay_collection: false,
      can_skip_signature: true,
    });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json().pharmacy.pod_photo_required).toBe(false);
    const id = created.json().pharmacy.id as number;
    const patched = await ctx().ops("PATCH", `/api/ops/v1/pharmacies/${id}`, { pod_photo_required: true });
    expect(patched.statusCode, patched.body).toBe(200);
    expect(patched.json().pharmacy.pod_photo_required).toBe(true);
    expect((await ctx().ops("PATCH", `/api/ops/v1/pharmacies/${id}`, { pod_photo_required: "yes" })).statusCode).toBe(400);

    await db().update(pharmacies).set({ podPhotoRequired: true }).where(eq(pharmacies.id, pharmacyId));
    const orderId = await pickedUpOrder();
    const itinerary = await courierActions(ctx().app, courier).json("GET", "/api/courier/itinerary");
    const order = (itinerary.json() as { orders: { id: number; pharmacy: { pod_photo_required: boolean } }[] }).orders.find((o) => o.id === orderId);
    expect(order?.pharmacy.pod_photo_required).toBe(true);
  });
});
