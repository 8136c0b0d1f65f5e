import { asc, eq, sql } from "drizzle-orm";
import type { StaffInviteRequest, StaffInviteResponse, StaffMember } from "../../../domain/contract/staff.ts";
import { pharmacies, staffAccounts, staffSessions } from "../../db/schema.ts";
import { badRequest, conflict, notFound } from "../../http/errors.ts";
import { audit } from "../../db/audit.ts";
import { inTransaction, type Tx } from "../../db/client.ts";
import { announceStaffSessionsEnded } from "../staff-sessions.ts";
import { expireInvitations, issueInvitation } from "./invitations.ts";

/**
 * Staff accounts (issue 27): dispatchers and pharmacists, invited by a
 * dispatch key like couriers are (the same invitation, the same
 * /set-password screen and rules), deactivated the same way.
 */

type StaffRow = typeof staffAccounts.$inferSelect;
/** Only a dispatch key manages staff: the actor is always a key. */
type KeyActor = { apiKeyId: number };

export function staffView(row: StaffRow): StaffMember {
  return {
    id: row.id,
    email: row.email,
    first_name: row.firstName,
    last_name: row.lastName,
    role: row.role,
    pharmacy_id: row.pharmacyId,
    active: row.deactivatedAt === null,
    password_set: row.passwordHash !== null,
    created_at: row.createdAt.toISOString(),
  };
}

async function findStaff(tx: Tx, id: number): Promise<StaffRow> {
  const [row] = await tx.select().from(staffAccounts).where(eq(staffAccounts.id, id)).for("update");
  if (!row) throw notFound(`Staff member ${id}`);
  return row;
}

export const inviteStaff = inTransaction(async function inviteStaff(tx: Tx, actor: KeyActor, body: StaffInviteRequest): Promise<StaffInviteResponse> {
  const email = body.email.toLowerCase();
  const pharmacyId = body.role === "pharmacist" ? body.pharmacy_id! : null;
  if (pharmacyId !== null) {
    const [pharmacy] = await tx.select({ id: pharmacies.id }).from(pharmacies).where(eq(pharmacies.id, pharmacyId));
    if (!pharmacy) throw badRequest(`Pharmacy ${pharmacyId} was not found.`, [{ path: "body.pharmacy_id", message: `Pharmacy ${pharmacyId} was not found.` }]);
  }
  const [taken] = await tx.select({ id: staffAccounts.id }).from(staffAccounts).where(eq(sql`lower(${staffAccounts.email})`, email));
  if (taken) throw conflict(`A staff member with the email ${email} already exists (staff ${taken.id}).`);
  const [row] = await tx
    .insert(staffAccounts)
    .values({ email, passwordHash: null, firstName: body.first_name, lastName: body.last_name, role: body.role, pharmacyId })
    .returning();
  const invitation = await issueInvitation(tx, { staffId: row!.id });
  await audit(tx, [{ courierId: null, apiKeyId: actor.apiKeyId, action: "staff_invited", subject: `staff:${row!.id}` }]);
  return { staff: staffView(row!), invite_token: invitation.token, invite_expires_at: invitation.expiresAt.toISOString() };
});

/** A new link (a forgotten password, an expired link): earlier ones stop working. */
export const reinviteStaff = inTransaction(async function reinviteStaff(tx: Tx, actor: KeyActor, id: number): Promise<StaffInviteResponse> {
  const row = await findStaff(tx, id);
  if (row.deactivatedAt) throw conflict(`Staff member ${id} is deactivated and cannot be invited.`);
  const invitation = await issueInvitation(tx, { staffId: id });
  await audit(tx, [{ courierId: null, apiKeyId: actor.apiKeyId, action: "staff_reinvited", subject: `staff:${id}` }]);
  return { staff: staffView(row), invite_token: invitation.token, invite_expires_at: invitation.expiresAt.toISOString() };
});

/** No more logins; every session ends now (and with it every open event stream); open invitations die. */
export const deactivateStaff = inTransaction(async function deactivateStaff(tx: Tx, actor: KeyActor, id: number): Promise<StaffMember> {
  const row = await findStaff(tx, id);
  const now = new Date();
  const [updated] = row.deactivatedAt ? [row] : await tx.update(staffAccounts).set({ deactivatedAt: now }).where(eq(staffAccounts.id, id)).returning();
  await tx.delete(staffSessions).where(eq(staffSessions.staffId, id));
  // Every process's open streams of those sessions end when this commits.
  await announceStaffSessionsEnded(tx);
  await expireInvitations(tx, { staffId: id }, now);
  await audit(tx, [{ courierId: null, apiKeyId: actor.apiKeyId, action: "staff_deactivated", subject: `staff:${id}` }]);
  return staffView(updated!);
});

export async function listStaff(tx: Pick<Tx, "select">): Promise<StaffMember[]> {
  const rows = await tx.select().from(staffAccounts).orderBy(asc(staffAccounts.id));
  return rows.map(staffView);
}
