import sharp from "sharp";
import { PHOTO_MAX_BYTES, PHOTO_MAX_SIDE, PHOTO_SOURCE_MAX_PIXELS, photoDimensionsProblem, photoProblem } from "../../domain/delivery-photo.ts";
import { badRequest } from "../http/errors.ts";

/**
 * Issue 24: what the server stores as a photo is always its own JPEG. The
 * upload's header is read first (sharp's metadata reads headers only, no
 * pixels), so a bomb that declares 30000×30000 is refused before anything is
 * decoded; what passes is decoded with libvips' own pixel limit as a second
 * bound, turned upright by its EXIF orientation, shrunk to PHOTO_MAX_SIDE and
 * written anew as a baseline JPEG with no metadata at all — no EXIF (so no
 * GPS), no ICC, no comments, nothing appended (a JPEG+HTML polyglot comes out
 * a plain JPEG). sharp runs on libuv's thread pool: the event loop only waits.
 */

/** Tried in order until the JPEG is under PHOTO_MAX_BYTES (a noisy picture stays large at high quality). */
const QUALITIES = [82, 70, 55, 40];

export interface StoredPhoto {
  mediaType: "image/jpeg";
  bytes: Buffer;
  width: number;
  height: number;
}

const unreadable = () => badRequest("The photo could not be read as a JPEG, WebP or PNG image. Take the photo again.");

/** The declared size, from the header only; a refusal in words when it is too large or not there. */
async function declaredSize(bytes: Buffer): Promise<void> {
  let metadata: sharp.Metadata;
  try {
    // Header only: no pixel limit here (libvips' own would refuse the bomb with no size in words); ours is checked next.
    metadata = await sharp(bytes, { limitInputPixels: false }).metadata();
  } catch {
    throw unreadable();
  }
  const problem = photoDimensionsProblem(metadata.width ?? 0, metadata.height ?? 0);
  if (problem) throw badRequest(problem);
}

/** The upload re-encoded as the product's JPEG; a 400 in words for anything that is not a bounded, readable photo. */
export async function reencodePhoto(bytes: Buffer): Promise<StoredPhoto> {
  const problem = photoProblem(bytes);
  if (problem) throw badRequest(problem);
  await declaredSize(bytes);
  for (const quality of QUALITIES) {
    let encoded: { data: Buffer; info: sharp.OutputInfo };
    try {
      encoded = await sharp(bytes, { limitInputPixels: PHOTO_SOURCE_MAX_PIXELS, failOn: "error" })
        .rotate() // EXIF orientation applied, then dropped with the rest of the metadata
        .resize(PHOTO_MAX_SIDE, PHOTO_MAX_SIDE, { fit: "inside", withoutEnlargement: true })
        // JPEG has no transparency: white behind a PNG's clear pixels, as the phone does.
        .flatten({ background: "#ffffff" })
        .jpeg({ quality, mozjpeg: false, chromaSubsampling: "4:2:0" })
        .toBuffer({ resolveWithObject: true });
    } catch {
      throw unreadable();
    }
    if (encoded.data.length < PHOTO_MAX_BYTES || quality === QUALITIES[QUALITIES.length - 1]) {
      return { mediaType: "image/jpeg", bytes: encoded.data, width: encoded.info.width, height: encoded.info.height };
    }
  }
  throw unreadable();
}
