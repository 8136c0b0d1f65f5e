import { and, count, eq, inArray, isNull } from "drizzle-orm";
import type { AssignmentRequest, AssignmentResponse, OpsOrder } from "../../../domain/contract/ops.ts";
import { canMoveOrder, statusInWords } from "../../../domain/assignment-rules.ts";
import { orderDateProblems } from "../../../domain/date-rules.ts";
import { couriers, orders, pharmacyVisits } from "../../db/schema.ts";
import { conflict, notFound } from "../../http/errors.ts";
import { audit } from "../../db/audit.ts";
import { applyTransition, statusNameOf, type OrderRow } from "../../services/order-transitions.ts";
import { recordDispatchEvents } from "../../services/events/record.ts";
import { enqueueOrderEvent, enqueueOrderRescheduled, webhookOrder } from "../../services/webhooks/order-events.ts";
import { opsOrdersView, opsOrderView } from "./order-views.ts";
import { dateRefusal, lockVisibleOrder } from "./orders.ts";
import type { Actor } from "./pharmacies.ts";
import { inTransaction, type Tx } from "../../db/client.ts";

/**
 * A courier's pharmacy visit of a day that no order needs any more (all its
 * orders were moved or unassigned) goes, unless the courier already arrived.
 */
async function dropEmptyVisits(tx: Tx, courierId: number, serviceDate: string, pharmacyIds: number[]): Promise<void> {
  for (const pharmacyId of new Set(pharmacyIds)) {
    const [left] = await tx
      .select({ n: count() })
      .from(orders)
      .where(and(eq(orders.courierId, courierId), eq(orders.serviceDate, serviceDate), eq(orders.pharmacyId, pharmacyId)));
    if ((left?.n ?? 0) > 0) continue;
    await tx
      .delete(pharmacyVisits)
      .where(
        and(
          eq(pharmacyVisits.courierId, courierId),
          eq(pharmacyVisits.serviceDate, serviceDate),
          eq(pharmacyVisits.pharmacyId, pharmacyId),
          isNull(pharmacyVisits.arrivedAt),
        ),
      );
  }
}

/** Already submitted to this courier for this day: assigning it again is a replay. */
function alreadyAssigned(row: OrderRow, courierId: number, serviceDate: string): boolean {
  return statusNameOf(row) === "submitted_to_courier" && row.courierId === courierId && row.serviceDate === serviceDate;
}

/**
 * POST assignments: the orders go to the courier's day. A new order is
 * submitted to the courier (the lifecycle's SUBMIT_TO_COURIER); one already
 * submitted to another courier moves; anything further along is 409 and
 * nothing is assigned. A pharmacy visit per pharmacy is made with confirmed
 * null, so the courier's app asks to confirm it (spec §2). An order of
 * another day is rescheduled to this one (custody and order.rescheduled);
 * an order already on this courier's day is left as it is (unchanged).
 */
