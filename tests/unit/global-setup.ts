import { ensureDebianTools, POPPLER_TOOLS } from "../support/debian-packages.ts";

/** The proof PDFs are read back with poppler-utils. */
export default function setup(): void {
  ensureDebianTools(POPPLER_TOOLS);
}
