declare global {
  interface Window {
    /** Started by the inline script in index.html before the app's JavaScript arrived, keyed by API path. */
    rxcEarlyRequests?: Record<string, Promise<Response> | undefined>;
  }
}

const API_PREFIX = "/api/";

/** The early request's key for a call (its API path), or undefined when the page never asks for such a call early. */
export function earlyKey(request: Request): string | undefined {
  if (request.method !== "GET") return undefined;
  const url = new URL(request.url);
  if (url.origin !== window.location.origin || url.search || !url.pathname.startsWith(API_PREFIX)) return undefined;
  return url.pathname.slice(API_PREFIX.length);
}

/**
 * The GET the page already asked for while the app was still downloading,
 * taken once (a later call asks the server afresh); undefined when there was none.
 */
export function takeEarlyRequest(key: string): Promise<Response> | undefined {
  const early = window.rxcEarlyRequests;
  const pending = early?.[key];
  if (!early || !pending) return undefined;
  delete early[key];
  return pending;
}

/** Hands a taken request back, for the HTTP client to take in its turn (src/api/ky-client.ts). */
export function putBackEarlyRequest(key: string, pending: Promise<Response>): void {
  if (window.rxcEarlyRequests) window.rxcEarlyRequests[key] = pending;
}
