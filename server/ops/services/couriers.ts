import { asc, eq, sql } from "drizzle-orm";
import { type CourierInviteRequest, type CourierUpdateRequest, type CourierInviteResponse, type OpsCourier } from "../../../domain/contract/ops.ts";
import { couriers, sessions } from "../../db/schema.ts";
import { conflict, notFound } from "../../http/errors.ts";
import { audit } from "../../db/audit.ts";
import { expireInvitations, issueInvitation } from "./invitations.ts";
import type { Actor } from "./pharmacies.ts";
import { inTransaction, type Tx } from "../../db/client.ts";

type CourierRow = typeof couriers.$inferSelect;

export function opsCourierView(row: CourierRow): OpsCourier {
  return {
    id: row.id,
    first_name: row.firstName,
    last_name: row.lastName,
    email: row.email,
    phone_number: row.phoneNumber,
    active: row.deactivatedAt === null,
    password_set: row.passwordHash !== null,
    start_location: row.startLatitude !== null && row.startLongitude !== null ? { latitude: row.startLatitude, longitude: row.startLongitude } : null,
    end_location: row.endLatitude !== null && row.endLongitude !== null ? { latitude: row.endLatitude, longitude: row.endLongitude } : null,
    shift_start: row.shiftStart,
    shift_end: row.shiftEnd,
    capacity: row.capacity,
    created_at: row.createdAt.toISOString(),
  };
}

/** PostgreSQL's unique_violation, whichever driver reports it. */
export function isUniqueViolation(error: unknown): boolean {
  for (let e: unknown = error; e && typeof e === "object"; e = (e as { cause?: unknown }).cause) {
    if ((e as { code?: unknown }).code === "23505") return true;
  }
  return false;
}

async function findCourier(tx: Tx, id: number): Promise<CourierRow> {
  const [row] = await tx.select().from(couriers).where(eq(couriers.id, id)).for("update");
  if (!row) throw notFound(`Courier ${id}`);
  return row;
}

/** POST couriers: the courier exists without a password until they use the invitation. */
export async function inviteCourier(db: Tx, actor: Actor, body: CourierInviteRequest): Promise<CourierInviteResponse> {
  try {
    return await insertInvitedCourier(db, actor, body);
  } catch (error) {
    // Two invitations of one email at once: the second meets the unique email.
    if (isUniqueViolation(error)) throw conflict(`A courier with the email ${body.email.toLowerCase()} already exists.`);
    throw error;
  }
}

const insertInvitedCourier = inTransaction(async function insertInvitedCourier(tx: Tx, actor: Actor, body: CourierInviteRequest): Promise<CourierInviteResponse> {
  const email = body.email.toLowerCase();
  const [taken] = await tx.select({ id: couriers.id }).from(couriers).where(eq(sql`lower(${couriers.email})`, email));
  if (taken) throw conflict(`A courier with the email ${email} already exists (courier ${taken.id}).`);
  const [row] = await tx
    .insert(couriers)
    .values({ email, passwordHash: null, firstName: body.first_name, lastName: body.last_name, phoneNumber: body.phone_number ?? null })
    .returning();
  const invitation = await issueInvitation(tx, { courierId: row!.id });
  await audit(tx, [{ courierId: null, apiKeyId: actor.apiKeyId, staffId: actor.staffId ?? null, action: "courier_invited", subject: `courier:${row!.id}` }]);
  return { courier: opsCourierView(row!), invite_token: invitation.token, invite_expires_at: invitation.expiresAt.toISOString() };
});

/** POST couriers/{id}/invitation: a new link (the courier forgot their password, or the first one expired). */
export const reinviteCourier = inTransaction(async function reinviteCourier(tx: Tx, actor: Actor, id: number): Promise<CourierInviteResponse> {
  const row = await findCourier(tx, id);
  if (row.deactivatedAt) throw conflict(`Courier ${id} is deactivated and cannot be invited.`);
  const invitation = await issueInvitation(tx, { courierId: id });
  await audit(tx, [{ courierId: null, apiKeyId: actor.apiKeyId, staffId: actor.staffId ?? null, action: "courier_reinvited", subject: `courier:${id}` }]);
  return { courier: opsCourierView(row), invite_token: invitation.token, invite_expires_at: invitation.expiresAt.toISOString() };
});

/** POST couriers/{id}/deactivation: no more logins, every session ends now, open invitations die. */
export const deactivateCourier = inTransaction(async function deactivateCourier(tx: Tx, actor: Actor, id: number): Promise<OpsCourier> {
  const row = await findCourier(tx, id);
  const now = new Date();
  const [updated] = row.deactivatedAt
    ? [row]
    : await tx.update(couriers).set({ deactivatedAt: now }).where(eq(couriers.id, id)).returning();
  await tx.delete(sessions).where(eq(sessions.courierId, id));
  await expireInvitations(tx, { courierId: id }, now);
  await audit(tx, [{ courierId: null, apiKeyId: actor.apiKeyId, staffId: actor.staffId ?? null, action: "courier_deactivated", subject: `courier:${id}` }]);
  return opsCourierView(updated!);
});

/** PATCH couriers/{id} (issue 28): what the planner plans the courier's day with. */
export const updateCourier = inTransaction(async function updateCourier(tx: Tx, actor: Actor, id: number, body: CourierUpdateRequest): Promise<OpsCourier> {
  await findCourier(tx, id);
  const changes: Partial<typeof couriers.$inferInsert> = {};
  if (body.start_location !== undefined) {
    changes.startLatitude = body.start_location?.latitude ?? null;
    changes.startLongitude = body.start_location?.longitude ?? null;
  }
  if (body.end_location !== undefined) {
    changes.endLatitude = body.end_location?.latitude ?? null;
    changes.endLongitude = body.end_location?.longitude ?? null;
  }
  if (body.shift_start !== undefined) changes.shiftStart = body.shift_start;
  if (body.shift_end !== undefined) changes.shiftEnd = body.shift_end;
  if (body.capacity !== undefined) changes.capacity = body.capacity;
  const [updated] = await tx.update(couriers).set(changes).where(eq(couriers.id, id)).returning();
  await audit(tx, [{ courierId: null, apiKeyId: actor.apiKeyId, staffId: actor.staffId ?? null, action: "courier_updated", subject: `courier:${id}` }]);
  return opsCourierView(updated!);
});

export async function listCouriers(tx: Tx): Promise<OpsCourier[]> {
  const rows = await tx.select().from(couriers).orderBy(asc(couriers.id));
  return rows.map(opsCourierView);
}
