import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../../server/app.ts";
import { loadConfig } from "../../server/config.ts";
import type { Database } from "../../server/db/client.ts";
import { TEST_DAY } from "../support/api-harness.ts";
import { databaseTargets } from "../support/databases.ts";

const PAGE = `<!doctype html>
<html lang="en">
  <head>
    <title>Rx Courier</title>
    <script type="module" crossorigin src="/assets/index-app.js"></script>
  </head>
  <body><div id="root"></div><script>window.early = {};</script></body>
</html>
`;

const PRELOADS = [
  { paths: ["/pharmacies/:pharmacyId/deliver_orders/*"], files: ["/assets/DeliveryRoutes-d1.js", "/assets/esm-imask.js", "/assets/DeliveryRoutes-d1.css"] },
  // A stylesheet the server cannot read (not built), and one that could close its <style> element: preloaded instead.
  { paths: ["/pharmacies/:pharmacyId/reconcile", "/pharmacies/:pharmacyId/reconcile_details/:kind"], files: ["/assets/ReturnsRoute-r1.js", "/assets/missing.css", "/assets/closing.css"] },
  // Only root-relative /assets/*.js and *.css URLs are ever written into the page.
  { paths: ["/pharmacies/:pharmacyId/*"], files: ["/assets/PickupRoutes-p1.js", '/assets/x.js"><script>alert(1)</script>', "https://cdn.example/x.js", "/assets/x.css?<b>", "/icon.svg"] },
  { paths: ["/machines"], files: ["/assets/MachinesRoute-m1.js"] },
];

const links = (html: string) => [...html.matchAll(/<link rel="modulepreload" crossorigin href="([^"]+)">/g)].map((match) => match[1]);
// A stylesheet is inline, with a disabled link to its file (never fetched; Vite's import() then sees it loaded); preloaded when it cannot be inline.
const DELIVERY_CSS = ".delivery-row{align-items:flex-start}";
const inlined = (html: string) => [...html.matchAll(/<style>([^<]*)<\/style>\s*<link rel="stylesheet" href="([^"]+)" disabled>/g)].map((match) => [match[2], match[1]]);
const styles = (html: string) => [...html.matchAll(/<link rel="preload" as="style" crossorigin href="([^"]+)">/g)].map((match) => match[1]);

