import argon2 from "argon2";
import { eq, sql } from "drizzle-orm";
import { admitLoginAttempt, type LoginAttemptSource, type LoginLimits } from "../auth/login-limits.ts";
import type { PasswordHasher } from "../auth/password-hashing.ts";
import type { Db } from "../db/client.ts";
import { couriers } from "../db/schema.ts";
import { HttpError } from "../http/errors.ts";

/** Compared against when the email is unknown, so a wrong email costs the same time as a wrong password. */
const DUMMY_HASH = await argon2.hash("not-a-real-password");

export type LoggedInCourier = Pick<typeof couriers.$inferSelect, "id" | "firstName" | "lastName">;

/**
 * POST /api/sessions: the courier behind an email and password, or 401 in the product's words.
 * Failures are counted in the database and checked before any hashing (server/auth/login-limits.ts):
 * `source` says whose failures count (this browser's own if it holds the account's device cookie;
 * otherwise the email's from untrusted clients and the address's).
 */
export async function authenticateCourier(
  deps: { db: Db; loginLimits: LoginLimits; hasher: PasswordHasher },
  credentials: { email: string; password: string },
  source: Omit<LoginAttemptSource, "account">,
): Promise<LoggedInCourier> {
  const email = credentials.email.toLowerCase();
  const attempt = await admitLoginAttempt(deps.db, { account: loginAccount(email), ...source }, deps.loginLimits);
  const [courier] = await deps.db.select().from(couriers).where(eq(sql`lower(${couriers.email})`, email));
  let valid: boolean;
  try {
    valid = await deps.hasher.verify(courier?.passwordHash ?? DUMMY_HASH, credentials.password);
  } catch (error) {
    // Refused for load (503) before the password was checked: not a guess.
    await attempt.notAFailure();
    throw error;
  }
  // A deactivated courier is refused like a wrong password: dispatch ended their access (issue 15).
  if (!courier || !valid || courier.deactivatedAt) throw new HttpError(401, "invalid_credentials", "The email or password is incorrect.");
  await attempt.notAFailure();
  return { id: courier.id, firstName: courier.firstName, lastName: courier.lastName };
}

/** The login limits' and the device cookie's name for an email's account. */
export function loginAccount(email: string): string {
  return `email:${email.toLowerCase()}`;
}
