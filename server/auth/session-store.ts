import { and, eq, gt, lt, or, sql } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { couriers, sessions } from "../db/schema.ts";
import { hashToken, newToken } from "./tokens.ts";

export interface SessionLifetime {
  idleMinutes: number;
  absoluteHours: number;
}

export interface ActiveSession {
  idHash: string;
  csrfToken: string;
  courier: { id: number; first_name: string; last_name: string };
}

/** Only write last_seen_at this often: a read-heavy day should not be a write per request. */
const TOUCH_INTERVAL_MS = 60_000;

/**
 * The rules every session table follows (the courier's, the console's staff
 * sessions): a new session's tokens and times, the window a lookup accepts,
 * and when a lookup records the session as seen.
 */
export function sessionClock(lifetime: SessionLifetime) {
  const idleMs = lifetime.idleMinutes * 60_000;
  const absoluteMs = lifetime.absoluteHours * 3_600_000;
  return {
    /** A new session: the cookie's token (only its hash is stored), its CSRF token, and its times. */
    opened() {
      const token = newToken();
      const now = Date.now();
      return { token, idHash: hashToken(token), csrfToken: newToken(), expiresAt: new Date(now + absoluteMs), lastSeenAt: new Date(now) };
    },
    /** The lookup's parameters for a cookie's token: not past its absolute end, seen within the idle time. */
    lookup(token: string, now: Date) {
      return { idHash: hashToken(token), now, idleSince: new Date(now.getTime() - idleMs) };
    },
    /** Seen before this, a session has been idle too long. */
    idleSince: (now: Date) => new Date(now.getTime() - idleMs),
    /** Seen last at this, a session is idle too long from then on. */
    idleEnd: (lastSeenAt: Date) => new Date(lastSeenAt.getTime() + idleMs),
    needsTouch: (lastSeenAt: Date, now: Date) => now.getTime() - lastSeenAt.getTime() > TOUCH_INTERVAL_MS,
  };
}

/** Sessions live in the database so any API process can serve any courier. */
export function createSessionStore(db: Db, lifetime: SessionLifetime) {
  const clock = sessionClock(lifetime);
  // Every API request looks its session up: built once and prepared, not rebuilt per request
  // (a third of the lookup's CPU otherwise; docs/benchmarks.md "API under load").
  const findActive = db
    .select({
      idHash: sessions.idHash,
      csrfToken: sessions.csrfToken,
      lastSeenAt: sessions.lastSeenAt,
      courierId: couriers.id,
      firstName: couriers.firstName,
      lastName: couriers.lastName,
    })
    .from(sessions)
    .innerJoin(couriers, eq(couriers.id, sessions.courierId))
    .where(
      and(
        eq(sessions.idHash, sql.placeholder("idHash")),
        gt(sessions.expiresAt, sql.placeholder("now")),
        gt(sessions.lastSeenAt, sql.placeholder("idleSince")),
      ),
    )
    .prepare("rxc_find_session");

  return {
    async create(courierId: number): Promise<{ token: string; csrfToken: string; expiresAt: Date }> {
      const { token, idHash, csrfToken, expiresAt, lastSeenAt } = clock.opened();
      await db.insert(sessions).values({ idHash, courierId, csrfToken, expiresAt, lastSeenAt });
      return { token, csrfToken, expiresAt };
    },

    async find(token: string): Promise<ActiveSession | null> {
      const now = new Date();
      const [row] = await findActive.execute(clock.lookup(token, now));
      if (!row) return null;
      if (clock.needsTouch(row.lastSeenAt, now)) {
        await db.update(sessions).set({ lastSeenAt: now }).where(eq(sessions.idHash, row.idHash));
      }
      return {
        idHash: row.idHash,
        csrfToken: row.csrfToken,
        courier: { id: row.courierId, first_name: row.firstName, last_name: row.lastName },
      };
    },

    async destroy(idHash: string): Promise<void> {
      await db.delete(sessions).where(eq(sessions.idHash, idHash));
    },

    async destroyToken(token: string): Promise<void> {
      await db.delete(sessions).where(eq(sessions.idHash, hashToken(token)));
    },

    /** Removes sessions that can no longer be used. */
    async purgeExpired(): Promise<void> {
      const now = Date.now();
      await db
        .delete(sessions)
        .where(or(lt(sessions.expiresAt, new Date(now)), lt(sessions.lastSeenAt, clock.idleSince(new Date(now)))));
    },
  };
}
export type SessionStore = ReturnType<typeof createSessionStore>;
