import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { brotliCompressSync, constants as zlib, gzipSync } from "node:zlib";
import react from "@vitejs/plugin-react";
import { build } from "vite";
import { belowBrowserCommand, freePort, stopChildProcess } from "./server.ts";
import { ROOT } from "./report.ts";

/**
 * The bare reference page of issue 29 (scripts/bench/bare-page/: index.html
 * and one module), built by Vite with the default React plugin from the
 * project's own node_modules and compressed as the app's build is (brotli 11,
 * gzip 9). Never tuned: the first-screen budgets are held against it.
 */
export const BARE_PAGE_SOURCE = path.join(ROOT, "scripts/bench/bare-page");

let built: string | null = null;

export async function buildBarePage(log: (line: string) => void = console.log): Promise<string> {
  if (built) return built;
  const outDir = path.join(mkdtempSync(path.join(tmpdir(), "rxc-bench-bare-")), "dist");
  log("  building the bare page (vite build)…");
  await build({
    configFile: false,
    root: BARE_PAGE_SOURCE,
    logLevel: "warn",
    plugins: [react()],
    build: { outDir, emptyOutDir: true },
  });
  const walk = (dir: string): string[] =>
    readdirSync(dir).flatMap((name) => (statSync(path.join(dir, name)).isDirectory() ? walk(path.join(dir, name)) : [path.join(dir, name)]));
  for (const file of walk(outDir).filter((name) => /\.(js|css|html)$/.test(name))) {
    const content = readFileSync(file);
    if (content.length < 1024) continue;
    writeFileSync(`${file}.br`, brotliCompressSync(content, { params: { [zlib.BROTLI_PARAM_QUALITY]: 11 } }));
    writeFileSync(`${file}.gz`, gzipSync(content, { level: 9 }));
  }
  built = outDir;
  process.once("exit", () => rmSync(path.dirname(outDir), { recursive: true, force: true }));
  return outDir;
}

/** The built bare page's JavaScript, gzip level 9 (as the app's first screen is counted). */
export function barePageJsGzipBytes(webRoot: string): number {
  const assets = path.join(webRoot, "assets");
  return readdirSync(assets)
    .filter((name) => name.endsWith(".js"))
    .reduce((sum, name) => sum + gzipSync(readFileSync(path.join(assets, name)), { level: 9 }).length, 0);
}

export interface BarePageServer {
  url: string;
  port: number;
  stop(): Promise<void>;
}

/** scripts/bench/bare-page/serve.ts in a process of its own, below the browser's priority, as the app's server is in this bench. */
export async function serveBarePage(webRoot: string): Promise<BarePageServer> {
  const port = await freePort();
  const child: ChildProcess = spawn(...belowBrowserCommand(["--import", "tsx", path.join(BARE_PAGE_SOURCE, "serve.ts")]), {
    cwd: ROOT,
    env: { ...process.env, PORT: String(port), WEB_ROOT: webRoot },
    stdio: ["ignore", "ignore", "inherit", "ipc"],
  });
  await new Promise<void>((resolve, reject) => {
    child.once("message", () => resolve());
    child.once("exit", (code) => reject(new Error(`the bare page's server exited with ${code}`)));
  });
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    stop: () => stopChildProcess(child),
  };
}
