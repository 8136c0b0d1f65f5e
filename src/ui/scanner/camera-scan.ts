import { PLATFORM_LABEL_FORMATS, type CameraProblem } from "../../../domain/label-scan.ts";
import type { CameraEvent } from "../../../machines/label-scanner.machine.ts";
import { viewfinderVideo } from "./viewfinder.ts";

/**
 * The camera and the decoder behind the label-scanner machine's `camera` actor,
 * loaded when the courier taps Scan (camera-actor.ts). It opens the
 * rear camera, reads the picture a few times a second and reports each label
 * read; the returned function closes the camera.
 */

/** What reads the labels in a frame of the video. */
interface FrameDecoder {
  decode(video: HTMLVideoElement): Promise<string[]>;
}

/** The platform's detector (Chrome on Android, …): not in TypeScript's DOM types yet. */
interface PlatformBarcodeDetector {
  detect(source: HTMLVideoElement): Promise<{ rawValue: string }[]>;
}
interface PlatformBarcodeDetectorClass {
  new (options: { formats: string[] }): PlatformBarcodeDetector;
  getSupportedFormats(): Promise<string[]>;
}

/** Between two reads: fast enough to feel instant, slow enough for a slow phone's CPU. */
const READ_EVERY_MS = 150;
/** A label held in front of the camera is reported again only after this long. */
const SAME_LABEL_AGAIN_MS = 2500;
/** Frames are read at most this wide or high: enough for a label at arm's length. */
const FRAME_MAX = 1280;

/** The platform's BarcodeDetector when it reads all four label symbologies, else null. */
async function platformDecoder(): Promise<FrameDecoder | null> {
  const Detector = (globalThis as { BarcodeDetector?: PlatformBarcodeDetectorClass }).BarcodeDetector;
  if (!Detector) return null;
  try {
    const supported = await Detector.getSupportedFormats();
    if (!PLATFORM_LABEL_FORMATS.every((format) => supported.includes(format))) return null;
    const detector = new Detector({ formats: [...PLATFORM_LABEL_FORMATS] });
    return { decode: async (video) => (await detector.detect(video)).map((barcode) => barcode.rawValue) };
  } catch {
    return null;
  }
}

/** ZXing in WebAssembly, reading a frame copied to a canvas. */
async function wasmDecoder(): Promise<FrameDecoder> {
  const { decodeLabels, loadWasmDecoder } = await import("./wasm-decoder.ts");
  await loadWasmDecoder();
  const canvas = document.createElement("canvas");
  const context = canvas.getContext("2d", { willReadFrequently: true });
  if (!context) throw new Error("no 2d canvas");
  return {
    async decode(video) {
      const scale = Math.min(1, FRAME_MAX / Math.max(video.videoWidth, video.videoHeight));
      canvas.width = Math.round(video.videoWidth * scale);
      canvas.height = Math.round(video.videoHeight * scale);
      if (canvas.width === 0 || canvas.height === 0) return [];
      context.drawImage(video, 0, 0, canvas.width, canvas.height);
      return decodeLabels(context.getImageData(0, 0, canvas.width, canvas.height));
    },
  };
}

/** Which of the spec-less camera failures a getUserMedia error is. */
export function cameraProblemOf(error: unknown): CameraProblem {
  const name = error instanceof Error || (typeof error === "object" && error !== null && "name" in error) ? String((error as { name: unknown }).name) : "";
  if (name === "NotAllowedError" || name === "SecurityError" || name === "PermissionDeniedError") return "denied";
  if (name === "NotFoundError" || name === "OverconstrainedError" || name === "DevicesNotFoundError") return "no-camera";
  return "failed";
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export function startCameraScan(send: (event: CameraEvent) => void, video: HTMLVideoElement = viewfinderVideo()): () => void {
  let stopped = false;
  let stream: MediaStream | null = null;
  const close = () => {
    stream?.getTracks().forEach((track) => track.stop());
    stream = null;
    video.pause();
    video.srcObject = null;
  };

  const run = async () => {
    if (!window.isSecureContext || !navigator.mediaDevices?.getUserMedia) return send({ type: "CAMERA_FAILED", problem: "unsupported" });
    // The decoder loads while the courier answers the permission prompt.
    const decoder = platformDecoder().then((platform) => platform ?? wasmDecoder());
    decoder.catch(() => undefined);
    try {
      stream = await navigator.mediaDevices.getUserMedia({
        audio: false,
        video: { facingMode: { ideal: "environment" }, width: { ideal: 1280 }, height: { ideal: 720 } },
      });
    } catch (error) {
      return send({ type: "CAMERA_FAILED", problem: cameraProblemOf(error) });
    }
    if (stopped) return close();
    let reader: FrameDecoder;
    try {
      video.srcObject = stream;
      await video.play();
      reader = await decoder;
    } catch {
      close();
      return send({ type: "CAMERA_FAILED", problem: "failed" });
    }
    if (stopped) return close();
    send({ type: "CAMERA_READY" });

    const lastSent = new Map<string, number>();
    while (!stopped) {
      if (video.readyState >= HTMLMediaElement.HAVE_CURRENT_DATA) {
        const codes = await reader.decode(video).catch(() => [] as string[]);
        const now = performance.now();
        for (const code of codes) {
          if (stopped || now - (lastSent.get(code) ?? Number.NEGATIVE_INFINITY) < SAME_LABEL_AGAIN_MS) continue;
          lastSent.set(code, now);
          send({ type: "LABEL_READ", code });
        }
      }
      await sleep(READ_EVERY_MS);
    }
  };
  void run();

  return () => {
    stopped = true;
    close();
  };
}
