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
