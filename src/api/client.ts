import ky, { type KyInstance } from "ky";
import { API_MEDIA_TYPE } from "../../domain/api-version.ts";
import { takeEarlyResponse } from "./early-requests.ts";
import { toFailure } from "./failure.ts";

/** A request that gets no answer in this long is treated as "no internet" (spec §8). */
export const REQUEST_TIMEOUT_MS = 20_000;

const MUTATING = new Set(["POST", "PUT", "PATCH", "DELETE"]);

let csrfToken: string | null = null;

/** The session machine hands the token over at login; every mutating call sends it. */
export function setCsrfToken(token: string | null): void {
  csrfToken = token;
}

function createClient(): KyInstance {
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
        (request) => takeEarlyResponse(request),
        (request) => {
          if (MUTATING.has(request.method) && csrfToken) request.headers.set("X-CSRF-Token", csrfToken);
        },
      ],
    },
  });
}

export const http = createClient();

/** Runs a call and rejects with an ApiFailure, the shape every machine understands. */
export async function call<T>(run: (client: KyInstance) => Promise<T>): Promise<T> {
  try {
    return await run(http);
  } catch (error) {
    throw await toFailure(error);
  }
}
