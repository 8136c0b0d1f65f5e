import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../../server/app.ts";
import { ConfigError, loadConfig } from "../../server/config.ts";
import type { Database } from "../../server/db/client.ts";
import { TEST_DAY } from "../support/api-harness.ts";
import { databaseTargets } from "../support/databases.ts";

const COURIER_PAGE = `<!doctype html>
<html lang="en"><head><title>Rx Courier</title></head><body><div id="root"></div></body></html>
`;
const CONSOLE_PAGE = `<!doctype html>
<html lang="en"><head><title>Rx Courier dispatch</title><script type="module" crossorigin src="/assets/dispatch-console-c1.js"></script></head>
<body><div id="root"></div></body></html>
`;

const imgSrc = (csp: unknown) => /img-src ([^;]+)/.exec(String(csp))?.[1]?.trim().split(/\s+/);

/**
 * Issue 27 / decision 0034: the console's map draws without tiles unless
 * MAP_TILE_URL names a tile server; then the console's page names it and its
 * CSP img-src (the console's only) allows the server's origin.
 */
describe("the console's map tiles (MAP_TILE_URL)", () => {
  let webRoot: string;
  let database: Database;
  const apps: FastifyInstance[] = [];

  beforeAll(async () => {
    webRoot = mkdtempSync(path.join(tmpdir(), "rxc-tiles-"));
    mkdirSync(path.join(webRoot, "assets"));
    writeFileSync(path.join(webRoot, "index.html"), COURIER_PAGE);
    writeFileSync(path.join(webRoot, "dispatch.html"), CONSOLE_PAGE);
    database = await databaseTargets()[0]!.openDemoDay();
  });
  afterAll(async () => {
    for (const app of apps) await app.close();
    await database?.close();
    rmSync(webRoot, { recursive: true, force: true });
  });

  async function appWith(env: Record<string, string>) {
    const app = await buildApp({ config: { ...loadConfig(env), webRoot }, database, today: () => TEST_DAY, logger: false });
    await app.ready();
    apps.push(app);
    return app;
  }
  const page = (app: FastifyInstance, url: string) => app.inject({ method: "GET", url, headers: { accept: "text/html" } });

  it("by default names no tile server and lets images come from our origin only", async () => {
    const app = await appWith({});
    for (const url of ["/dispatch", "/dispatch/couriers", "/login"]) {
      const response = await page(app, url);
      expect(response.statusCode, url).toBe(200);
      expect(response.body, url).not.toContain("rxc-map-tiles");
      expect(imgSrc(response.headers["content-security-policy"]), url).toEqual(["'self'", "data:", "blob:"]);
    }
  });

  it("with MAP_TILE_URL, names it in the console's page and allows its origin in the console's img-src, not the courier's", async () => {
    const app = await appWith({ MAP_TILE_URL: "https://tiles.example.org/osm/{z}/{x}/{y}.png", MAP_TILE_ATTRIBUTION: '© OpenStreetMap "contributors"' });
    for (const url of ["/dispatch", "/dispatch/", "/dispatch/plan?x=1"]) {
      const response = await page(app, url);
      expect(response.statusCode, url).toBe(200);
      expect(response.headers["content-type"], url).toMatch(/^text\/html/);
      expect(response.headers["cache-control"], url).toBe("no-cache");
      expect(response.body, url).toContain('<meta name="rxc-map-tiles" content="https://tiles.example.org/osm/{z}/{x}/{y}.png">');
      expect(response.body, url).toContain('<meta name="rxc-map-attribution" content="© OpenStreetMap &quot;contributors&quot;">');
      expect(imgSrc(response.headers["content-security-policy"]), url).toEqual(["'self'", "data:", "blob:", "https://tiles.example.org"]);
    }
    for (const url of ["/login", "/dispatcher", "/api/health"]) {
      const response = await page(app, url);
      expect(imgSrc(response.headers["content-security-policy"]), url).toEqual(["'self'", "data:", "blob:"]);
      expect(response.body, url).not.toContain("rxc-map-tiles");
    }
  });

  it("allows every subdomain of a {s} template, and refuses to start with a template that is not one", async () => {
    const app = await appWith({ MAP_TILE_URL: "https://{s}.tile.example.org/{z}/{x}/{y}.png" });
    expect(imgSrc((await page(app, "/dispatch")).headers["content-security-policy"])).toContain("https://*.tile.example.org");
    expect(() => loadConfig({ MAP_TILE_URL: "https://tiles.example.org/tile.png" })).toThrow(ConfigError);
    expect(() => loadConfig({ MAP_TILE_URL: "https://tiles.example.org/tile.png" })).toThrow("MAP_TILE_URL must be a tile URL template with {z}, {x} and {y}");
    expect(() => loadConfig({ MAP_TILE_URL: "ftp://tiles.example.org/{z}/{x}/{y}.png" })).toThrow("MAP_TILE_URL must be an http(s) URL template");
  });
});
