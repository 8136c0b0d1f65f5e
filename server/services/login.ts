import { eq, sql } from "drizzle-orm";
import type { LoginAttemptSource, LoginLimits } from "../auth/login-limits.ts";
import type { PasswordHasher } from "../auth/password-hashing.ts";
import { checkPassword } from "../auth/password-login.ts";
import type { Db } from "../db/client.ts";
import { couriers } from "../db/schema.ts";

export type LoggedInCourier = Pick<typeof couriers.$inferSelect, "id" | "firstName" | "lastName">;

/**
 * POST /api/sessions: the courier behind an email and password, or 401 in the product's words.
 * Failures are counted in the database and checked before any hashing (server/auth/password-login.ts):
 * `source` says whose failures count (this browser's own if it holds the account's device cookie;
 * otherwise the email's from untrusted clients and the address's).
 */
export async function authenticateCourier(
  deps: { db: Db; loginLimits: LoginLimits; hasher: PasswordHasher },
  credentials: { email: string; password: string },
  source: Omit<LoginAttemptSource, "account">,
): Promise<LoggedInCourier> {
  const email = credentials.email.toLowerCase();
  const courier = await checkPassword(
    deps,
    { account: loginAccount(email), ...source },
    async () => (await deps.db.select().from(couriers).where(eq(sql`lower(${couriers.email})`, email)))[0],
    credentials.password,
  );
  return { id: courier.id, firstName: courier.firstName, lastName: courier.lastName };
}

/** The login limits' and the device cookie's name for an email's account. */
export function loginAccount(email: string): string {
  return `email:${email.toLowerCase()}`;
}
