import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { ROOT } from "./report.ts";

let built: string | null = null;

/**
 * The production build of the web app, made once per benchmark run in a
 * folder of its own (the server serves it with WEB_ROOT): dist/ is shared
 * with whoever else builds or tests in this tree, and may be rebuilt mid-run.
 */
export function productionBuild(log: (line: string) => void = console.log): string {
  if (built) return built;
  const outDir = path.join(mkdtempSync(path.join(tmpdir(), "rxc-bench-web-")), "dist");
  log("  building the web app (vite build)…");
  execFileSync("npx", ["vite", "build", "--logLevel", "warn", "--outDir", outDir, "--emptyOutDir"], { cwd: ROOT, stdio: "inherit" });
  built = outDir;
  process.once("exit", () => rmSync(path.dirname(outDir), { recursive: true, force: true }));
  return outDir;
}
