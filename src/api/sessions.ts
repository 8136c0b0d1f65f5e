import type { ItineraryResponse, SessionResponse } from "../../domain/contract/index.ts";
import { call, getJson, setCsrfToken } from "./client.ts";
import { isApiFailure } from "../../domain/api-failure.ts";

let courierId: number | null = null;

/** The logged-in courier on this device (whose saved day may be shown offline). */
export function currentCourierId(): number | null {
  return courierId;
}

/** The last session seen, so a reload without network still opens the courier's day. */
const LAST_SESSION_KEY = "rxc-last-session";

function remember(session: SessionResponse): SessionResponse {
  setCsrfToken(session.csrf_token);
  courierId = session.courier.id;
  try {
    localStorage.setItem(LAST_SESSION_KEY, JSON.stringify(session));
  } catch {
    // Private mode or full storage: online use is unaffected.
  }
  return session;
}

function lastSession(): SessionResponse | null {
  try {
    const saved = localStorage.getItem(LAST_SESSION_KEY);
    return saved ? (JSON.parse(saved) as SessionResponse) : null;
  } catch {
    return null;
  }
}

/**
 * The courier whose session last ended on this device (logged out, or found
 * expired): the login screen's `next` is theirs, and only they are sent back to it.
 */
const SENT_AWAY_KEY = "rxc-sent-away";

export function sentAwayCourierId(): number | null {
  try {
    const saved = Number(localStorage.getItem(SENT_AWAY_KEY));
    return Number.isInteger(saved) && saved > 0 ? saved : null;
  } catch {
    return null;
  }
}

function forget(): void {
  const leaving = courierId ?? lastSession()?.courier.id ?? null;
  setCsrfToken(null);
  courierId = null;
  try {
    if (leaving !== null) localStorage.setItem(SENT_AWAY_KEY, String(leaving));
    localStorage.removeItem(LAST_SESSION_KEY);
  } catch {
    // Private mode or full storage: `next` is then followed for nobody but an unknown courier.
  }
}

export async function fetchCurrentSession(): Promise<SessionResponse | null> {
  try {
    return remember(await getJson<SessionResponse>("sessions/current"));
  } catch (error) {
    if (isApiFailure(error) && error.kind === "unauthenticated") {
      forget();
      return null;
    }
    // Offline at start: carry on as the courier last seen here; the server still checks the cookie on every call.
    const saved = isApiFailure(error) && (error.kind === "network" || error.kind === "unavailable") ? lastSession() : null;
    if (saved) return remember(saved);
    throw error;
  }
}

export async function logIn(email: string, password: string): Promise<SessionResponse> {
  return remember(await call((http) => http.post("sessions", { json: { email, password } }).json<SessionResponse>()));
}

export async function logOut(): Promise<void> {
  try {
    await call((http) => http.delete("sessions/current"));
  } finally {
    forget();
  }
}

const requestItinerary = () => getJson<ItineraryResponse>("courier/itinerary");

let early: Promise<ItineraryResponse> | null = null;

/** Asks for the day while the session is still being checked: on a weak signal the two round trips overlap. */
export function prefetchItinerary(): void {
  early = requestItinerary();
  early.catch(() => undefined);
}

export async function fetchItinerary(): Promise<ItineraryResponse> {
  const pending = early;
  early = null;
  if (pending) {
    try {
      return await pending;
    } catch {
      // Not logged in yet, or offline: ask again now, as if nothing had been prefetched.
    }
  }
  return requestItinerary();
}
