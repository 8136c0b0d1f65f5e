import { eq, sql } from "drizzle-orm";
import type { StaffSession } from "../staff-sessions.ts";
import type { LoginAttemptSource, LoginLimits } from "../../auth/login-limits.ts";
import type { PasswordHasher } from "../../auth/password-hashing.ts";
import { checkPassword } from "../../auth/password-login.ts";
import type { Db } from "../../db/client.ts";
import { staffAccounts } from "../../db/schema.ts";

/**
 * POST /api/ops/v1/sessions: the dispatcher or pharmacist behind an email and password, or 401
 * in the product's words, by the courier's login rules (server/auth/password-login.ts: the same
 * limits, with `source` saying whose failures count, the same bounded hashing, a deactivated
 * account refused like a wrong password).
 */
export async function authenticateStaff(
  deps: { db: Db; loginLimits: LoginLimits; hasher: PasswordHasher },
  credentials: { email: string; password: string },
  source: Omit<LoginAttemptSource, "account">,
): Promise<StaffSession["staff"]> {
  const email = credentials.email.toLowerCase();
  const member = await checkPassword(
    deps,
    { account: staffLoginAccount(email), ...source },
    async () => (await deps.db.select().from(staffAccounts).where(eq(sql`lower(${staffAccounts.email})`, email)))[0],
    credentials.password,
  );
  return { id: member.id, first_name: member.firstName, last_name: member.lastName, role: member.role, pharmacy_id: member.pharmacyId };
}

/** The login limits' and the console's device cookie's name for a staff email's account. */
export function staffLoginAccount(email: string): string {
  return `staff:${email.toLowerCase()}`;
}
