import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../../server/app.ts";
import { loadConfig } from "../../server/config.ts";
import type { Database } from "../../server/db/client.ts";
import { TEST_DAY } from "../support/api-harness.ts";
import { databaseTargets } from "../support/databases.ts";

const COURIER_PAGE = `<!doctype html>
<html lang="en"><head><title>Rx Courier</title><script type="module" crossorigin src="/assets/index-app.js"></script></head>
<body><div id="root"></div><script>window.early = {};</script></body></html>
`;
const CONSOLE_PAGE = `<!doctype html>
<html lang="en"><head><title>Rx Courier dispatch</title><script type="module" crossorigin src="/assets/dispatch-console-c1.js"></script></head>
<body><div id="root"></div></body></html>
`;

/**
 * Issue 27: the dispatch console is its own page (dispatch.html), served for
 * /dispatch and every path below it with the courier page's security headers;
 * every other path is still the courier's app.
 */
describe("the dispatch console's page under /dispatch", () => {
  let webRoot: string;
  let database: Database;
  let app: FastifyInstance;

  beforeAll(async () => {
    webRoot = mkdtempSync(path.join(tmpdir(), "rxc-console-"));
    mkdirSync(path.join(webRoot, "assets"));
    writeFileSync(path.join(webRoot, "index.html"), COURIER_PAGE);
    writeFileSync(path.join(webRoot, "dispatch.html"), CONSOLE_PAGE);
    writeFileSync(path.join(webRoot, "assets", "dispatch-console-c1.js"), "export {};\n");
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

  it("serves the console's page for /dispatch and below, never cached stale, with the CSP and the other security headers", async () => {
    const courierScript = `'sha256-${createHash("sha256").update("window.early = {};").digest("base64")}'`;
    for (const url of ["/dispatch", "/dispatch/", "/dispatch/login", "/dispatch/orders/12?tab=proof"]) {
      const response = await get(url);
      expect(response.statusCode, url).toBe(200);
      expect(response.headers["content-type"], url).toMatch(/^text\/html/);
      expect(response.body, url).toBe(CONSOLE_PAGE);
      expect(response.headers["cache-control"], url).toBe("no-cache");
      const csp = String(response.headers["content-security-policy"]);
      // The courier page's inline script by its hash; the console's page has none of its own.
      expect(/script-src ([^;]+)/.exec(csp)?.[1]?.split(" "), url).toEqual(["'self'", "'wasm-unsafe-eval'", courierScript]);
      expect(csp, url).toContain("frame-ancestors 'none'");
      expect(csp, url).toContain("default-src 'self'");
      expect(response.headers["x-content-type-options"], url).toBe("nosniff");
      expect(response.headers["strict-transport-security"], url).toContain("max-age=31536000");
      expect(response.headers["referrer-policy"], url).toBe("no-referrer");
    }
  });

  it("leaves every other path to the courier's app, including paths that only start with the word", async () => {
    for (const url of ["/login", "/dashboard", "/dispatcher", "/dispatching/x"]) {
      const response = await get(url);
      expect(response.statusCode, url).toBe(200);
      expect(response.body, url).toBe(COURIER_PAGE);
    }
  });

  it("serves the console's own assets as files, and the API's unknown paths stay JSON 404s", async () => {
    const asset = await app.inject({ method: "GET", url: "/assets/dispatch-console-c1.js" });
    expect(asset.statusCode).toBe(200);
    expect(asset.body).toBe("export {};\n");
    const api = await app.inject({ method: "GET", url: "/api/ops/v1/nowhere", headers: { accept: "application/json" } });
    expect(api.statusCode).not.toBe(200);
    expect(api.headers["content-type"]).toMatch(/json/);
  });
});
