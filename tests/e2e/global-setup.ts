import { execSync } from "node:child_process";
import { existsSync } from "node:fs";
import { CHROMIUM_TOOL, ensureDebianTools, POPPLER_TOOLS } from "../support/debian-packages.ts";

/** The e2e tests drive Debian's Chromium and read proof PDFs with poppler-utils. */
export default function setup(): void {
  ensureDebianTools([CHROMIUM_TOOL, ...POPPLER_TOOLS]);
  if (!existsSync("dist/index.html")) execSync("npx vite build", { stdio: "inherit" });
}
