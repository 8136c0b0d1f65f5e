import ky, { TimeoutError, type KyInstance } from "ky";
import { API_MEDIA_TYPE } from "../../domain/api-version.ts";

export { toFailure } from "./failure.ts";

/**
 * ky and the app's client on it, loaded on first use (src/api/client.ts): the
 * first screen's own calls are answered from the page's early requests
 * without it. What it shares with the first screen's code (the CSRF token,
 * the early requests) is handed in, so nothing of the first screen is split
 * into chunks of its own for it.
 */

/** A request that gets no answer in this long is treated as "no internet" (spec §8). */
export const REQUEST_TIMEOUT_MS = 20_000;

const MUTATING = new Set(["POST", "PUT", "PATCH", "DELETE"]);

export interface ClientState {
  /** The session's CSRF token: every mutating call sends it. */
  csrfToken: () => string | null;
  /** The early request (index.html) for this call, taken once; undefined when there is none. */
  takeEarlyRequest: (request: Request) => Promise<Response> | undefined;
}

export function createHttp(state: ClientState): KyInstance {
  return ky.create({
    prefixUrl: "/api",
    credentials: "same-origin",
    timeout: REQUEST_TIMEOUT_MS,
    // Mutations are retried by the offline queue with their Idempotency-Key, never blindly here.
    retry: { limit: 1, methods: ["get"] },
    headers: { Accept: API_MEDIA_TYPE },
    hooks: {
      beforeRequest: [
        // The session and the day may already be on their way (index.html): use that answer, not a second request.
        (request) => earlyResponse(request, state.takeEarlyRequest(request)),
        (request) => {
          const token = state.csrfToken();
          if (MUTATING.has(request.method) && token) request.headers.set("X-CSRF-Token", token);
        },
      ],
    },
  });
}

/**
 * The early request's answer. Undefined when there was none, or when it failed
 * for a reason other than time: then the call is simply made now.
 */
async function earlyResponse(request: Request, pending: Promise<Response> | undefined): Promise<Response | undefined> {
  if (!pending) return undefined;
  try {
    return await pending;
  } catch (error) {
    // Already waited the whole time-out once: answer as a timed-out call would, not wait a second time.
    if (error instanceof DOMException && error.name === "TimeoutError") throw new TimeoutError(request);
    return undefined;
  }
}
