import { and, eq, isNull, sql } from "drizzle-orm";
import { INVITE_LIFETIME_DAYS } from "../../../domain/contract/ops.ts";
import { hashToken, newToken } from "../../auth/tokens.ts";
import { courierInvitations } from "../../db/schema.ts";
import type { Tx } from "../../db/client.ts";

/** Whose invitation: a courier's (issue 15) or a staff member's (issue 27); both open /set-password?token=…. */
export type InvitationOwner = { courierId: number } | { staffId: number };

const ownedBy = (owner: InvitationOwner) =>
  "courierId" in owner ? eq(courierInvitations.courierId, owner.courierId) : eq(courierInvitations.staffId, owner.staffId);

/** A fresh single-use token for 7 days; every earlier open invitation of the same person stops working. */
export async function issueInvitation(tx: Tx, owner: InvitationOwner, now = new Date()): Promise<{ token: string; expiresAt: Date }> {
  await tx
    .update(courierInvitations)
    .set({ expiresAt: now })
    .where(and(ownedBy(owner), isNull(courierInvitations.usedAt), sql`${courierInvitations.expiresAt} > ${now}`));
  const token = newToken();
  const expiresAt = new Date(now.getTime() + INVITE_LIFETIME_DAYS * 86_400_000);
  await tx.insert(courierInvitations).values({ ...owner, tokenHash: hashToken(token), expiresAt });
  return { token, expiresAt };
}

/** Every open invitation of the person stops working now (deactivation). */
export async function expireInvitations(tx: Tx, owner: InvitationOwner, now = new Date()): Promise<void> {
  await tx
    .update(courierInvitations)
    .set({ expiresAt: now })
    .where(and(ownedBy(owner), isNull(courierInvitations.usedAt)));
}
