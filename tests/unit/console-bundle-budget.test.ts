import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { kib, measureInitialBundle, type InitialBundle } from "../../scripts/bench/lib/bundle.ts";

/**
 * Issue 27: the dispatch console is a page of its own (dispatch.html) with a
 * first screen of at most 200 KiB of gzipped JavaScript, and none of it is in
 * the courier's service worker: a courier's phone never downloads the
 * console, and the worker never answers /dispatch with the courier's page.
 * `npm test` builds dist/ before Vitest runs; run alone, the test builds it.
 */
const DIST = path.resolve("dist");
const CONSOLE_BUDGET_KIB = 200;
let consoleBundle: InitialBundle;
let courierBundle: InitialBundle;
let serviceWorker: string;

beforeAll(() => {
  if (!existsSync(path.join(DIST, "dispatch.html"))) execFileSync("npx", ["vite", "build"], { stdio: "inherit" });
  consoleBundle = measureInitialBundle(DIST, "dispatch.html");
  courierBundle = measureInitialBundle(DIST);
  serviceWorker = readFileSync(path.join(DIST, "sw.js"), "utf8");
}, 300_000);

const precached = () => [...serviceWorker.matchAll(/url:"([^"]+)"/g)].map((match) => match[1]!);

describe("the dispatch console's first screen", () => {
  it(`is at most ${CONSOLE_BUDGET_KIB} KiB of gzipped JavaScript`, () => {
    const breakdown = consoleBundle.chunks.map((chunk) => `${chunk.file} ${kib(chunk.gzipBytes)} KiB [${chunk.packages.join(", ")}]`).join("\n");
    expect(kib(consoleBundle.jsGzipBytes), `initial chunks:\n${breakdown}`).toBeLessThanOrEqual(CONSOLE_BUDGET_KIB);
    expect(consoleBundle.unmapped).toEqual([]);
    // The map (Leaflet) loads when the board draws it, never with the first screen (decision 0034).
    expect(consoleBundle.chunks.flatMap((chunk) => chunk.packages)).not.toContain("leaflet");
  });

  it("starts from its own entry (src/console/main.tsx), which the courier's page never loads", () => {
    expect(consoleBundle.entry).toMatch(/^\/assets\/dispatch-console-[\w-]+\.js$/);
    expect(consoleBundle.chunks.flatMap((chunk) => chunk.packages)).toContain("react-dom");
    expect(courierBundle.chunks.map((chunk) => `/${chunk.file}`)).not.toContain(consoleBundle.entry);
    expect(readFileSync(path.join(DIST, "index.html"), "utf8")).not.toContain("dispatch-console");
  });

  it("is not the installable courier app: no web app manifest on its page", () => {
    expect(readFileSync(path.join(DIST, "dispatch.html"), "utf8")).not.toMatch(/rel="manifest"/);
  });
});

describe("the courier's service worker and the console", () => {
  it("precaches the courier's page and none of the console's own files", () => {
    const urls = precached();
    expect(urls).toContain("index.html");
    const consoleOwn = readdirSync(path.join(DIST, "assets")).filter((file) => file.startsWith("dispatch-") && /\.(js|css)$/.test(file));
    expect(consoleOwn.length).toBeGreaterThanOrEqual(2);
    for (const file of ["dispatch.html", ...consoleOwn.map((name) => `assets/${name}`)]) expect(urls, file).not.toContain(file);
    // The console's map (Leaflet and its stylesheet), loaded on demand, is one of them.
    expect(consoleOwn.filter((file) => file.startsWith("dispatch-map-")).map((file) => path.extname(file)).sort()).toEqual([".css", ".js"]);
    expect(urls.filter((url) => /map|leaflet/i.test(url))).toEqual([]);
  });

  it("never answers a navigation to /dispatch with the courier's page", () => {
    // workbox: new NavigationRoute(createHandlerBoundToURL("/index.html"), {denylist: [/…/, …]}): the regular expressions as built.
    const denylist = /NavigationRoute\([^)]*createHandlerBoundToURL\("\/index\.html"\),\{denylist:(\[.*?\])\}\)/.exec(serviceWorker)?.[1];
    expect(denylist, "the worker's fallback has a denylist").toBeDefined();
    // Our own build's literal array of regular expressions.
    const patterns = new Function(`return ${denylist!};`)() as RegExp[];
    expect(patterns.length).toBeGreaterThan(1);
    const denied = (pathname: string) => patterns.some((pattern) => pattern.test(pathname));
    for (const pathname of ["/dispatch", "/dispatch/", "/dispatch/login", "/dispatch/orders/12", "/api/ops/v1/events"]) expect(denied(pathname), pathname).toBe(true);
    for (const pathname of ["/login", "/dashboard", "/dispatcher-notes", "/pharmacies/4"]) expect(denied(pathname), pathname).toBe(false);
  });
});
