import type { z } from "zod";
import type { WebhookOrder } from "../../../domain/webhook-events.ts";
import { statusById } from "../../../domain/vocabulary.ts";
import type { orders } from "../../db/schema.ts";

type OrderRow = typeof orders.$inferSelect;

/**
 * The order as an event carries it: who, where and what state, no patient
 * details (the proof endpoint has those, behind the key). Free of database
 * access, so the batch check's worker thread builds its JSON too.
 */
export function webhookOrder(row: Pick<OrderRow, "id" | "externalId" | "pharmacyId" | "courierId" | "serviceDate" | "statusId" | "updatedAt">): z.infer<typeof WebhookOrder> {
  return {
    id: row.id,
    external_id: row.externalId,
    pharmacy_id: row.pharmacyId,
    courier_id: row.courierId,
    service_date: row.serviceDate,
    status: statusById(row.statusId)!.name,
    updated_at: row.updatedAt.toISOString(),
  };
}

/** What an order's row to insert gives of it (a new order's status and courier are set; unset is null). */
export interface WebhookOrderParts {
  externalId?: string | null;
  pharmacyId: number;
  courierId?: number | null;
  serviceDate: string;
  statusId?: number;
}

const HEAD = '{"id":0,';
const TAIL = ',"updated_at":';

/**
 * JSON.stringify(webhookOrder(row)) without its first member (the id) and its
 * last (updated_at), the two the insert gives: an orders batch builds this
 * part before the insert, in the batch check's worker (issue 25).
 */
export function webhookOrderMiddle(row: WebhookOrderParts): string {
  const { externalId = null, pharmacyId, courierId = null, serviceDate, statusId } = row;
  if (statusId === undefined) throw new Error("webhookOrderMiddle: the row has no status");
  const json = JSON.stringify(webhookOrder({ id: 0, externalId, pharmacyId, courierId, serviceDate, statusId, updatedAt: new Date(0) }));
  return json.slice(HEAD.length, json.lastIndexOf(TAIL));
}

/** The same text as JSON.stringify(webhookOrder(row)), from webhookOrderMiddle(row), the id and updated_at (ISO). */
export const webhookOrderJson = (id: number, middle: string, updatedAt: string): string => `{"id":${id},${middle}${TAIL}"${updatedAt}"}`;
