/**
 * Spec §7: the browser's geolocation is requested, and delivery[latitude] and
 * [longitude] are sent when it is granted — never from the local host, where a
 * developer's or a test run's position means nothing.
 */
export type Location = {
  latitude: number;
  longitude: number;
};

export function isLocalHost(hostname: string): boolean {
  return hostname === "localhost" || hostname.endsWith(".localhost") || /^127\./.test(hostname) || hostname === "[::1]" || hostname === "::1";
}

const onLocalHost = () => typeof window === "undefined" || isLocalHost(window.location.hostname);

let last: Location | null = null;

/** Asks for the position (the browser prompts once); the latest fix is kept for the completion. */
export function requestLocation(): void {
  if (onLocalHost() || typeof navigator === "undefined" || !navigator.geolocation) return;
  navigator.geolocation.getCurrentPosition(
    (position) => {
      last = { latitude: position.coords.latitude, longitude: position.coords.longitude };
    },
    // Refused or unavailable: the delivery is sent without a location.
    () => undefined,
    { enableHighAccuracy: true, timeout: 15_000, maximumAge: 60_000 },
  );
}

/** The position to send with a completion, or null (not granted, not known yet, or the local host). */
export function knownLocation(): Location | null {
  return onLocalHost() ? null : last;
}
