import { and, eq, gt, inArray, isNull, lt, or, sql } from "drizzle-orm";
import type { StaffRole } from "../../domain/contract/staff.ts";
import { sessionClock, type SessionLifetime } from "../auth/session-store.ts";
import { hashToken } from "../auth/tokens.ts";
import type { Db, Tx } from "../db/client.ts";
import { staffAccounts, staffSessions } from "../db/schema.ts";

/**
 * The console's sessions (issue 27): a dispatcher's or pharmacist's cookie,
 * with a CSRF token, that the operations API accepts instead of a Bearer key.
 * A cookie of its own name and path (the ops API only): the courier's routes
 * never read it, and the ops API never reads the courier's. Same lifetimes
 * as a courier's session (SESSION_IDLE_MINUTES, SESSION_ABSOLUTE_HOURS).
 */
export const STAFF_SESSION_COOKIE = "rxc_staff_session";

/**
 * Announced (NOTIFY, delivered at commit) whenever staff sessions are deleted
 * — logout, a new login over an old cookie, deactivation, the purge — so every
 * API process ends those sessions' open event streams at once
 * (server/ops/staff-stream-ends.ts).
 */
export const STAFF_SESSIONS_CHANNEL = "rxc_staff_sessions";

/** In a transaction, announced when it commits; outside one, now. */
export async function announceStaffSessionsEnded(db: Pick<Tx, "execute">): Promise<void> {
  await db.execute(sql`select pg_notify(${STAFF_SESSIONS_CHANNEL}, '')`);
}

export interface StaffSession {
  idHash: string;
  csrfToken: string;
  staff: { id: number; first_name: string; last_name: string; role: StaffRole; pharmacy_id: number | null };
}

export function createStaffSessionStore(db: Db, lifetime: SessionLifetime) {
  const clock = sessionClock(lifetime);
  const findActive = db
    .select({
      idHash: staffSessions.idHash,
      csrfToken: staffSessions.csrfToken,
      lastSeenAt: staffSessions.lastSeenAt,
      staffId: staffAccounts.id,
      firstName: staffAccounts.firstName,
      lastName: staffAccounts.lastName,
      role: staffAccounts.role,
      pharmacyId: staffAccounts.pharmacyId,
    })
    .from(staffSessions)
    .innerJoin(staffAccounts, eq(staffAccounts.id, staffSessions.staffId))
    .where(
      and(
        eq(staffSessions.idHash, sql.placeholder("idHash")),
        gt(staffSessions.expiresAt, sql.placeholder("now")),
        gt(staffSessions.lastSeenAt, sql.placeholder("idleSince")),
        // Deactivation deletes the sessions; this is the belt to those braces.
        isNull(staffAccounts.deactivatedAt),
      ),
    )
    .prepare("rxc_find_staff_session");

  return {
    async create(staffId: number): Promise<{ token: string; csrfToken: string; expiresAt: Date }> {
      const { token, idHash, csrfToken, expiresAt, lastSeenAt } = clock.opened();
      await db.insert(staffSessions).values({ idHash, staffId, csrfToken, expiresAt, lastSeenAt });
      return { token, csrfToken, expiresAt };
    },

    async find(token: string): Promise<StaffSession | null> {
      const now = new Date();
      const [row] = await findActive.execute(clock.lookup(token, now));
      if (!row) return null;
      if (clock.needsTouch(row.lastSeenAt, now)) {
        await db.update(staffSessions).set({ lastSeenAt: now }).where(eq(staffSessions.idHash, row.idHash));
      }
      return {
        idHash: row.idHash,
        csrfToken: row.csrfToken,
        staff: { id: row.staffId, first_name: row.firstName, last_name: row.lastName, role: row.role, pharmacy_id: row.pharmacyId },
      };
    },

    /**
     * For each of these sessions still live, when it ends unless used again
     * (its absolute end, or its idle end if sooner); ended ones are absent.
     * Open event streams ask when a session ending is announced and at these times.
     */
    async deadlines(idHashes: readonly string[]): Promise<Map<string, Date>> {
      if (idHashes.length === 0) return new Map();
      const now = new Date();
      const rows = await db
        .select({ idHash: staffSessions.idHash, expiresAt: staffSessions.expiresAt, lastSeenAt: staffSessions.lastSeenAt })
        .from(staffSessions)
        .innerJoin(staffAccounts, eq(staffAccounts.id, staffSessions.staffId))
        .where(
          and(
            inArray(staffSessions.idHash, [...idHashes]),
            gt(staffSessions.expiresAt, now),
            gt(staffSessions.lastSeenAt, clock.idleSince(now)),
            isNull(staffAccounts.deactivatedAt),
          ),
        );
      return new Map(rows.map((row) => [row.idHash, new Date(Math.min(row.expiresAt.getTime(), clock.idleEnd(row.lastSeenAt).getTime()))]));
    },

    async destroy(idHash: string): Promise<void> {
      const gone = await db.delete(staffSessions).where(eq(staffSessions.idHash, idHash)).returning({ idHash: staffSessions.idHash });
      if (gone.length) await announceStaffSessionsEnded(db);
    },

    async destroyToken(token: string): Promise<void> {
      await this.destroy(hashToken(token));
    },

    async purgeExpired(): Promise<void> {
      const now = Date.now();
      const gone = await db
        .delete(staffSessions)
        .where(or(lt(staffSessions.expiresAt, new Date(now)), lt(staffSessions.lastSeenAt, clock.idleSince(new Date(now)))))
        .returning({ idHash: staffSessions.idHash });
      if (gone.length) await announceStaffSessionsEnded(db);
    },
  };
}
export type StaffSessionStore = ReturnType<typeof createStaffSessionStore>;
