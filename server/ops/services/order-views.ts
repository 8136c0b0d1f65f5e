import { and, asc, desc, eq, inArray, isNotNull } from "drizzle-orm";
import { actingParty, actingPartyRef } from "../../../domain/actors.ts";
import type { OpsOrder } from "../../../domain/contract/ops.ts";
import { auditEvents, couriers, payments, pharmacies, plannedStops } from "../../db/schema.ts";
import type { OrderRow } from "../../services/order-transitions.ts";
import { orderView, pharmacyView } from "../../services/views.ts";
import type { Tx } from "../../db/client.ts";
import { actorNames } from "./actor-names.ts";

/**
 * Order rows → the operations API's orders, each query once for the page:
 * the pharmacies; the couriers carrying them (by name, so a pharmacist's
 * console names the couriers carrying its orders without the dispatch-only
 * courier list, and nobody else); each order's place in its courier's applied
 * plan (the itinerary's planned_position, the driving order; a plan of
 * another courier's does not count); and the state of its last card payment.
 */
export async function opsOrdersView(tx: Tx, rows: OrderRow[]): Promise<OpsOrder[]> {
  if (rows.length === 0) return [];
  const ids = [...new Set(rows.map((row) => row.pharmacyId))];
  const courierIds = [...new Set(rows.flatMap((row) => (row.courierId === null ? [] : [row.courierId])))];
  const orderIds = rows.map((row) => row.id);
  const [pharmacyRows, courierRows, stopRows, paymentRows] = await Promise.all([
    tx.select().from(pharmacies).where(inArray(pharmacies.id, ids)),
    courierIds.length
      ? tx.select({ id: couriers.id, firstName: couriers.firstName, lastName: couriers.lastName }).from(couriers).where(inArray(couriers.id, courierIds))
      : [],
    tx.select({ orderId: plannedStops.orderId, courierId: plannedStops.courierId, position: plannedStops.deliveryPosition }).from(plannedStops).where(inArray(plannedStops.orderId, orderIds)),
    tx
      .select({ orderId: payments.orderId, status: payments.status })
      .from(payments)
      .where(and(inArray(payments.orderId, orderIds), eq(payments.paymentType, "card")))
      .orderBy(desc(payments.id)),
  ]);
  const byId = new Map(pharmacyRows.map((row) => [row.id, { ...pharmacyView(row), closing_time: row.closingTime }]));
  const courierById = new Map(courierRows.map((row) => [row.id, { id: row.id, first_name: row.firstName, last_name: row.lastName }]));
  const stopOf = new Map(stopRows.map((row) => [row.orderId, row]));
  const lastCardPayment = new Map<number, (typeof paymentRows)[number]["status"]>();
  for (const payment of paymentRows) if (!lastCardPayment.has(payment.orderId)) lastCardPayment.set(payment.orderId, payment.status);
  return rows.map((row) => {
    const stop = stopOf.get(row.id);
    const pharmacy = byId.get(row.pharmacyId)!;
    return {
      ...orderView(row, pharmacy),
      pharmacy,
      external_id: row.externalId,
      service_date: row.serviceDate,
      courier_id: row.courierId,
      courier: row.courierId === null ? null : (courierById.get(row.courierId) ?? null),
      planned_position: stop && stop.courierId === row.courierId ? stop.position : null,
      card_payment_status: lastCardPayment.get(row.id) ?? null,
      created_at: row.createdAt.toISOString(),
      updated_at: row.updatedAt.toISOString(),
    };
  });
}

export async function opsOrderView(tx: Tx, row: OrderRow): Promise<OpsOrder> {
  const [view] = await opsOrdersView(tx, [row]);
  return view!;
}

/** Every status an order has had, from the audit trail (its creation included), oldest first, with who moved it by name. */
export async function statusHistory(tx: Tx, orderId: number) {
  const rows = await tx
    .select()
    .from(auditEvents)
    .where(and(eq(auditEvents.orderId, orderId), isNotNull(auditEvents.toStatus)))
    .orderBy(asc(auditEvents.id));
  const names = await actorNames(tx, rows);
  return rows.map((row) => ({
    from_status: row.fromStatus,
    to_status: row.toStatus!,
    occurred_at: row.occurredAt.toISOString(),
    actor: actingPartyRef(actingParty(row)),
    acted_by: names.actorOf(row),
  }));
}
