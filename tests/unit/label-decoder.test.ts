import { readFileSync } from "node:fs";
import path from "node:path";
import bwipjs from "bwip-js/node";
import { beforeAll, describe, expect, it } from "vitest";
import { orderOfLabel } from "../../domain/label-scan.ts";
import { decodeLabels, loadWasmDecoder } from "../../src/ui/scanner/wasm-decoder.ts";
import { makeOrder } from "../support/order-fixtures.ts";

/**
 * Issue 19: the decoder the app ships (ZXing in WebAssembly) reads real
 * labels of each symbology pharmacy printers use. The images are made here
 * by bwip-js (Barcode Writer in Pure JavaScript), as a label printer would
 * print them: black on white with a quiet zone around.
 */

/** The app fetches the .wasm from our server; Node hands the same file over as bytes. */
beforeAll(async () => {
  const bytes = readFileSync(path.resolve("node_modules/zxing-wasm/dist/reader/zxing_reader.wasm"));
  await loadWasmDecoder({ wasmBinary: bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) });
}, 60_000);

const label = (bcid: string, text: string, extra: Record<string, unknown> = {}) =>
  bwipjs.toBuffer({ bcid, text, scale: 3, backgroundcolor: "FFFFFF", paddingwidth: 12, paddingheight: 12, ...extra });

const SYMBOLOGIES = [
  { name: "Code 128", bcid: "code128", text: "RX-2026-004417", extra: { height: 12 } },
  { name: "Code 39", bcid: "code39", text: "RX-88131", extra: { height: 12 } },
  { name: "QR", bcid: "qrcode", text: "ORD-55-RIVERSIDE", extra: {} },
  { name: "Data Matrix", bcid: "datamatrix", text: "RX-7001", extra: {} },
];

describe("the shipped WebAssembly decoder reads generated labels", () => {
  it.each(SYMBOLOGIES)("$name", async ({ bcid, text, extra }) => {
    const png = await label(bcid, text, extra);
    expect(await decodeLabels(new Uint8Array(png))).toEqual([text]);
  });

  it("a label read names its order by RX number or external id", async () => {
    const orders = [
      makeOrder({ id: 1, rx_numbers: ["RX-2026-004417"], external_id: null }),
      makeOrder({ id: 2, rx_numbers: ["RX-1"], external_id: "ORD-55-RIVERSIDE" }),
    ];
    const [rx] = await decodeLabels(new Uint8Array(await label("code128", "RX-2026-004417", { height: 12 })));
    const [external] = await decodeLabels(new Uint8Array(await label("qrcode", "ORD-55-RIVERSIDE")));
    expect(orderOfLabel(orders, rx!)?.id).toBe(1);
    expect(orderOfLabel(orders, external!)?.id).toBe(2);
  });

  it("reads nothing where there is no label, and no symbology it was not asked for", async () => {
    const blank = await label("code128", "X", { height: 12, barcolor: "FFFFFF" });
    expect(await decodeLabels(new Uint8Array(blank))).toEqual([]);
    // EAN-13 is a retail code, never a pharmacy label: not one of the four.
    expect(await decodeLabels(new Uint8Array(await label("ean13", "5901234123457", { height: 12 })))).toEqual([]);
  });
});
