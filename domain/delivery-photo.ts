/**
 * Photo proof at the door (issue 19): where nobody signs — No Recipient, the
 * contactless option, a signature refused with a reason — the courier may
 * photograph where the medication was left; a pharmacy may require it
 * (pod_photo_required). One copy of the rules for the phone, the machine and
 * the server.
 */

/** The phone shrinks the photo so its longest side is at most this many pixels. */
export const PHOTO_MAX_SIDE = 1280;
/** What the phone stores and sends: under 300 KB. The server refuses anything larger. */
export const PHOTO_MAX_BYTES = 300 * 1024;
/**
 * Issue 24: the largest picture the server will decode, read from the file's
 * header before any pixel is: 40 megapixels and 12,000 px a side (a phone
 * camera is 12–50 MP; a 30000×30000 "photo" is a decompression bomb).
 */
export const PHOTO_SOURCE_MAX_PIXELS = 40_000_000;
export const PHOTO_SOURCE_MAX_SIDE = 12_000;

/** Why a picture of these declared dimensions is not decoded, in words; null when it may be. */
export function photoDimensionsProblem(width: number, height: number): string | null {
  if (!(width > 0 && height > 0)) return "The photo does not say how large it is, so it cannot be read as a photo.";
  if (width > PHOTO_SOURCE_MAX_SIDE || height > PHOTO_SOURCE_MAX_SIDE || width * height > PHOTO_SOURCE_MAX_PIXELS) {
    return (
      `The photo is ${width}×${height} pixels; a photo of the drop-off may be at most ` +
      `${PHOTO_SOURCE_MAX_SIDE.toLocaleString("en-US")} pixels a side and ${PHOTO_SOURCE_MAX_PIXELS / 1_000_000} megapixels.`
    );
  }
  return null;
}

/** The image types the server keeps, recognised by their first bytes (never by the declared type alone). */
export const PHOTO_MEDIA_TYPES = ["image/jpeg", "image/webp", "image/png"] as const;
export type PhotoMediaType = (typeof PHOTO_MEDIA_TYPES)[number];

/** The form field the photo travels in, beside delivery[signature][attachment][file]. */
export const PHOTO_FIELD = "delivery[photo][attachment][file]";
export const PHOTO_FILE_NAMES: Record<PhotoMediaType, string> = {
  "image/jpeg": "photo.jpg",
  "image/webp": "photo.webp",
  "image/png": "photo.png",
};

/** The photo as the delivery flow keeps it: plain JSON, so it survives a reload and the offline queue. */
export interface DeliveryPhoto {
  /** data:image/jpeg;base64,… — the shrunk, re-encoded image (no EXIF). */
  data_url: string;
  media_type: PhotoMediaType;
  bytes: number;
  width: number;
  height: number;
  /**
   * Always null since issue 24 (a position is never taken from a file); kept
   * so that flows stored on a phone before then still read.
   */
  latitude: number | null;
  longitude: number | null;
}

/** The image type the bytes are, from their signature; null for anything else. */
export function sniffPhotoType(bytes: Uint8Array): PhotoMediaType | null {
  const at = (offset: number, ...expected: number[]) => expected.every((byte, i) => bytes[offset + i] === byte);
  if (bytes.length >= 3 && at(0, 0xff, 0xd8, 0xff)) return "image/jpeg";
  if (bytes.length >= 8 && at(0, 0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return "image/png";
  // RIFF <size> WEBP
  if (bytes.length >= 12 && at(0, 0x52, 0x49, 0x46, 0x46) && at(8, 0x57, 0x45, 0x42, 0x50)) return "image/webp";
  return null;
}

/** Why the server will not keep these bytes as a photo, in words; null when it will. */
export function photoProblem(bytes: Uint8Array): string | null {
  if (bytes.length === 0) return "The photo is empty.";
  if (bytes.length > PHOTO_MAX_BYTES) {
    return `The photo is ${Math.ceil(bytes.length / 1024)} KB; a photo of the drop-off may be at most ${PHOTO_MAX_BYTES / 1024} KB.`;
  }
  if (!sniffPhotoType(bytes)) return "The photo must be a JPEG, WebP or PNG image.";
  return null;
}

/** The pharmacy wants a photo wherever nobody signs. */
export const photoRequired = (order: { pharmacy: { pod_photo_required: boolean } }) => order.pharmacy.pod_photo_required;

/** Where a photo may go: nobody signed (No Recipient, contactless, or a refusal reason instead of a signature). */
export function photoAllowed(delivery: { signed: boolean; skippedRecipient: boolean; refusalReason: string | null }): boolean {
  return !delivery.signed && (delivery.skippedRecipient || delivery.refusalReason != null);
}

/** The longest side at most PHOTO_MAX_SIDE, proportions kept, never enlarged. */
export function shrunkSize(width: number, height: number, maxSide = PHOTO_MAX_SIDE): { width: number; height: number } {
  const scale = Math.min(1, maxSide / Math.max(width, height));
  return { width: Math.max(1, Math.round(width * scale)), height: Math.max(1, Math.round(height * scale)) };
}

/** A data: URL's bytes, in any JavaScript runtime. */
export function dataUrlBytes(dataUrl: string): Uint8Array {
  const comma = dataUrl.indexOf(",");
  const binary = atob(dataUrl.slice(comma + 1));
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/** The delivery's position: the phone's own geolocation fix, or none — never a file's EXIF (issue 24). */
export function deliveryPosition(phone: { latitude: number; longitude: number } | null): { latitude: number; longitude: number } | null {
  return phone ? { latitude: phone.latitude, longitude: phone.longitude } : null;
}
