import { asc, eq } from "drizzle-orm";
import type { OpsPharmacy, PharmacyCreateRequest, PharmacyUpdateRequest } from "../../../domain/contract/ops.ts";
import { pharmacies } from "../../db/schema.ts";
import { notFound } from "../../http/errors.ts";
import { audit } from "../../db/audit.ts";
import { pharmacyView } from "../../services/views.ts";
import { addressColumns } from "./address-columns.ts";
import { OPENING_HOURS } from "../../../domain/contract/ops.ts";
import { refuseBadWindow } from "./clock-windows.ts";
import { inTransaction, type Tx } from "../../db/client.ts";

type PharmacyRow = typeof pharmacies.$inferSelect;
/** Who acts: an API key, a dispatcher or pharmacist in the console (issue 27), or nobody when the demo day is loaded at start. */
export interface Actor {
  apiKeyId: number | null;
  staffId?: number | null;
}

export function opsPharmacyView(row: PharmacyRow): OpsPharmacy {
  return { ...pharmacyView(row), pickup_note: row.pickupNote, opening_time: row.openingTime, closing_time: row.closingTime };
}

function columnsOf(body: PharmacyUpdateRequest): Partial<typeof pharmacies.$inferInsert> {
  const columns: Partial<typeof pharmacies.$inferInsert> = {};
  if (body.name !== undefined) columns.name = body.name;
  if (body.phone_number !== undefined) columns.phoneNumber = body.phone_number;
  if (body.address !== undefined) Object.assign(columns, addressColumns(body.address));
  if (body.payment_methods !== undefined) columns.paymentMethods = body.payment_methods;
  if (body.allow_pod_copay_collection !== undefined) columns.allowPodCopayCollection = body.allow_pod_copay_collection;
  if (body.routing_enabled !== undefined) columns.routingEnabled = body.routing_enabled;
  if (body.dob_verification_enabled !== undefined) columns.dobVerificationEnabled = body.dob_verification_enabled;
  if (body.pod_recipient_config !== undefined) columns.podRecipientConfig = body.pod_recipient_config;
  if (body.can_skip_copay_collection !== undefined) columns.canSkipCopayCollection = body.can_skip_copay_collection;
  if (body.can_skip_signature !== undefined) columns.canSkipSignature = body.can_skip_signature;
  if (body.pod_photo_required !== undefined) columns.podPhotoRequired = body.pod_photo_required;
  if (body.pickup_note !== undefined) columns.pickupNote = body.pickup_note || null;
  if (body.opening_time !== undefined) columns.openingTime = body.opening_time ?? null;
  if (body.closing_time !== undefined) columns.closingTime = body.closing_time ?? null;
  return columns;
}

export async function assertPharmacyExists(tx: Tx, id: number): Promise<PharmacyRow> {
  const [row] = await tx.select().from(pharmacies).where(eq(pharmacies.id, id));
  if (!row) throw notFound(`Pharmacy ${id}`);
  return row;
}

export const createPharmacy = inTransaction(async function createPharmacy(tx: Tx, actor: Actor, body: PharmacyCreateRequest): Promise<OpsPharmacy> {
  const [row] = await tx
    .insert(pharmacies)
    .values(columnsOf(body) as typeof pharmacies.$inferInsert)
    .returning();
  await audit(tx, [{ courierId: null, apiKeyId: actor.apiKeyId, staffId: actor.staffId ?? null, action: "pharmacy_created", subject: `pharmacy:${row!.id}` }]);
  return opsPharmacyView(row!);
});

export const updatePharmacy = inTransaction(async function updatePharmacy(tx: Tx, actor: Actor, id: number, body: PharmacyUpdateRequest): Promise<OpsPharmacy> {
  const [row] = await tx.update(pharmacies).set(columnsOf(body)).where(eq(pharmacies.id, id)).returning();
  if (!row) throw notFound(`Pharmacy ${id}`);
  // One end of the hours changed alone is checked against the other end as stored.
  refuseBadWindow(row.openingTime, row.closingTime, OPENING_HOURS);
  await audit(tx, [{ courierId: null, apiKeyId: actor.apiKeyId, staffId: actor.staffId ?? null, action: "pharmacy_updated", subject: `pharmacy:${id}` }]);
  return opsPharmacyView(row);
});

export async function listPharmacies(tx: Tx): Promise<OpsPharmacy[]> {
  const rows = await tx.select().from(pharmacies).orderBy(asc(pharmacies.id));
  return rows.map(opsPharmacyView);
}
