import { median, round } from "./machine.ts";

export interface TimedRequest {
  url: string;
  headers?: Record<string, string>;
}

/** How many times each request is timed. */
export const QUIET_TIMING_ROUNDS = 5;

/**
 * How long a server takes to answer, measured while nothing else runs: each
 * URL requested in turn (never two at once), `rounds` times, from the request
 * sent to its response's headers; the median over all of them, in ms.
 *
 * Lantern (Lighthouse's simulation) gives every request of an origin one
 * server response time, the median of what it observed in the load. The
 * bench's servers run on the phone's host below the browser (decision 0042),
 * so during a load they answer only when the browser leaves a core free: what
 * Lantern observed there was the browser's own burst, longer the more
 * requests a page makes at once (decision 0044). A server across the network
 * answers in its own time; this is that time, for precomputedLanternData.
 */
export async function quietServerResponseMs(requests: readonly TimedRequest[], rounds = QUIET_TIMING_ROUNDS): Promise<number> {
  if (requests.length === 0) throw new Error("quietServerResponseMs: no request to time");
  const samples: number[] = [];
  for (let pass = 0; pass < rounds; pass++) {
    for (const { url, headers } of requests) {
      const started = performance.now();
      const response = await fetch(url, { headers: { "accept-encoding": "br, gzip", ...headers } });
      samples.push(performance.now() - started);
      if (!response.ok) throw new Error(`${url}: ${response.status}`);
      await response.arrayBuffer();
    }
  }
  return round(median(samples), 1);
}

/** The scripts and stylesheets a page loads from its own origin (a disabled stylesheet is not loaded), as absolute URLs. */
export function pageAssets(pageUrl: string, html: string): string[] {
  const assets = [...html.matchAll(/<(?:script|link)\b[^>]*>/g)]
    .map(([tag]) => (/\sdisabled\b/.test(tag) ? undefined : /\s(?:src|href)="(\/[^"]+\.(?:js|css))"/.exec(tag)?.[1]))
    .filter((asset): asset is string => asset !== undefined)
    .map((asset) => new URL(asset, pageUrl).href);
  return [...new Set(assets)];
}
