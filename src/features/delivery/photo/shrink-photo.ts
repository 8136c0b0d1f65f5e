import { PHOTO_MAX_BYTES, shrunkSize, type DeliveryPhoto } from "../../../../domain/delivery-photo.ts";

/**
 * Issue 19: the camera's photo made small enough to store on the phone and send
 * from a doorstep. Loaded on demand (the delivery screens' first load does not
 * carry it). Re-encoding through a canvas keeps the pixels only, so EXIF
 * (camera, time, position) never leaves the phone. Issue 24: nothing is read
 * from the file either — the delivery's position is the phone's geolocation
 * only — and the server re-encodes what it receives (server/services/photo.ts).
 */

const QUALITIES = [0.82, 0.72, 0.6, 0.5, 0.4];
const SHRINK_STEP = 0.8;

/** Decoded pixels, upright as the camera meant them. */
async function decode(file: Blob): Promise<ImageBitmap> {
  try {
    return await createImageBitmap(file, { imageOrientation: "from-image" });
  } catch {
    throw new Error("This file could not be read as a photo. Take the photo again.");
  }
}

function canvasOf(width: number, height: number): HTMLCanvasElement {
  const canvas = document.createElement("canvas");
  canvas.width = width;
  canvas.height = height;
  return canvas;
}

function encode(canvas: HTMLCanvasElement, quality: number): Promise<Blob> {
  return new Promise((resolve, reject) =>
    canvas.toBlob((blob) => (blob ? resolve(blob) : reject(new Error("The photo could not be saved. Take the photo again."))), "image/jpeg", quality),
  );
}

function dataUrlOf(blob: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error ?? new Error("The photo could not be read."));
    reader.readAsDataURL(blob);
  });
}

/** The photo as the flow keeps it: JPEG, longest side ≤ 1280 px, under PHOTO_MAX_BYTES, no EXIF. */
export async function shrinkPhoto(file: Blob): Promise<DeliveryPhoto> {
  const bitmap = await decode(file);
  try {
    let size = shrunkSize(bitmap.width, bitmap.height);
    for (;;) {
      const canvas = canvasOf(size.width, size.height);
      const context = canvas.getContext("2d");
      if (!context) throw new Error("The photo could not be prepared on this phone.");
      // JPEG has no transparency: a white ground rather than black behind a PNG's clear pixels.
      context.fillStyle = "#fff";
      context.fillRect(0, 0, size.width, size.height);
      context.drawImage(bitmap, 0, 0, size.width, size.height);
      for (const quality of QUALITIES) {
        const blob = await encode(canvas, quality);
        if (blob.size < PHOTO_MAX_BYTES) {
          return {
            data_url: await dataUrlOf(blob),
            media_type: "image/jpeg",
            bytes: blob.size,
            width: size.width,
            height: size.height,
            latitude: null,
            longitude: null,
          };
        }
      }
      const side = Math.floor(Math.max(size.width, size.height) * SHRINK_STEP);
      // Only noise-like pictures stay large at low quality; below this they are no use as proof anyway.
      if (side < 320) throw new Error("This photo cannot be made small enough to send. Take the photo again.");
      size = shrunkSize(size.width, size.height, side);
    }
  } finally {
    bitmap.close();
  }
}
