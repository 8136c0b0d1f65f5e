import { checkSignatureSvg } from "../../../services/signature-svg.ts";
import { drawSignature } from "./svg-to-pdf.ts";

/**
 * Issue 24: a stored signature or photo never breaks a PDF. A signature is
 * held to the upload's rules (server/services/signature-svg.ts, whose number
 * bounds are what a PDF can write) before a stroke is drawn; a photo's size is
 * read from its header (pdfkit's openImage parses headers and keeps the
 * compressed data) and one over the bound below is never decoded. Either one
 * that cannot be drawn is named by a placeholder, and the rest of the document
 * is drawn as usual.
 */

export const SIGNATURE_UNDRAWABLE = "The signature could not be drawn: the stored drawing is outside what a signature may be.";
export const PHOTO_UNDRAWABLE = "The photo could not be drawn";

/**
 * The largest picture a PDF draws. The server's own photos are at most 1280 px
 * (server/services/photo.ts); this bounds what was stored before they were.
 */
export const DRAW_MAX_SIDE = 4096;
export const DRAW_MAX_PIXELS = 16_000_000;

type Box = { x: number; y: number; width: number; height: number };

/** Draws the signature in the box when it is one the PDF can hold; false (nothing drawn) otherwise. */
export function drawStoredSignature(doc: PDFKit.PDFDocument, svg: string, box: Box): boolean {
  if (!checkSignatureSvg(svg).ok) return false;
  try {
    drawSignature(doc, svg, box);
    return true;
  } catch {
    // Checked above, so not expected: still a placeholder rather than a broken proof.
    return false;
  }
}

interface OpenedImage {
  width: number;
  height: number;
}

/** The photo, opened by its header only, when it is small enough to draw; null when it is not or cannot be read. */
export function drawablePhoto(doc: PDFKit.PDFDocument, bytes: Buffer): OpenedImage | null {
  try {
    const image = (doc as unknown as { openImage(src: Buffer): OpenedImage }).openImage(bytes);
    const { width, height } = image;
    if (!(width > 0 && height > 0) || width > DRAW_MAX_SIDE || height > DRAW_MAX_SIDE || width * height > DRAW_MAX_PIXELS) return null;
    return image;
  } catch {
    return null;
  }
}
