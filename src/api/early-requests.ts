import { TimeoutError } from "ky";

declare global {
  interface Window {
    /** Started by the inline script in index.html before the app's JavaScript arrived, keyed by API path. */
    rxcEarlyRequests?: Record<string, Promise<Response> | undefined>;
  }
}

const API_PREFIX = "/api/";

/**
 * The answer to a GET the page already asked for while the app was still
 * downloading, taken once (a later call asks the server afresh). Undefined
 * when there was none, or when that early request failed for a reason other
 * than time: then the call is simply made now.
 */
export async function takeEarlyResponse(request: Request): Promise<Response | undefined> {
  const early = window.rxcEarlyRequests;
  if (!early || request.method !== "GET") return undefined;
  const url = new URL(request.url);
  if (url.origin !== window.location.origin || url.search || !url.pathname.startsWith(API_PREFIX)) return undefined;
  const key = url.pathname.slice(API_PREFIX.length);
  const pending = early[key];
  if (!pending) return undefined;
  delete early[key];
  try {
    return await pending;
  } catch (error) {
    // Already waited the whole time-out once: answer as a timed-out call would, not wait a second time.
    if (error instanceof DOMException && error.name === "TimeoutError") throw new TimeoutError(request);
    return undefined;
  }
}
