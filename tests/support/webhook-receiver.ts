import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A real HTTP endpoint on 127.0.0.1 for webhook tests: records every request
 * (headers and the exact body) per path, and answers each path from a script
 * of status codes (the last one repeats; 200 when there is none). A status of
 * 0 holds the request open without answering.
 */

export interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  at: number;
}

export interface Receiver {
  url(path: string): string;
  received: Received[];
  on(path: string): Received[];
  script(path: string, statuses: number[]): void;
  /** Resolves once `count` requests reached the path (or rejects after `timeoutMs`). */
  waitFor(path: string, count: number, timeoutMs?: number): Promise<Received[]>;
  close(): Promise<void>;
}

export async function startReceiver(): Promise<Receiver> {
  const received: Received[] = [];
  const scripts = new Map<string, number[]>();
  const held = new Set<ServerResponse>();
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const path = request.url ?? "/";
      received.push({ path, headers: request.headers, body: Buffer.concat(chunks).toString("utf8"), at: Date.now() });
      const script = scripts.get(path) ?? [];
      const status = script.length > 1 ? script.shift()! : (script[0] ?? 200);
      if (status === 0) {
        held.add(response);
        return;
      }
      response.writeHead(status, { "content-type": "text/plain" }).end(status < 300 ? "ok" : "no");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  const on = (path: string) => received.filter((entry) => entry.path === path);
  return {
    url: (path) => `http://127.0.0.1:${port}${path}`,
    received,
    on,
    script: (path, statuses) => scripts.set(path, [...statuses]),
    async waitFor(path, count, timeoutMs = 20_000) {
      const deadline = Date.now() + timeoutMs;
      while (on(path).length < count) {
        if (Date.now() > deadline) throw new Error(`${path}: ${on(path).length} of ${count} requests after ${timeoutMs} ms`);
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      return on(path);
    },
    async close() {
      for (const response of held) response.destroy();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