export const assignOrders = inTransaction(async function assignOrders(tx: Tx, actor: Actor, body: AssignmentRequest, options: { today?: string } = {}): Promise<AssignmentResponse> {
  // The courier row is the lock: two assignments to one courier make one visit per pharmacy.
  const [courier] = await tx.select().from(couriers).where(eq(couriers.id, body.courier_id)).for("update");
  if (!courier) throw notFound(`Courier ${body.courier_id}`);
  if (courier.deactivatedAt) throw conflict(`Courier ${courier.id} is deactivated: orders cannot be assigned to them.`);

  const rows = await tx.select().from(orders).where(inArray(orders.id, body.order_ids)).orderBy(orders.id).for("update");
  const found = new Set(rows.map((row) => row.id));
  const missing = body.order_ids.find((id) => !found.has(id));
  if (missing !== undefined) throw notFound(`Order ${missing}`);
  for (const row of rows) {
    const status = statusNameOf(row);
    if (!canMoveOrder(status)) {
      throw conflict(`Order ${row.id} is ${statusInWords(status)}: only an order not yet picked up can be assigned.`);
    }
  }

  const actorIds = { courierId: null, apiKeyId: actor.apiKeyId, staffId: actor.staffId ?? null };
  const assignment = { courierId: courier.id, serviceDate: body.service_date, availableAsAddon: false, updatedAt: new Date() };
  // The same assignment sent again (a retry after a lost answer) changes nothing: no custody row, no second event.
  const unchanged = rows.filter((row) => alreadyAssigned(row, courier.id, body.service_date));
  const changing = rows.filter((row) => !alreadyAssigned(row, courier.id, body.service_date));
  // The date rule (domain/date-rules.ts): nothing is put on a day gone by; an exact replay (all unchanged) stays harmless after midnight.
  const dateProblems = options.today && changing.length ? orderDateProblems({ service_date: body.service_date }, options.today) : [];
  if (dateProblems.length) throw dateRefusal(dateProblems);
  const fresh = changing.filter((row) => statusNameOf(row) === "new");
  const moved = changing.filter((row) => statusNameOf(row) !== "new");
  const updated: OrderRow[] = fresh.length ? await applyTransition(tx, actorIds, fresh, "SUBMIT_TO_COURIER", assignment) : [];
  if (moved.length) {
    const reassigned = await tx.update(orders).set(assignment).where(inArray(orders.id, moved.map((row) => row.id))).returning();
    // A reassignment is no lifecycle transition, but the pharmacy hears of it like the first assignment.
    for (const row of reassigned) await enqueueOrderEvent(tx, "order.assigned", row);
    updated.push(...reassigned);
  }
  // Another day moves the order to this one: said in the custody and to the pharmacy, never silently.
  const rescheduled = changing.filter((row) => row.serviceDate !== body.service_date);
  for (const row of rescheduled) await enqueueOrderRescheduled(tx, updated.find((done) => done.id === row.id)!, row.serviceDate);
  await audit(tx, [
    ...changing.map((row) => ({ ...actorIds, action: "order_assigned" as const, orderId: row.id, subject: `courier:${courier.id}` })),
    ...rescheduled.map((row) => ({
      ...actorIds,
      action: "order_rescheduled" as const,
      orderId: row.id,
      details: { from: row.serviceDate, to: body.service_date },
    })),
  ]);
  updated.push(...unchanged);

  // The previous couriers no longer see these orders; their visits that served only them go.
  for (const row of moved) {
    if (row.courierId !== null && (row.courierId !== courier.id || row.serviceDate !== body.service_date)) {
      await dropEmptyVisits(tx, row.courierId, row.serviceDate, [row.pharmacyId]);
    }
  }

  const pharmacyIds = [...new Set(rows.map((row) => row.pharmacyId))];
  const existing = await tx
    .select()
    .from(pharmacyVisits)
    .where(and(eq(pharmacyVisits.courierId, courier.id), eq(pharmacyVisits.serviceDate, body.service_date), inArray(pharmacyVisits.pharmacyId, pharmacyIds)));
  const visited = new Set(existing.map((visit) => visit.pharmacyId));
  const toCreate = pharmacyIds.filter((id) => !visited.has(id));
  const created = toCreate.length
    ? await tx
        .insert(pharmacyVisits)
        .values(toCreate.map((pharmacyId) => ({ courierId: courier.id, pharmacyId, serviceDate: body.service_date, confirmed: null })))
        .returning()
    : [];

  updated.sort((a, b) => a.id - b.id);
  return {
    orders: await opsOrdersView(tx, updated),
    rescheduled: rescheduled.map((row) => ({ order_id: row.id, from: row.serviceDate, to: body.service_date })),
    unchanged: unchanged.map((row) => row.id),
    pharmacy_visits: [...existing, ...created]
      .sort((a, b) => a.id - b.id)
      .map((visit) => ({
        id: visit.id,
        courier_id: visit.courierId,
        pharmacy_id: visit.pharmacyId,
        service_date: visit.serviceDate,
        confirmed: visit.confirmed,
      })),
  };
});

/** DELETE assignments/{order_id}: back to new with no courier, before pickup (409 after). */
export const unassignOrder = inTransaction(async function unassignOrder(tx: Tx, actor: Actor, orderId: number): Promise<OpsOrder> {
  const row = await lockVisibleOrder(tx, orderId, null);
  const actorIds = { courierId: null, apiKeyId: actor.apiKeyId, staffId: actor.staffId ?? null };
  const status = statusNameOf(row);
  let updated: OrderRow;
  if (status === "new") {
    if (row.courierId === null) throw conflict(`Order ${orderId} is not assigned to a courier.`);
    [updated] = (await tx.update(orders).set({ courierId: null, updatedAt: new Date() }).where(eq(orders.id, orderId)).returning()) as [OrderRow];
  } else {
    [updated] = (await applyTransition(tx, actorIds, [row], "UNASSIGN", { courierId: null, availableAsAddon: false })) as [OrderRow];
  }
  await audit(tx, [{ ...actorIds, action: "order_unassigned", orderId, subject: row.courierId !== null ? `courier:${row.courierId}` : null }]);
  await recordDispatchEvents(tx, [{ type: "order.unassigned", pharmacyId: updated.pharmacyId, data: { order: webhookOrder(updated), from_courier_id: row.courierId }, at: updated.updatedAt }]);
  if (row.courierId !== null) await dropEmptyVisits(tx, row.courierId, row.serviceDate, [row.pharmacyId]);
  return opsOrderView(tx, updated);
});

