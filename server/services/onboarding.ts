import { and, eq } from "drizzle-orm";
import { passwordProblem } from "../../domain/password-rules.ts";
import { admitLoginAttempt, type LoginLimits } from "../auth/login-limits.ts";
import type { PasswordHasher } from "../auth/password-hashing.ts";
import { hashToken } from "../auth/tokens.ts";
import type { Db } from "../db/client.ts";
import { courierInvitations, couriers, sessions, staffAccounts, staffSessions } from "../db/schema.ts";
import { badRequest, HttpError } from "../http/errors.ts";
import { audit } from "../db/audit.ts";

const INVALID_LINK = "This invitation link is not valid any more. Ask dispatch for a new invite.";

/**
 * POST /api/courier/password: the invited courier (or dispatcher or
 * pharmacist, issue 27) chooses a password. The
 * token works once and for 7 days; a password set this way ends every
 * session the courier had (a forgotten password is a re-invitation).
 * The ops API invites (server/ops/services/couriers.ts), the courier's API
 * accepts: this service sits below both.
 */
export async function setPasswordFromInvitation(
  deps: { db: Db; loginLimits: LoginLimits; hasher: Pick<PasswordHasher, "hash"> },
  body: { token: string; password: string },
  address: string,
): Promise<void> {
  // Login's limits, in the database: failures per invitation (its token's hash) and per address across all of them.
  const account = `invitation:${hashToken(body.token)}`;
  const attempt = await admitLoginAttempt(deps.db, { account, device: null, address }, deps.loginLimits);
  await acceptInvitation(deps.db, deps.hasher, body.token, body.password);
  await attempt.notAFailure();
}

async function acceptInvitation(db: Db, hasher: Pick<PasswordHasher, "hash">, token: string, password: string): Promise<void> {
  const problem = passwordProblem(password);
  // Hashing happens before the transaction (argon2 is slow and holds no lock), bounded like login's.
  const passwordHash = problem ? null : await hasher.hash(password);
  await db.transaction(async (tx) => {
    const [invitation] = await tx
      .select()
      .from(courierInvitations)
      .where(eq(courierInvitations.tokenHash, hashToken(token)))
      .for("update");
    const now = new Date();
    if (!invitation || invitation.usedAt || invitation.expiresAt <= now) {
      throw new HttpError(400, "invalid_token", INVALID_LINK, [{ path: "body.token", message: INVALID_LINK }]);
    }
    // A staff member's invitation (issue 27): the same link, screen and rules; their console sessions end.
    if (invitation.staffId !== null) {
      const [member] = await tx.select().from(staffAccounts).where(eq(staffAccounts.id, invitation.staffId)).for("update");
      if (!member || member.deactivatedAt) {
        throw new HttpError(400, "invalid_token", INVALID_LINK, [{ path: "body.token", message: INVALID_LINK }]);
      }
      if (problem || !passwordHash) throw badRequest(problem!, [{ path: "body.password", message: problem! }]);
      await tx.update(staffAccounts).set({ passwordHash }).where(eq(staffAccounts.id, member.id));
      await tx.update(courierInvitations).set({ usedAt: now }).where(eq(courierInvitations.id, invitation.id));
      await tx.delete(staffSessions).where(eq(staffSessions.staffId, member.id));
      await audit(tx, [{ courierId: null, staffId: member.id, action: "staff_password_set", subject: `staff:${member.id}` }]);
      return;
    }
    const [courier] = await tx.select().from(couriers).where(eq(couriers.id, invitation.courierId!)).for("update");
    if (!courier || courier.deactivatedAt) {
      throw new HttpError(400, "invalid_token", INVALID_LINK, [{ path: "body.token", message: INVALID_LINK }]);
    }
    if (problem || !passwordHash) throw badRequest(problem!, [{ path: "body.password", message: problem! }]);
    await tx.update(couriers).set({ passwordHash }).where(eq(couriers.id, courier.id));
    await tx
      .update(courierInvitations)
      .set({ usedAt: now })
      .where(and(eq(courierInvitations.id, invitation.id)));
    await tx.delete(sessions).where(eq(sessions.courierId, courier.id));
    await audit(tx, [{ courierId: courier.id, action: "courier_password_set", subject: `courier:${courier.id}` }]);
  });
}
