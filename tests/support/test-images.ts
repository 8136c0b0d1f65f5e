import { crc32, deflateSync } from "node:zlib";
import jpeg from "jpeg-js";

/**
 * Real images made in the test (no opaque files checked in): a JPEG of a
 * colour gradient with a square, at any size, encoded by jpeg-js.
 */
export function gradientJpeg(width = 64, height = 48, quality = 80): Buffer {
  const data = Buffer.alloc(width * height * 4);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 4;
      const inSquare = x > width / 3 && x < (2 * width) / 3 && y > height / 3 && y < (2 * height) / 3;
      data[i] = inSquare ? 20 : Math.round((255 * x) / width);
      data[i + 1] = inSquare ? 120 : Math.round((255 * y) / height);
      data[i + 2] = inSquare ? 40 : 160;
      data[i + 3] = 255;
    }
  }
  return jpeg.encode({ data, width, height }, quality).data;
}

export const dataUrlOf = (bytes: Buffer, type = "image/jpeg") => `data:${type};base64,${bytes.toString("base64")}`;

/** degrees → [degrees, minutes, hundredths of seconds] as EXIF RATIONALs. */
function dms(value: number): [number, number][] {
  const abs = Math.abs(value);
  const degrees = Math.floor(abs);
  const minutes = Math.floor((abs - degrees) * 60);
  const seconds = Math.round(((abs - degrees) * 60 - minutes) * 60 * 100);
  return [[degrees, 1], [minutes, 1], [seconds, 100]];
}

/**
 * The JPEG with an EXIF APP1 segment holding a GPS position (big-endian TIFF:
 * IFD0 with a GPSInfo pointer, the GPS IFD with latitude/longitude and their
 * N/S, E/W refs) — what a phone camera writes, for the strip-and-keep-position test.
 */
export function withExifGps(jpegBytes: Buffer, latitude: number, longitude: number): Buffer {
  const tiff = Buffer.alloc(128);
  tiff.write("MM", 0, "latin1");
  tiff.writeUInt16BE(42, 2);
  tiff.writeUInt32BE(8, 4);
  // IFD0 at 8: one entry, GPSInfo (0x8825, LONG) → the GPS IFD at 26.
  tiff.writeUInt16BE(1, 8);
  tiff.writeUInt16BE(0x8825, 10);
  tiff.writeUInt16BE(4, 12);
  tiff.writeUInt32BE(1, 14);
  tiff.writeUInt32BE(26, 18);
  tiff.writeUInt32BE(0, 22);
  // GPS IFD at 26: four entries, then the rationals at 80 and 104.
  tiff.writeUInt16BE(4, 26);
  const entry = (index: number, tag: number, type: number, countOf: number, value: (offset: number) => void) => {
    const at = 28 + index * 12;
    tiff.writeUInt16BE(tag, at);
    tiff.writeUInt16BE(type, at + 2);
    tiff.writeUInt32BE(countOf, at + 4);
    value(at + 8);
  };
  entry(0, 0x0001, 2, 2, (at) => tiff.write(latitude >= 0 ? "N\0" : "S\0", at, "latin1"));
  entry(1, 0x0002, 5, 3, (at) => tiff.writeUInt32BE(80, at));
  entry(2, 0x0003, 2, 2, (at) => tiff.write(longitude >= 0 ? "E\0" : "W\0", at, "latin1"));
  entry(3, 0x0004, 5, 3, (at) => tiff.writeUInt32BE(104, at));
  tiff.writeUInt32BE(0, 76);
  for (const [base, value] of [[80, latitude], [104, longitude]] as const) {
    dms(value).forEach(([numerator, denominator], i) => {
      tiff.writeUInt32BE(numerator, base + i * 8);
      tiff.writeUInt32BE(denominator, base + i * 8 + 4);
    });
  }
  const payload = Buffer.concat([Buffer.from("Exif\0\0", "latin1"), tiff]);
  const header = Buffer.from([0xff, 0xe1, 0, 0]);
  header.writeUInt16BE(payload.length + 2, 2);
  return Buffer.concat([jpegBytes.subarray(0, 2), header, payload, jpegBytes.subarray(2)]);
}

/** Whether a JPEG carries an EXIF segment (APP1 "Exif"). */
export const hasExif = (bytes: Buffer) => bytes.includes(Buffer.from("Exif\0\0", "latin1"));

/** A PNG chunk: length, type, data, CRC-32 of type and data. */
function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, "latin1"), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/**
 * Issue 24's decompression bomb: a tiny PNG whose header declares
 * width×height 8-bit RGBA (30000×30000 is 3.6 GB of pixels) over a few bytes
 * of deflate — what a decoder that trusts the header would try to inflate.
 */
export function pngBomb(width = 30_000, height = 30_000): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 6, 0, 0, 0], 8); // 8 bits, RGBA, deflate, no filter, not interlaced
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return Buffer.concat([signature, pngChunk("IHDR", ihdr), pngChunk("IDAT", deflateSync(Buffer.alloc(64))), pngChunk("IEND", Buffer.alloc(0))]);
}

/** The JPEG with its frame header (SOF0) rewritten to declare width×height: the pixels stay 64×48, the header lies. */
export function jpegDeclaring(width: number, height: number, source = gradientJpeg(64, 48)): Buffer {
  const bytes = Buffer.from(source);
  for (let at = 2; at + 9 < bytes.length; ) {
    if (bytes[at] !== 0xff) throw new Error("not a JPEG marker");
    const marker = bytes[at + 1]!;
    if (marker === 0xc0 || marker === 0xc2) {
      bytes.writeUInt16BE(height, at + 5);
      bytes.writeUInt16BE(width, at + 7);
      return bytes;
    }
    at += 2 + bytes.readUInt16BE(at + 2);
  }
  throw new Error("no frame header");
}

/** A JPEG+HTML polyglot: markup in a comment segment and after the end-of-image marker. */
export function jpegHtmlPolyglot(source = gradientJpeg(64, 48)): Buffer {
  const html = Buffer.from("<html><body><script>alert(document.cookie)</script></body></html>", "latin1");
  const comment = Buffer.from([0xff, 0xfe, 0, 0]);
  comment.writeUInt16BE(html.length + 2, 2);
  return Buffer.concat([source.subarray(0, 2), comment, html, source.subarray(2), html]);
}
