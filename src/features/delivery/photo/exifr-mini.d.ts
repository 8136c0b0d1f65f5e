// exifr's "mini" build (JPEG/HEIC EXIF and GPS only) has the full build's API for what it reads.
declare module "exifr/dist/mini.esm.mjs" {
  export { gps } from "exifr";
}
