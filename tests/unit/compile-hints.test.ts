import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { chunkSources, measureInitialBundle, ON_DEMAND_LIBRARIES, packagesByChunk, type InitialBundle } from "../../scripts/bench/lib/bundle.ts";
import { COMPILE_HINT } from "../../scripts/build/compile-hints.ts";

/**
 * Issue 29: the chunks a courier's screen runs as it opens carry Chromium's
 * compile hint, so their functions compile as they stream in rather than on
 * the main thread at their first call; what loads for one step or on a
 * courier's action does not. A build is deterministic, so this is a test; what it saves is measured
 * in `npm run bench` (docs/benchmarks.md). `npm test` builds dist/ first.
 */
const DIST = path.resolve("dist");
let bundle: InitialBundle;
const assets = () => readdirSync(path.join(DIST, "assets")).filter((file) => file.endsWith(".js"));
const code = (file: string) => readFileSync(path.join(DIST, file.replace(/^\//, "")), "utf8");
const hinted = (file: string) => code(file).startsWith(`${COMPILE_HINT}\n`);
/** The chunks that hold this module (a path from the project's root), by their source maps. */
const chunksWithSource = (source: string) => assets().filter((file) => chunkSources(DIST, file).includes(path.resolve(source)));

beforeAll(() => {
  if (!existsSync(path.join(DIST, "index.html"))) execFileSync("npx", ["vite", "build"], { stdio: "inherit" });
  bundle = measureInitialBundle(DIST);
}, 300_000);

describe("the compile hint (issue 29)", () => {
  it("opens every chunk of the first screen, of each on-demand screen's page, and the offline store's", () => {
    const routes = JSON.parse(readFileSync(path.join(DIST, "route-preloads.json"), "utf8")) as { files: string[] }[];
    const screens = routes.flatMap((route) => route.files).filter((file) => file.endsWith(".js"));
    const offlineStore = chunksWithSource("src/offline/offline-store.ts").map((file) => `assets/${file}`);
    expect(offlineStore).toHaveLength(1);
    const startup = [...bundle.chunks.map((chunk) => chunk.file), ...screens, ...offlineStore];
    expect(startup.length).toBeGreaterThan(8);
    for (const file of startup) expect(hinted(file), file).toBe(true);
  });

  it("is on no chunk loaded for one step or on a courier's action, nor on the dispatch console's own", () => {
    const onDemand = [...packagesByChunk(DIST)]
      .filter(([, packages]) => packages.some((name) => (ON_DEMAND_LIBRARIES as readonly string[]).includes(name)))
      .map(([file]) => file);
    const byAction = [...chunksWithSource("src/ui/scanner/camera-scan.ts"), ...chunksWithSource("src/features/delivery/photo/shrink-photo.ts")].map((file) => `assets/${file}`);
    const consoleChunks = assets().filter((file) => file.startsWith("dispatch-")).map((file) => `assets/${file}`);
    expect(onDemand.length).toBeGreaterThanOrEqual(4);
    expect(byAction).toHaveLength(2);
    expect(consoleChunks.length).toBeGreaterThan(0);
    for (const file of [...onDemand, ...byAction, ...consoleChunks]) expect(hinted(file), file).toBe(false);
  });

  it("leaves the source maps in line: the hint's line maps to nothing, and the map has no line beyond the code's", () => {
    const mapped = bundle.chunks.map((chunk) => chunk.file.replace(/^\//, "")).filter((file) => existsSync(path.join(DIST, `${file}.map`)));
    expect(mapped.length).toBeGreaterThan(2);
    for (const file of mapped) {
      const lines = JSON.parse(readFileSync(path.join(DIST, `${file}.map`), "utf8")).mappings.split(";") as string[];
      expect(lines[0], file).toBe("");
      expect(lines.length, file).toBeLessThanOrEqual(code(file).split("\n").length);
    }
  });
});
