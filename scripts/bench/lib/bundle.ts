import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";

/**
 * The JavaScript a first visit downloads before the app can render: the
 * entry script of dist/index.html, its modulepreload links, and every chunk
 * those import statically (dynamic import() chunks are loaded when needed
 * and do not count). Sizes are gzip at level 9, deterministic for a build.
 * Shared by the budget test (tests/unit/bundle-budget.test.ts) and the
 * benchmark (scripts/bench/first-screen.ts).
 */

/** Initial JavaScript budget for the login screen and /pharmacies (issue 9), in KiB of gzip (1 KiB = 1024 bytes). */
export const INITIAL_JS_BUDGET_KIB = 130;

/** Libraries only some screens need: never in the first download. */
export const ON_DEMAND_LIBRARIES = ["braintree-web", "signature_pad", "imask", "zxing-wasm"] as const;

export interface Chunk {
  file: string;
  bytes: number;
  gzipBytes: number;
  /** node_modules packages whose sources the chunk's source map names. */
  packages: string[];
  /** false when the chunk has no source map (its packages are unknown). */
  mapped: boolean;
}

export interface InitialBundle {
  entry: string;
  chunks: Chunk[];
  jsBytes: number;
  jsGzipBytes: number;
  cssGzipBytes: number;
  /** Every on-demand library found in an initial chunk, with the chunk. */
  onDemandInInitial: { library: string; file: string }[];
  /** Initial chunks over 2 KB without a source map: their contents cannot be checked. */
  unmapped: string[];
}

const ATTRIBUTE = (tag: string, name: string) => new RegExp(`\\b${name}\\s*=\\s*["']([^"']+)["']`, "i").exec(tag)?.[1];

/** Static import/export-from specifiers of an ES module chunk (not dynamic import()). */
export function staticImports(code: string): string[] {
  const found = new Set<string>();
  for (const match of code.matchAll(/(?:^|[;\n}])\s*(?:import|export)\s*(?:[\w$*{}\s,]*?\s*from\s*)?["']([^"']+)["']/g)) found.add(match[1]!);
  return [...found];
}

function packagesOf(mapFile: string): string[] | null {
  if (!existsSync(mapFile)) return null;
  const map = JSON.parse(readFileSync(mapFile, "utf8")) as { sources?: string[] };
  const packages = new Set<string>();
  for (const source of map.sources ?? []) {
    const match = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(source.split("node_modules/").length > 1 ? source.slice(source.lastIndexOf("node_modules/")) : "");
    if (match) packages.add(match[1]!);
  }
  return [...packages].sort();
}

/** page: the HTML file whose first screen is measured (the courier's index.html, or the dispatch console's dispatch.html). */
export function measureInitialBundle(distDir: string, page = "index.html"): InitialBundle {
  const indexFile = path.join(distDir, page);
  if (!existsSync(indexFile)) throw new Error(`${indexFile} is missing: build the app first (npx vite build).`);
  const html = readFileSync(indexFile, "utf8");

  const roots: string[] = [];
  const styles: string[] = [];
  let entry = "";
  for (const [tag] of html.matchAll(/<(?:script|link)\b[^>]*>/gi)) {
    const isScript = /^<script/i.test(tag);
    const rel = ATTRIBUTE(tag, "rel");
    const url = isScript ? ATTRIBUTE(tag, "src") : ATTRIBUTE(tag, "href");
    if (!url || /^https?:/i.test(url)) continue;
    if (isScript && ATTRIBUTE(tag, "type") === "module") {
      entry ||= url;
      roots.push(url);
    } else if (!isScript && rel === "modulepreload") {
      roots.push(url);
    } else if (!isScript && rel === "stylesheet" && !/\sdisabled(?=[\s=/>])/i.test(tag)) {
      // A disabled link (the page's own stylesheet, inlined: vite.config.ts) is never fetched.
      styles.push(url);
    }
  }
  if (!entry) throw new Error(`${indexFile} has no module entry script.`);

  const toFile = (url: string) => path.join(distDir, url.replace(/^\//, ""));
  const seen = new Set<string>();
  const queue = roots.map(toFile);
  const chunks: Chunk[] = [];
  while (queue.length) {
    // Absolute, so a chunk named by index.html (relative to distDir) and by an import (resolved) is one chunk.
    const file = path.resolve(queue.shift()!);
    if (seen.has(file)) continue;
    seen.add(file);
    if (!existsSync(file)) throw new Error(`${path.relative(distDir, file)} is referenced by the first screen but missing from ${distDir}.`);
    const code = readFileSync(file);
    const packages = packagesOf(`${file}.map`);
    chunks.push({
      file: path.relative(distDir, file),
      bytes: code.length,
      gzipBytes: gzipSync(code, { level: 9 }).length,
      packages: packages ?? [],
      mapped: packages !== null,
    });
    for (const specifier of staticImports(code.toString("utf8"))) {
      if (specifier.startsWith(".")) queue.push(path.resolve(path.dirname(file), specifier));
      else if (specifier.startsWith("/")) queue.push(toFile(specifier));
    }
  }

  const onDemandInInitial = chunks.flatMap((chunk) =>
    ON_DEMAND_LIBRARIES.filter((library) => chunk.packages.includes(library) || path.basename(chunk.file).startsWith(`${library}-`)).map((library) => ({
      library,
      file: chunk.file,
    })),
  );
  return {
    entry,
    chunks,
    jsBytes: chunks.reduce((sum, chunk) => sum + chunk.bytes, 0),
    jsGzipBytes: chunks.reduce((sum, chunk) => sum + chunk.gzipBytes, 0),
    cssGzipBytes: styles.reduce((sum, url) => sum + gzipSync(readFileSync(toFile(url)), { level: 9 }).length, 0),
    onDemandInInitial,
    unmapped: chunks.filter((chunk) => !chunk.mapped && chunk.bytes > 2048).map((chunk) => chunk.file),
  };
}

/** node_modules packages per chunk of the whole build (lazy chunks included), from the source maps. */
export function packagesByChunk(distDir: string): Map<string, string[]> {
  const assets = path.join(distDir, "assets");
  const result = new Map<string, string[]>();
  for (const file of readdirSync(assets)) {
    if (file.endsWith(".js")) result.set(`assets/${file}`, packagesOf(path.join(assets, `${file}.map`)) ?? []);
  }
  return result;
}

/** The modules a chunk of dist/assets holds (absolute paths), from its source map; none without one. */
export function chunkSources(distDir: string, file: string): string[] {
  const map = path.join(distDir, "assets", `${file}.map`);
  if (!existsSync(map)) return [];
  return (JSON.parse(readFileSync(map, "utf8")) as { sources: string[] }).sources.map((source) => path.resolve(distDir, "assets", source));
}

export const kib = (bytes: number): number => Math.round((bytes / 1024) * 10) / 10;
