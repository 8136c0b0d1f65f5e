import { prepareZXingModule, readBarcodes, type ZXingModuleOverrides } from "zxing-wasm/reader";
import wasmUrl from "zxing-wasm/reader/zxing_reader.wasm?url";
import { LABEL_FORMATS } from "../../../domain/label-scan.ts";

/**
 * ZXing-C++ compiled to WebAssembly (zxing-wasm): the label decoder where the
 * browser has no BarcodeDetector (headless Chromium, Firefox, Safari). Loaded
 * only when the courier taps Scan (camera-scan.ts imports it on demand); its
 * .wasm is one of our build's assets, served by our own server — never the
 * CDN the library would fetch it from by default (docs/security.md).
 */

/** The build's copy of the .wasm: the library names the file, we say where it is. */
export const BUILT_WASM: ZXingModuleOverrides = {
  locateFile: (file: string, prefix: string) => (file.endsWith(".wasm") ? wasmUrl : prefix + file),
};

/** Compiles the decoder (once); `overrides` lets Node hand it the .wasm bytes (the unit tests). */
export async function loadWasmDecoder(overrides: ZXingModuleOverrides = BUILT_WASM): Promise<void> {
  await prepareZXingModule({ overrides, fireImmediately: true });
}

/** The texts of the label barcodes in a camera frame or an image file (PNG, JPEG). */
export async function decodeLabels(image: ImageData | Uint8Array): Promise<string[]> {
  const results = await readBarcodes(image, { formats: [...LABEL_FORMATS], tryHarder: true, maxNumberOfSymbols: 4 });
  return results.filter((result) => result.isValid && result.text !== "").map((result) => result.text);
}
