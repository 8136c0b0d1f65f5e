import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { pageAssets, quietServerResponseMs } from "../../scripts/bench/lib/server-response.ts";

/**
 * The first-screen bench gives Lantern each server's own response time, timed
 * one request at a time while the browser is quiet (decision 0044), and the
 * requests it times are what a screen's page names: read here against a real
 * server that answers after a set delay.
 */

const servers: Server[] = [];

afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
});

/** A server answering every request after `delayMs`, recording how many it served at once and what it was sent. */
async function slowServer(delayMs: number) {
  const seen = { inFlight: 0, mostAtOnce: 0, requests: [] as { url: string; headers: IncomingHttpHeaders }[] };
  const server = createServer((request, response) => {
    seen.inFlight += 1;
    seen.mostAtOnce = Math.max(seen.mostAtOnce, seen.inFlight);
    seen.requests.push({ url: request.url!, headers: request.headers });
    setTimeout(() => {
      seen.inFlight -= 1;
      response.writeHead(request.url === "/missing" ? 404 : 200, { "content-type": "text/plain" }).end("body");
    }, delayMs);
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
}

describe("a server's quiet response time", () => {
  it("is the median time to the response's headers, one request at a time, each request `rounds` times", async () => {
    const { url, seen } = await slowServer(40);
    const ms = await quietServerResponseMs([{ url: `${url}/a.js` }, { url: `${url}/b.js`, headers: { cookie: "rxc_session=x" } }], 3);
    expect(ms).toBeGreaterThanOrEqual(40);
    expect(ms).toBeLessThan(400);
    expect(seen.requests.map((request) => request.url)).toEqual(["/a.js", "/b.js", "/a.js", "/b.js", "/a.js", "/b.js"]);
    expect(seen.mostAtOnce).toBe(1);
    expect(seen.requests[1]!.headers.cookie).toBe("rxc_session=x");
    expect(seen.requests[0]!.headers["accept-encoding"]).toBe("br, gzip");
  });

  it("follows the server: a slower one times longer", async () => {
    const fast = await slowServer(0);
    const slow = await slowServer(60);
    const fastMs = await quietServerResponseMs([{ url: `${fast.url}/page` }]);
    const slowMs = await quietServerResponseMs([{ url: `${slow.url}/page` }]);
    expect(slowMs).toBeGreaterThanOrEqual(60);
    expect(fastMs).toBeLessThan(slowMs);
  });

  it("refuses a request the server does not answer with its file, and an empty list", async () => {
    const { url } = await slowServer(0);
    await expect(quietServerResponseMs([{ url: `${url}/missing` }])).rejects.toThrow("/missing: 404");
    await expect(quietServerResponseMs([])).rejects.toThrow("no request");
  });
});

describe("what a page loads first", () => {
  const page = `<!doctype html><html><head>
    <script type="module" crossorigin src="/assets/index-AbCd1234.js"></script>
    <link rel="modulepreload" crossorigin href="/assets/phone-XyZ98765.js">
    <link rel="modulepreload" crossorigin href="/assets/phone-XyZ98765.js">
    <link rel="stylesheet" href="/assets/PickupRoutes-Ci1BLAha.css">
    <link rel="stylesheet" href="/assets/index-Bess0nhW.css" disabled>
    <link rel="icon" href="/icon.svg" type="image/svg+xml" />
    <script src="https://elsewhere.example/x.js"></script>
  </head><body><script>fetch("/api/sessions/current")</script></body></html>`;

  it("is each script and stylesheet the page names from its own origin, once, as absolute URLs; not a disabled stylesheet", () => {
    expect(pageAssets("http://127.0.0.1:4000/pharmacies/1/verify_orders", page)).toEqual([
      "http://127.0.0.1:4000/assets/index-AbCd1234.js",
      "http://127.0.0.1:4000/assets/phone-XyZ98765.js",
      "http://127.0.0.1:4000/assets/PickupRoutes-Ci1BLAha.css",
    ]);
  });
});
