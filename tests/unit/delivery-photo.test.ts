import { describe, expect, it } from "vitest";
import { deliveryFormEntries, type RecipientSubmission } from "../../domain/contract/delivery-submissions.ts";
import { toFormData } from "../../domain/contract/form-fields.ts";
import {
  dataUrlBytes,
  deliveryPosition,
  PHOTO_FIELD,
  PHOTO_MAX_BYTES,
  photoAllowed,
  photoProblem,
  shrunkSize,
  sniffPhotoType,
  type DeliveryPhoto,
} from "../../domain/delivery-photo.ts";
import { dataUrlOf, gradientJpeg } from "../support/test-images.ts";

/** Issue 19: the photo rules the phone, the machine and the server share. */

const bytes = (...values: number[]) => new Uint8Array(values);

describe("sniffPhotoType: the type by the file's first bytes", () => {
  it("knows a real JPEG, a PNG and a WebP signature", () => {
    expect(sniffPhotoType(gradientJpeg(8, 8))).toBe("image/jpeg");
    expect(sniffPhotoType(bytes(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0))).toBe("image/png");
    expect(sniffPhotoType(new TextEncoder().encode("RIFF\x10\x00\x00\x00WEBPVP8 "))).toBe("image/webp");
  });

  it.each([
    ["text", new TextEncoder().encode("hello, I am a JPEG")],
    ["an SVG", new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg"/>')],
    ["a GIF", new TextEncoder().encode("GIF89a")],
    ["a RIFF that is not WebP (WAV)", new TextEncoder().encode("RIFF\x10\x00\x00\x00WAVEfmt ")],
    ["a truncated JPEG signature", bytes(0xff, 0xd8)],
    ["nothing", bytes()],
  ])("refuses %s", (_name, value) => {
    expect(sniffPhotoType(value)).toBeNull();
  });
});

describe("photoProblem: what the server says, in words", () => {
  it("accepts a JPEG under the limit", () => expect(photoProblem(gradientJpeg(32, 32))).toBeNull());
  it("refuses an empty file, a large file and a non-image", () => {
    expect(photoProblem(bytes())).toBe("The photo is empty.");
    const large = new Uint8Array(PHOTO_MAX_BYTES + 1);
    large.set([0xff, 0xd8, 0xff]);
    expect(photoProblem(large)).toBe("The photo is 301 KB; a photo of the drop-off may be at most 300 KB.");
    expect(photoProblem(new TextEncoder().encode("not a picture"))).toBe("The photo must be a JPEG, WebP or PNG image.");
  });
});

describe("photoAllowed: only where nobody signs", () => {
  it.each([
    [{ signed: false, skippedRecipient: true, refusalReason: null }, true],
    [{ signed: false, skippedRecipient: false, refusalReason: "refused" }, true],
    [{ signed: true, skippedRecipient: false, refusalReason: null }, false],
    [{ signed: true, skippedRecipient: false, refusalReason: "refused" }, false],
    [{ signed: false, skippedRecipient: false, refusalReason: null }, false],
  ])("%j → %s", (delivery, allowed) => expect(photoAllowed(delivery)).toBe(allowed));
});

describe("shrunkSize: longest side at most 1280 px, proportions kept, never enlarged", () => {
  it.each([
    [4032, 3024, 1280, 960],
    [3024, 4032, 960, 1280],
    [1280, 720, 1280, 720],
    [640, 480, 640, 480],
    [10000, 1, 1280, 1],
  ])("%i×%i → %i×%i", (width, height, w, h) => expect(shrunkSize(width, height)).toEqual({ width: w, height: h }));
});

describe("deliveryPosition: the phone's fix only, never a file's (issue 24)", () => {
  it("is the phone's", () => expect(deliveryPosition({ latitude: 40, longitude: -75 })).toEqual({ latitude: 40, longitude: -75 }));
  it("is none without one", () => expect(deliveryPosition(null)).toBeNull());
});

describe("the photo in the delivery form", () => {
  it("travels as delivery[photo][attachment][file] with the image's bytes, not its data: URL", async () => {
    const jpeg = gradientJpeg(16, 16);
    const photo: DeliveryPhoto = { data_url: dataUrlOf(jpeg), media_type: "image/jpeg", bytes: jpeg.length, width: 16, height: 16, latitude: 1, longitude: 2 };
    const submission: RecipientSubmission = {
      order_ids: [7],
      relationship: "No Recipient",
      relationship_id: 3,
      recipient_called_at: null,
      client_occurred_at: "2026-11-21T15:04:05.000Z",
      body: "Left at the door",
      photo,
    };
    const entries = deliveryFormEntries(submission);
    expect(entries.filter(([name]) => name.startsWith("delivery[photo]")).map(([name]) => name)).toEqual([PHOTO_FIELD]);
    // The photo's own EXIF position is not a form field: the app decides the delivery's position.
    expect(entries.some(([name]) => name.includes("latitude"))).toBe(false);
    const file = toFormData(entries).get(PHOTO_FIELD) as File;
    expect(file.type).toBe("image/jpeg");
    expect(file.name).toBe("photo.jpg");
    expect(Buffer.from(await file.arrayBuffer()).equals(jpeg)).toBe(true);
    expect(Buffer.from(dataUrlBytes(photo.data_url)).equals(jpeg)).toBe(true);
  });
});
