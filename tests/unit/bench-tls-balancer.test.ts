import { readFileSync } from "node:fs";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import { connect, constants } from "node:http2";
import type { AddressInfo } from "node:net";
import { connect as tlsConnect } from "node:tls";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeBenchCertificate, startTlsBalancer, type BenchCertificate, type TlsBalancer } from "../../scripts/bench/lib/tls-balancer.ts";

/**
 * The first-screen bench loads each page through a stand-in for production's balancer (decision 0046):
 * TLS and HTTP/2 to the browser, HTTP/1.1 to the server behind it. Read here with a real HTTP/2 client
 * that trusts the run's certificate and nothing else.
 */

let upstream: Server;
let seen: { url: string; headers: IncomingHttpHeaders }[];
let certificate: BenchCertificate;
let balancer: TlsBalancer;

beforeAll(async () => {
  seen = [];
  upstream = createServer((request, response) => {
    seen.push({ url: request.url!, headers: request.headers });
    if (request.url === "/gone") return void response.writeHead(404, { "content-type": "text/plain" }).end("not here");
    response.writeHead(200, { "content-type": "text/javascript", "cache-control": "public, max-age=31536000, immutable", connection: "keep-alive" }).end("export {};");
  });
  await new Promise<void>((resolve) => upstream.listen(0, "127.0.0.1", resolve));
  certificate = makeBenchCertificate();
  // At the default priority: a test shares the host's cores with other tests, where the idle policy could starve it.
  balancer = await startTlsBalancer((upstream.address() as AddressInfo).port, certificate, { belowBrowser: false });
}, 30_000);

afterAll(async () => {
  await balancer?.stop();
  certificate?.remove();
  await new Promise((resolve) => upstream.close(resolve));
});

async function get(path: string, headers: Record<string, string> = {}) {
  const session = connect(balancer.url, { ca: readFileSync(certificate.certFile) });
  try {
    return await new Promise<{ status: number; headers: Record<string, unknown>; body: string; protocol: string | undefined }>((resolve, reject) => {
      const stream = session.request({ [constants.HTTP2_HEADER_PATH]: path, ...headers });
      let body = "";
      let responseHeaders: Record<string, unknown> = {};
      stream.on("response", (received) => (responseHeaders = received));
      stream.setEncoding("utf8");
      stream.on("data", (chunk: string) => (body += chunk));
      stream.on("end", () => resolve({ status: Number(responseHeaders[":status"]), headers: responseHeaders, body, protocol: session.alpnProtocol }));
      stream.on("error", reject);
    });
  } finally {
    session.close();
  }
}

describe("the bench's TLS balancer", () => {
  it("answers over TLS with HTTP/2, with the server's status, headers and body", async () => {
    const answer = await get("/assets/index.js", { cookie: "rxc_session=abc" });
    expect(answer.protocol).toBe("h2");
    expect(answer.status).toBe(200);
    expect(answer.body).toBe("export {};");
    expect(answer.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    // HTTP/2 has no connection-specific headers: the balancer drops them.
    expect(answer.headers.connection).toBeUndefined();
    expect(seen.at(-1)).toMatchObject({ url: "/assets/index.js", headers: { cookie: "rxc_session=abc" } });
  });

  it("passes the server's error statuses through", async () => {
    const answer = await get("/gone");
    expect(answer.status).toBe(404);
    expect(answer.body).toBe("not here");
  });

  it("speaks HTTP/2 only: a client that offers HTTP/1.1 alone is refused in the handshake", async () => {
    const handshake = new Promise<string>((resolve, reject) => {
      const socket = tlsConnect({ host: "127.0.0.1", port: Number(new URL(balancer.url).port), ca: readFileSync(certificate.certFile), ALPNProtocols: ["http/1.1"] }, () => {
        socket.end();
        reject(new Error(`accepted ${socket.alpnProtocol}`));
      });
      socket.on("error", (error) => resolve(error.message));
    });
    expect(await handshake).toMatch(/alpn|protocol/i);
  });

  it("trusts the run's certificate by its key alone, in the form Chromium's flag takes", () => {
    expect(certificate.browserArg).toMatch(/^--ignore-certificate-errors-spki-list=[A-Za-z0-9+/]{43}=$/);
  });
});
