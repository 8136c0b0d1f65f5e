import { and, gt, inArray, lt, sql } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { loginAttempts } from "../db/schema.ts";
import { HttpError } from "../http/errors.ts";

/**
 * The login limits (issue 14 findings 5 and 6, issue 24 §8). Failed attempts
 * are counted, not successful ones, in the database, so every API process
 * behind the balancer counts the same failures, over the last minute of the
 * database's clock:
 *
 * - from a browser that holds a valid device cookie for the account
 *   (server/auth/device-cookie.ts): that device's failures only, with a limit
 *   of its own — so a courier's own phone keeps getting in while their email
 *   is being guessed at from elsewhere, and a stolen cookie cannot guess more;
 * - from anywhere else: the account's failures from untrusted clients (however
 *   many addresses guess it), and the address's failures across all accounts
 *   (password spraying).
 *
 * The limits are checked before the password is, so a refused attempt costs no
 * password hashing. An admitted attempt is written at once, as a failure, and
 * removed when it turns out not to be one: a burst of guesses sent together
 * cannot all pass the check before any of them is counted. Two processes
 * checking at the same instant may both let one more attempt through: the
 * bound is the limit plus the number of processes.
 *
 * One function for every endpoint that takes a password (login, setting a
 * password from an invite, the console's staff login): call it before verifying.
 */

export interface LoginLimits {
  /** Failures per account and minute from clients without its device cookie, from any address. */
  perAccountPerMinute: number;
  /** Failures per client address and minute without a device cookie, whatever the account. */
  perAddressPerMinute: number;
  /** Failures per device cookie and minute. */
  perDevicePerMinute: number;
}

export interface LoginAttemptSource {
  /** Whose password is tried, with its kind: "email:dana@example.com", "invitation:<token hash>". */
  account: string;
  /** The device id of a valid device cookie for this account (DeviceCookies.known), or null. */
  device: string | null;
  /** The client's address (request.ip, after TRUST_PROXY). */
  address: string;
}

export interface LoginAttempt {
  /** The attempt was not a failed guess (the password was right, or it was never checked): it stops counting. */
  notAFailure(): Promise<void>;
}

export const LOGIN_RATE_LIMITED_MESSAGE = "Too many attempts. Please wait a minute and try again.";

function countedKeys(source: LoginAttemptSource, limits: LoginLimits): [string, number][] {
  if (source.device !== null) return [[`device:${source.device}`, limits.perDevicePerMinute]];
  return [
    [source.account, limits.perAccountPerMinute],
    [`address:${source.address}`, limits.perAddressPerMinute],
  ];
}

/** Refuses with 429 + Retry-After when a limit is reached; otherwise counts the attempt as a failure until told otherwise. */
export async function admitLoginAttempt(db: Db, source: LoginAttemptSource, limits: LoginLimits): Promise<LoginAttempt> {
  const keys = countedKeys(source, limits);
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
  // Refused attempts are not counted: an attacker hammering a locked account does not keep it locked longer than a minute of quiet.
  const written = await db.insert(loginAttempts).values(keys.map(([key]) => ({ key }))).returning({ id: loginAttempts.id });
  return {
    async notAFailure() {
      await db.delete(loginAttempts).where(inArray(loginAttempts.id, written.map((row) => row.id)));
    },
  };
}

/** Counts older than an hour serve nothing; called with the hourly session purge. */
export async function purgeLoginAttempts(db: Db): Promise<void> {
  await db.delete(loginAttempts).where(lt(loginAttempts.attemptedAt, sql`now() - interval '1 hour'`));
}
