import { getTableColumns } from "drizzle-orm";
import type { OrderCreateRequest } from "../../../domain/contract/ops.ts";
import { parseDecimalToCents } from "../../../domain/money.ts";
import { statusByName } from "../../../domain/vocabulary.ts";
import { orders, type pharmacies } from "../../db/schema.ts";
import type { OrderRow } from "../../services/order-transitions.ts";
import { addressColumns } from "./address-columns.ts";

/**
 * An order body → the columns it writes (the single create and the batch).
 * Its own file, free of database access, so the batch check's worker thread
 * can build a row's JSON for the insert (batch-check/rows.ts).
 */

type DeliveryNote = OrderRow["deliveryNotes"][number];
export type OrderValues = typeof orders.$inferInsert;

export const cents = (value: string | null | undefined) => (value == null ? null : parseDecimalToCents(value));

export function notesOf(instruction: string | null | undefined, superuser: string | null | undefined): DeliveryNote[] {
  const notes: DeliveryNote[] = [];
  if (instruction) notes.push({ courier_note: false, delivery_instruction: instruction, superuser_note: false });
  if (superuser) notes.push({ courier_note: false, delivery_instruction: superuser, superuser_note: true });
  return notes;
}

/** The pharmacy's part in an order's columns: its id and its pickup note (an order without one of its own takes the pharmacy's). */
export type OrderPharmacy = Pick<typeof pharmacies.$inferSelect, "id" | "pickupNote">;

export function orderValues(body: OrderCreateRequest, pharmacy: OrderPharmacy, requestHash: string, today: string): OrderValues {
  return {
    pharmacyId: pharmacy.id,
    externalId: body.external_id,
    requestHash,
    courierId: null,
    serviceDate: body.service_date ?? today,
    statusId: statusByName("new").id,
    patientFirstName: body.patient_first_name,
    patientLastName: body.patient_last_name,
    patientDateOfBirth: body.patient_date_of_birth ?? null,
    recipientDescription: `${body.patient_first_name} ${body.patient_last_name}`,
    ...addressColumns(body.address),
    phoneNumber: body.phone_number,
    rxNumbers: body.rx_numbers,
    pickupNote: body.pickup_note || pharmacy.pickupNote || null,
    copayCents: cents(body.copay),
    deliveryFeeCents: cents(body.delivery_fee),
    otherItemsAmountDueCents: cents(body.other_items_amount_due) ?? 0,
    pidOrder: body.pid_order ?? false,
    collectIdentification: body.collect_identification ?? false,
    controlledSubstance: body.controlled_substance ?? false,
    signatureRequired: body.signature_required ?? false,
    deliveryNotes: notesOf(body.delivery_instruction, body.superuser_note),
    deliveryWindowStart: body.delivery_window_start ?? null,
    deliveryWindowEnd: body.delivery_window_end ?? null,
  };
}

export const ORDER_COLUMNS = getTableColumns(orders);

/** One row as jsonb_populate_recordset reads it: these columns (every row orderValues builds sets the same ones), by their names. */
export function orderRowJson(keys: readonly (keyof OrderValues)[], row: OrderValues): string {
  const out: Record<string, unknown> = {};
  for (const key of keys) out[ORDER_COLUMNS[key].name] = row[key] ?? null;
  return JSON.stringify(out);
}
