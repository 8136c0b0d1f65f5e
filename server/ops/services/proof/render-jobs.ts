import type { MessagePort } from "node:worker_threads";
import sharp from "sharp";
import type { Proof, ReturnManifest } from "../../../../domain/contract/ops-proof.ts";
import { DRAW_MAX_PIXELS, DRAW_MAX_SIDE } from "./drawable.ts";
import { proofPdf, returnManifestPdf } from "./pdf.ts";

/**
 * What a render worker does (server/ops/services/proof/render-pool.ts): one PDF
 * per message, answered with its bytes or the error's message. Everything a
 * job carries is plain data (structured clone), so the worker reads nothing
 * from the database.
 */

export interface StoredPhotoData {
  mediaType: string;
  bytes: Uint8Array;
}

export type RenderJob =
  | {
      kind: "proof";
      proof: Proof;
      options: { timeZone: string; signatureSvg: string | null; returnSignatureSvg: string | null; photo: StoredPhotoData | null };
    }
  | { kind: "manifest"; manifest: ReturnManifest; options: { timeZone: string; signatureSvg: string } };

export type RenderRequest = { id: number; job: RenderJob };
export type RenderAnswer =
  | { id: number; ok: true; pdf: Uint8Array }
  | { id: number; ok: false; message: string }
  /** Sent once, when the worker has loaded and listens: a render's time bound starts with the render, not the thread. */
  | { ready: true };

/**
 * The photo as the PDF draws it: a JPEG (pdfkit embeds JPEG data as it is,
 * without decoding it; its size is checked from the header in drawable.ts).
 * A PNG or WebP stored before issue 24 is converted here, its header checked
 * against the drawing bound first; one that cannot be travels with no bytes,
 * which the PDF names as a photo that could not be drawn.
 */
async function drawnPhoto(photo: StoredPhotoData | null): Promise<{ mediaType: string; bytes: Buffer } | null> {
  if (!photo) return null;
  const bytes = Buffer.from(photo.bytes.buffer, photo.bytes.byteOffset, photo.bytes.byteLength);
  if (photo.mediaType === "image/jpeg") return { mediaType: photo.mediaType, bytes };
  const undrawable = { mediaType: "image/jpeg", bytes: Buffer.alloc(0) };
  try {
    const { width = 0, height = 0 } = await sharp(bytes, { limitInputPixels: false }).metadata();
    if (!(width > 0 && height > 0) || width > DRAW_MAX_SIDE || height > DRAW_MAX_SIDE || width * height > DRAW_MAX_PIXELS) return undrawable;
    const jpeg = await sharp(bytes, { limitInputPixels: DRAW_MAX_PIXELS }).rotate().flatten({ background: "#ffffff" }).jpeg({ quality: 85 }).toBuffer();
    return { mediaType: "image/jpeg", bytes: jpeg };
  } catch {
    return undrawable;
  }
}

export async function renderJob(job: RenderJob): Promise<Buffer> {
  if (job.kind === "manifest") return returnManifestPdf(job.manifest, job.options);
  return proofPdf(job.proof, { ...job.options, photo: await drawnPhoto(job.options.photo) });
}

/**
 * Answers the port's render requests. `beforeEach` runs on the worker's
 * thread before each render: the tests hold a render there (a latch) to show
 * the API answers while one is in progress.
 */
export function serveRenderJobs(port: MessagePort, beforeEach?: () => void): void {
  port.on("message", async ({ id, job }: RenderRequest) => {
    let answer: RenderAnswer;
    try {
      beforeEach?.();
      // A copy of its own: the PDF's buffer may share a pooled ArrayBuffer, and only a whole one can be transferred.
      const pdf = new Uint8Array(await renderJob(job));
      answer = { id, ok: true, pdf };
      port.postMessage(answer, [pdf.buffer]);
    } catch (error) {
      answer = { id, ok: false, message: error instanceof Error ? error.message : String(error) };
      port.postMessage(answer);
    }
  });
  port.postMessage({ ready: true } satisfies RenderAnswer);
}
