import type { KyInstance } from "ky";
import { failureOfResponse, toApiFailure, type ApiFailure } from "../../domain/api-failure.ts";
import { earlyKey, putBackEarlyRequest, takeEarlyRequest } from "./early-requests.ts";

/*
 * The app's HTTP calls. ky and the client built on it (./ky-client.ts) load on
 * the first call that needs them, or at the courier's first touch: the first
 * screen's own calls — the session and the day, which index.html has already
 * asked for — are read straight from those answers (getJson), so a phone
 * opening the app neither evaluates ky nor runs its request pipeline before
 * the screen is up (issue 29).
 */

let csrfToken: string | null = null;

/** The session machine hands the token over at login; every mutating call sends it. */
export function setCsrfToken(token: string | null): void {
  csrfToken = token;
}

interface Client {
  http: KyInstance;
  toFailure: (error: unknown) => Promise<ApiFailure>;
}

let client: Promise<Client> | null = null;

function loadClient(): Promise<Client> {
  client ??= import("./ky-client.ts").then(
    ({ createHttp, toFailure }) => ({
      http: createHttp({
        csrfToken: () => csrfToken,
        takeEarlyRequest: (request) => {
          const key = earlyKey(request);
          return key === undefined ? undefined : takeEarlyRequest(key);
        },
      }),
      toFailure,
    }),
    (error: unknown) => {
      client = null;
      throw error;
    },
  );
  return client;
}

/** Runs a call and rejects with an ApiFailure, the shape every machine understands. */
export async function call<T>(run: (client: KyInstance) => Promise<T>): Promise<T> {
  let loaded: Client;
  try {
    loaded = await loadClient();
  } catch (error) {
    // The client's code did not arrive (offline before it was ever loaded): a network failure, which the queue keeps.
    throw toApiFailure(error, "network");
  }
  try {
    return await run(loaded.http);
  } catch (error) {
    throw await loaded.toFailure(error);
  }
}

/** Statuses ky asks a GET again for (its defaults, retry limit 1): such an early answer goes through ky, as before. */
const RETRIED_STATUSES = new Set([408, 413, 429, 500, 502, 503, 504]);

/**
 * GET `path` (under /api/) as JSON. The answer to the request index.html
 * started for it, when there is one and it needs no retry, is read here
 * without the client; anything else (no early request, no network, a
 * time-out, a status ky retries) is the client's call, as it always was.
 */
export async function getJson<T>(path: string): Promise<T> {
  const pending = takeEarlyRequest(path);
  if (pending) {
    const response = await pending.catch(() => null);
    if (response && !RETRIED_STATUSES.has(response.status)) return jsonOf<T>(response);
    putBackEarlyRequest(path, pending);
  }
  return call((http) => http.get(path).json<T>());
}

/** What ky's `.json()` and toFailure make of an answer: its JSON (empty for no body), or the failure its status means. */
async function jsonOf<T>(response: Response): Promise<T> {
  if (!response.ok) throw await failureOfResponse(response, `Request failed with status code ${response.status}: GET ${response.url}`);
  try {
    const text = response.status === 204 ? "" : await response.text();
    return (text === "" ? "" : JSON.parse(text)) as T;
  } catch (error) {
    // The body broke off (no network), or is not JSON: as toFailure says it through ky.
    throw toApiFailure(error, error instanceof TypeError ? "network" : "other");
  }
}


/** Starts loading the client now (a screen that calls the API is opening), without waiting for it. */
export function preloadClient(): void {
  void loadClient().catch(() => undefined);
}

/**
 * Loads the client at the courier's first touch or key press, so the call it
 * leads to (logging in, a pickup) does not wait for the client's code.
 */
export function loadClientOnFirstInteraction(): void {
  const events = ["pointerdown", "keydown"] as const;
  const load = () => {
    for (const type of events) window.removeEventListener(type, load, true);
    preloadClient();
  };
  for (const type of events) window.addEventListener(type, load, { capture: true, passive: true });
}
