import { and, eq } from "drizzle-orm";
import type { Db } from "../../../db/client.ts";
import { orders } from "../../../db/schema.ts";
import { notFound } from "../../../http/errors.ts";
import type { OrderRow } from "../../../services/order-transitions.ts";

/** What an operations key may read: a dispatch key (pharmacyId null) everything, a pharmacy key its own pharmacy's. */
export interface OpsScope {
  pharmacyId: number | null;
}

/** The order, if the key may see it; another pharmacy's order is "not found", like a missing one. */
export async function scopedOrder(db: Db, scope: OpsScope, orderId: number): Promise<OrderRow> {
  const [row] = await db
    .select()
    .from(orders)
    .where(and(eq(orders.id, orderId), scope.pharmacyId === null ? undefined : eq(orders.pharmacyId, scope.pharmacyId)));
  if (!row) throw notFound(`Order ${orderId}`);
  return row;
}

export const OPS_BASE = "/api/ops/v1";
export const signatureUrl = (orderId: number) => `${OPS_BASE}/orders/${orderId}/proof/signature.svg`;
export const photoUrl = (orderId: number) => `${OPS_BASE}/orders/${orderId}/proof/photo`;
export const returnSignatureUrl = (returnId: number) => `${OPS_BASE}/returns/${returnId}/signature.svg`;
export const returnPdfUrl = (returnId: number) => `${OPS_BASE}/returns/${returnId}.pdf`;
