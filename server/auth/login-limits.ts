import { and, gt, inArray, lt, sql } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { loginAttempts } from "../db/schema.ts";
import { HttpError } from "../http/errors.ts";

/**
 * The login limits (issue 14 findings 5 and 6): attempts are counted per
 * email (however many addresses guess it) and per client address across all
 * emails (password spraying), in the database, so every API process behind
 * the balancer counts the same attempts, over the last minute of the database's
 * clock. The limits are checked before the password is, so a refused attempt
 * costs no password hashing at all. Two processes checking at the same instant
 * may both let one more attempt through: the bound is the limit plus the
 * number of processes, not the limit times the number of processes.
 *
 * One function for every endpoint that takes a password (login, setting a
 * password from an invite): call it before verifying.
 */

export interface LoginLimits {
  /** Attempts per email and minute, from any address. */
  perEmailPerMinute: number;
  /** Attempts per client address and minute, whatever the email. */
  perAddressPerMinute: number;
}

export const LOGIN_RATE_LIMITED_MESSAGE = "Too many attempts. Please wait a minute and try again.";

export async function enforceLoginLimits(db: Db, attempt: { email: string; address: string }, limits: LoginLimits): Promise<void> {
  const keys: [string, number][] = [
    [`email:${attempt.email.trim().toLowerCase()}`, limits.perEmailPerMinute],
    [`address:${attempt.address}`, limits.perAddressPerMinute],
  ];
  // A sliding minute of the database's clock: the same for every process, and no window edge to time a burst around.
  const counted = await db
    .select({
      key: loginAttempts.key,
      attempts: sql<number>`count(*)::int`,
      secondsLeft: sql<number>`ceil(extract(epoch from (min(${loginAttempts.attemptedAt}) + interval '1 minute' - now())))::int`,
    })
    .from(loginAttempts)
    .where(and(inArray(loginAttempts.key, keys.map(([key]) => key)), gt(loginAttempts.attemptedAt, sql`now() - interval '1 minute'`)))
    .groupBy(loginAttempts.key);
  for (const row of counted) {
    const limit = keys.find(([key]) => key === row.key)![1];
    if (row.attempts >= limit) {
      throw new HttpError(429, "rate_limited", LOGIN_RATE_LIMITED_MESSAGE, undefined, {
        "retry-after": String(Math.max(1, Number(row.secondsLeft))),
      });
    }
  }
  // Only allowed attempts are counted: an attacker hammering a locked email does not keep it locked longer than a minute of quiet.
  await db.insert(loginAttempts).values(keys.map(([key]) => ({ key })));
}

/** Counts older than an hour serve nothing; called with the hourly session purge. */
export async function purgeLoginAttempts(db: Db): Promise<void> {
  await db.delete(loginAttempts).where(lt(loginAttempts.attemptedAt, sql`now() - interval '1 hour'`));
}