describe("the web app's page: its on-demand screens' chunks named in it (issue 9)", () => {
  let webRoot: string;
  let database: Database;
  let app: FastifyInstance;

  beforeAll(async () => {
    webRoot = mkdtempSync(path.join(tmpdir(), "rxc-web-"));
    mkdirSync(path.join(webRoot, "assets"));
    writeFileSync(path.join(webRoot, "index.html"), PAGE);
    writeFileSync(path.join(webRoot, "assets", "index-app.js"), "export {};\n");
    writeFileSync(path.join(webRoot, "assets", "DeliveryRoutes-d1.css"), `${DELIVERY_CSS}\n`);
    writeFileSync(path.join(webRoot, "assets", "closing.css"), ".x{content:'</style><script>alert(1)</script>'}\n");
    writeFileSync(path.join(webRoot, "route-preloads.json"), JSON.stringify(PRELOADS));
    database = await databaseTargets()[0]!.openDemoDay();
    app = await buildApp({ config: { ...loadConfig({}), webRoot }, database, today: () => TEST_DAY, logger: false });
    await app.ready();
  });
  afterAll(async () => {
    await app?.close();
    await database?.close();
    rmSync(webRoot, { recursive: true, force: true });
  });

  const get = (url: string) => app.inject({ method: "GET", url, headers: { accept: "text/html" } });

  it("allows the page's own inline script by its hash, and no other inline script", async () => {
    const hash = createHash("sha256").update("window.early = {};").digest("base64");
    for (const url of ["/login", "/pharmacies/4/deliver_orders/12/address", "/api/health"]) {
      const csp = String((await get(url)).headers["content-security-policy"]);
      // 'wasm-unsafe-eval' compiles WebAssembly only (the label scanner's decoder): no JavaScript eval, no inline script.
      expect(/script-src ([^;]+)/.exec(csp)?.[1]?.split(" ")).toEqual(["'self'", "'wasm-unsafe-eval'", `'sha256-${hash}'`]);
    }
  });

  it("a delivery step's page preloads the delivery chunks and carries their stylesheet, before </head>, and is never cached stale", async () => {
    const response = await get("/pharmacies/4/deliver_orders/12/address");
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toBe("text/html; charset=utf-8");
    expect(response.headers["cache-control"]).toBe("no-cache");
    expect(String(response.headers["content-security-policy"])).toContain("script-src 'self'");
    expect(links(response.body)).toEqual(["/assets/DeliveryRoutes-d1.js", "/assets/esm-imask.js"]);
    expect(inlined(response.body)).toEqual([["/assets/DeliveryRoutes-d1.css", DELIVERY_CSS]]);
    expect(styles(response.body)).toEqual([]);
    expect(response.body.lastIndexOf("<link")).toBeLessThan(response.body.indexOf("</head>"));
    // No stylesheet to fetch before the splash paints: the page alone.
    expect(response.body).not.toMatch(/<link rel="stylesheet"(?![^>]*disabled)/);
    expect(response.body.replace(/\s*<link rel="modulepreload"[^>]*>/g, "").replace(/\s*<style>[^<]*<\/style>\s*<link rel="stylesheet"[^>]*disabled>/g, "")).toBe(
      PAGE.replace(/\s*<\/head>/, "\n  </head>"),
    );
  });

  it("matches the router's patterns: a splat takes nothing or the rest, a parameter one segment, the first pattern wins", async () => {
    expect(links((await get("/pharmacies/4/deliver_orders")).body)).toEqual(["/assets/DeliveryRoutes-d1.js", "/assets/esm-imask.js"]);
    expect(links((await get("/pharmacies/4/deliver_orders/12/signature?resume=1")).body)).toEqual(["/assets/DeliveryRoutes-d1.js", "/assets/esm-imask.js"]);
    expect(links((await get("/pharmacies/4/reconcile")).body)).toEqual(["/assets/ReturnsRoute-r1.js"]);
    expect(styles((await get("/pharmacies/4/reconcile")).body)).toEqual(["/assets/missing.css", "/assets/closing.css"]);
    expect(inlined((await get("/pharmacies/4/reconcile")).body)).toEqual([]);
    expect((await get("/pharmacies/4/reconcile")).body).not.toContain("alert(1)");
    expect(links((await get("/pharmacies/4/reconcile_details/cash")).body)).toEqual(["/assets/ReturnsRoute-r1.js"]);
    expect(links((await get("/pharmacies/4/verify_orders")).body)).toEqual(["/assets/PickupRoutes-p1.js"]);
    expect(styles((await get("/pharmacies/4/verify_orders")).body)).toEqual([]);
    expect(links((await get("/machines")).body)).toEqual(["/assets/MachinesRoute-m1.js"]);
    expect(links((await get("/machinesX")).body)).toEqual([]);
  });

  it("sends that page compressed to a browser that takes it, the same page", async () => {
    const plain = (await get("/pharmacies/4/deliver_orders/12/address")).body;
    const headers = (encoding: string) => ({ accept: "text/html", "accept-encoding": encoding });
    const br = await app.inject({ method: "GET", url: "/pharmacies/4/deliver_orders/12/address", headers: headers("gzip, deflate, br") });
    expect(br.headers["content-encoding"]).toBe("br");
    expect(br.headers.vary).toContain("Accept-Encoding");
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(plain);
    const gzip = await app.inject({ method: "GET", url: "/pharmacies/4/deliver_orders/12/address", headers: headers("gzip") });
    expect(gzip.headers["content-encoding"]).toBe("gzip");
    expect(gunzipSync(gzip.rawPayload).toString()).toBe(plain);
  });

  it("screens in the app's own chunks get the page as built", async () => {
    for (const url of ["/login", "/dashboard", "/pharmacies", "/"]) {
      const response = await get(url);
      expect(response.statusCode, url).toBe(200);
      expect(response.body, url).toBe(PAGE);
    }
  });

  it("leaves the API's unknown paths a JSON 404", async () => {
    const response = await app.inject({ method: "GET", url: "/api/nothing-here" });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toMatchObject({ error: "not_found" });
  });
});
