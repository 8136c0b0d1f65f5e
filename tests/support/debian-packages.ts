import { execFileSync, execSync } from "node:child_process";

/** A command the tests run, and the Debian package that brings it. */
export interface DebianTool {
  command: string;
  debianPackage: string;
}

export const CHROMIUM = process.env.CHROMIUM_PATH || "/usr/bin/chromium";
export const CHROMIUM_TOOL: DebianTool = { command: CHROMIUM, debianPackage: "chromium" };
/** pdftotext, pdftoppm and pdfinfo: the PDFs are checked as a person would read them. */
/** ffmpeg: the e2e scanner test turns a generated label into the fake camera's Y4M video. */
export const FFMPEG_TOOL: DebianTool = { command: "ffmpeg", debianPackage: "ffmpeg" };
export const POPPLER_TOOLS: DebianTool[] = ["pdftotext", "pdftoppm", "pdfinfo"].map((command) => ({ command, debianPackage: "poppler-utils" }));

function found(command: string): boolean {
  try {
    execFileSync("sh", ["-c", 'command -v "$1"', "sh", command], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

/**
 * Installs what is missing with apt (one call, so two installs never fight
 * over dpkg's lock) when running as root, as on CI; otherwise says what to
 * install. A fresh machine runs `npm test` without a manual step.
 */
export function ensureDebianTools(tools: readonly DebianTool[]): void {
  const missing = [...new Set(tools.filter((tool) => !found(tool.command)).map((tool) => tool.debianPackage))];
  if (missing.length === 0) return;
  if (process.getuid?.() !== 0) throw new Error(`The tests need ${missing.join(", ")}: apt-get install -y ${missing.join(" ")}`);
  execSync(`apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq ${missing.join(" ")}`, { stdio: "inherit" });
  const stillMissing = tools.filter((tool) => !found(tool.command)).map((tool) => tool.command);
  if (stillMissing.length) throw new Error(`Still missing after apt-get install: ${stillMissing.join(", ")}`);
}
