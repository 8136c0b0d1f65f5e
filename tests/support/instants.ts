/**
 * Times the phone reports, relative to now: the API accepts an instant only within
 * its window around the server's clock (domain/contract/scalars.ts INSTANT_WINDOW),
 * so a fixed date in a test would start failing a month later.
 */
export function minutesAgo(minutes: number, now: number = Date.now()): string {
  return new Date(now - minutes * 60_000).toISOString();
}

/** When a test's delivery happened: a few minutes ago, fixed for the run. */
export const OCCURRED = minutesAgo(5);
/** When the courier called the recipient, before OCCURRED. */
export const CALLED = minutesAgo(10);
