import { execSync } from "node:child_process";
import { existsSync } from "node:fs";
import { CHROMIUM_TOOL, ensureDebianTools, FFMPEG_TOOL, POPPLER_TOOLS } from "../support/debian-packages.ts";

/** The e2e tests drive Debian's Chromium, read proof PDFs with poppler-utils and film labels with ffmpeg. */
export default function setup(): void {
  ensureDebianTools([CHROMIUM_TOOL, ...POPPLER_TOOLS, FFMPEG_TOOL]);
  if (!existsSync("dist/index.html")) execSync("npx vite build", { stdio: "inherit" });
}
