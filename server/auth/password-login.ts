import argon2 from "argon2";
import type { Db } from "../db/client.ts";
import { HttpError } from "../http/errors.ts";
import { admitLoginAttempt, type LoginAttemptSource, type LoginLimits } from "./login-limits.ts";
import type { PasswordHasher } from "./password-hashing.ts";

/** Compared against when the email is unknown, so a wrong email costs the same time as a wrong password. */
const DUMMY_HASH = await argon2.hash("not-a-real-password");

/** What a login needs of an account, whoever holds it (a courier, a dispatcher, a pharmacist). */
export interface PasswordAccount {
  passwordHash: string | null;
  deactivatedAt: Date | null;
}

/**
 * The one way both APIs check a password (the courier's login and the console's): failures are
 * counted in the database and checked before any hashing (login-limits.ts; `source` says whose
 * failures count), the hash is checked even when no account has the email (same time either
 * way), and an account with no password yet, a wrong password or a deactivated account are one
 * 401 in the product's words (dispatch ended a deactivated account's access, issue 15).
 */
export async function checkPassword<TAccount extends PasswordAccount>(
  deps: { db: Db; loginLimits: LoginLimits; hasher: PasswordHasher },
  source: LoginAttemptSource,
  findAccount: () => Promise<TAccount | undefined>,
  password: string,
): Promise<TAccount> {
  const attempt = await admitLoginAttempt(deps.db, source, deps.loginLimits);
  const account = await findAccount();
  let valid: boolean;
  try {
    valid = await deps.hasher.verify(account?.passwordHash ?? DUMMY_HASH, password);
  } catch (error) {
    // Refused for load (503) before the password was checked: not a guess.
    await attempt.notAFailure();
    throw error;
  }
  if (!account || !valid || account.deactivatedAt) throw new HttpError(401, "invalid_credentials", "The email or password is incorrect.");
  await attempt.notAFailure();
  return account;
}
