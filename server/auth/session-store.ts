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

/** Sessions live in the database so any API process can serve any courier. */
export function createSessionStore(db: Db, lifetime: SessionLifetime) {
  const idleMs = lifetime.idleMinutes * 60_000;
  const absoluteMs = lifetime.absoluteHours * 3_600_000;
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
      const token = newToken();
      const csrfToken = newToken();
      const now = Date.now();
      const expiresAt = new Date(now + absoluteMs);
      await db.insert(sessions).values({ idHash: hashToken(token), courierId, csrfToken, expiresAt, lastSeenAt: new Date(now) });
      return { token, csrfToken, expiresAt };
    },

    async find(token: string): Promise<ActiveSession | null> {
      const now = new Date();
      const [row] = await findActive.execute({ idHash: hashToken(token), now, idleSince: new Date(now.getTime() - idleMs) });
      if (!row) return null;
      if (now.getTime() - row.lastSeenAt.getTime() > TOUCH_INTERVAL_MS) {
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
        .where(or(lt(sessions.expiresAt, new Date(now)), lt(sessions.lastSeenAt, new Date(now - idleMs))));
    },
  };
}
export type SessionStore = ReturnType<typeof createSessionStore>;
