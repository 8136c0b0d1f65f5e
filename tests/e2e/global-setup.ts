import { execSync } from "node:child_process";
import { existsSync } from "node:fs";

export const CHROMIUM = process.env.CHROMIUM_PATH || "/usr/bin/chromium";

/** The e2e tests drive Debian's Chromium; install it when missing and we may. */
export default function setup(): void {
  if (!existsSync(CHROMIUM)) {
    if (process.getuid?.() !== 0) throw new Error(`${CHROMIUM} is missing: apt-get install -y chromium`);
    execSync("apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium", { stdio: "inherit" });
  }
  if (!existsSync("dist/index.html")) execSync("npx vite build", { stdio: "inherit" });
}
