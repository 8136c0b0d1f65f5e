import { and, asc, eq, inArray, isNotNull } from "drizzle-orm";
import type { OpsOrder } from "../../../domain/contract/ops.ts";
import { auditEvents, pharmacies } from "../../db/schema.ts";
import type { OrderRow } from "../../services/order-transitions.ts";
import { orderView, pharmacyView } from "../../services/views.ts";
import type { Tx } from "../../db/client.ts";

/** Order rows → the operations API's orders, pharmacies loaded once. */
export async function opsOrdersView(tx: Tx, rows: OrderRow[]): Promise<OpsOrder[]> {
  const ids = [...new Set(rows.map((row) => row.pharmacyId))];
  const pharmacyRows = ids.length ? await tx.select().from(pharmacies).where(inArray(pharmacies.id, ids)) : [];
  const byId = new Map(pharmacyRows.map((row) => [row.id, pharmacyView(row)]));
  return rows.map((row) => ({
    ...orderView(row, byId.get(row.pharmacyId)!),
    external_id: row.externalId,
    service_date: row.serviceDate,
    courier_id: row.courierId,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  }));
}

export async function opsOrderView(tx: Tx, row: OrderRow): Promise<OpsOrder> {
  const [view] = await opsOrdersView(tx, [row]);
  return view!;
}

/** Every status an order has had, from the audit trail (its creation included), oldest first. */
export async function statusHistory(tx: Tx, orderId: number) {
  const rows = await tx
    .select()
    .from(auditEvents)
    .where(and(eq(auditEvents.orderId, orderId), isNotNull(auditEvents.toStatus)))
    .orderBy(asc(auditEvents.id));
  return rows.map((row) => ({
    from_status: row.fromStatus,
    to_status: row.toStatus!,
    occurred_at: row.occurredAt.toISOString(),
    actor: row.courierId != null ? `courier:${row.courierId}` : row.staffId != null ? `staff:${row.staffId}` : row.apiKeyId != null ? `key:${row.apiKeyId}` : null,
  }));
}
