import { and, desc, eq, lt, type SQL } from "drizzle-orm";
import {
  type OrderCreateRequest,
  type OpsOrder,
  type OrderListQuery,
  type OrderUpdateOpsRequest,
} from "../../../domain/contract/ops.ts";
import { orderDateProblems } from "../../../domain/date-rules.ts";
import { totalDueProblem } from "../../../domain/money.ts";
import { statusByName, type OrderStatusName } from "../../../domain/vocabulary.ts";
import { type Db, type Tx, inTransaction } from "../../db/client.ts";
import { orders, pharmacies } from "../../db/schema.ts";
import { badRequest, conflict, type HttpError, notFound } from "../../http/errors.ts";
import { audit } from "../../db/audit.ts";
import { applyTransition, statusNameOf, type OrderRow } from "../../services/order-transitions.ts";
import { recordDispatchEvents } from "../../services/events/record.ts";
import { enqueueOrderEvent, webhookOrder } from "../../services/webhooks/order-events.ts";
import { addressColumns } from "./address-columns.ts";
import { DELIVERY_WINDOW } from "../../../domain/contract/ops.ts";
import { refuseBadWindow } from "./clock-windows.ts";
import { opsOrdersView, opsOrderView, statusHistory } from "./order-views.ts";
import { requestHashOf } from "./order-hash.ts";
import { cents, notesOf, orderValues } from "./order-values.ts";
import type { Actor } from "./pharmacies.ts";

export { orderValues, requestHashOf };

/** The statuses in which the pharmacy may still change an order: it has not left the pharmacy. */
const EDITABLE: ReadonlySet<OrderStatusName> = new Set(["new", "submitted_to_courier", "verified"]);

export type PharmacyRow = typeof pharmacies.$inferSelect;

export interface CreateOptions {
  /** The service's calendar day: an order without service_date is for today. */
  today: string;
  /** The pharmacy a pharmacy key is confined to (null: dispatch). */
  scope: number | null;
  /** Pharmacies already loaded in this batch. */
  pharmacyCache?: Map<number, PharmacyRow | null>;
}

async function pharmacyFor(tx: Tx, id: number, options: CreateOptions): Promise<PharmacyRow> {
  // Another pharmacy's id is answered like a missing one: a pharmacy key learns nothing of the others.
  if (options.scope !== null && options.scope !== id) throw notFound(`Pharmacy ${id}`);
  let row = options.pharmacyCache?.get(id);
  if (row === undefined) {
    [row = null] = await tx.select().from(pharmacies).where(eq(pharmacies.id, id));
    options.pharmacyCache?.set(id, row);
  }
  if (!row) throw notFound(`Pharmacy ${id}`);
  return row;
}

/** The row an order body makes: one place for the single create and the batch. */

/** The refusal of another body for an external_id already used: change it with PATCH instead. */
export const externalIdConflictMessage = (existing: OrderRow, externalId: string) =>
  `Order ${existing.id} already has external_id ${externalId} at pharmacy ${existing.pharmacyId} with different details; change it with PATCH /api/ops/v1/orders/${existing.id}.`;

/** The date rule's refusal, in the shape of a body validation error. */
export function dateRefusal(problems: { path: string; message: string }[]): HttpError {
  const details = problems.map((problem) => ({ path: `body.${problem.path}`, message: problem.message }));
  return badRequest(`Invalid ${details[0]!.path}: ${details[0]!.message}`, details);
}

/**
 * Creates an order, or finds the one this (pharmacy_id, external_id) already
 * made: the same body is `unchanged`, a different one 409. Concurrent
 * creations of the same external_id (several API processes) meet at the
 * unique index: one inserts, the others find its order. A date the rule
 * refuses (a service date gone by) is 400 — unless the body is an exact replay
 * of the stored order: a nightly file sent again after midnight stays harmless.
 */
export const createOrder = inTransaction(async function createOrder(
  tx: Tx,
  actor: Actor,
  body: OrderCreateRequest,
  options: CreateOptions,
): Promise<{ order: OrderRow; created: boolean }> {
  const pharmacy = await pharmacyFor(tx, body.pharmacy_id, options);
  const requestHash = requestHashOf(body);
  const dateProblems = orderDateProblems(body, options.today);
  if (dateProblems.length) {
    const [stored] = await tx
      .select()
      .from(orders)
      .where(and(eq(orders.pharmacyId, pharmacy.id), eq(orders.externalId, body.external_id)));
    if (stored && stored.requestHash === requestHash) return { order: stored, created: false };
    throw dateRefusal(dateProblems);
  }
  const [inserted] = await tx
    .insert(orders)
    .values(orderValues(body, pharmacy, requestHash, options.today))
    .onConflictDoNothing({ target: [orders.pharmacyId, orders.externalId] })
    .returning();
  if (inserted) {
    await audit(tx, [{ courierId: null, apiKeyId: actor.apiKeyId, staffId: actor.staffId ?? null, action: "order_created", orderId: inserted.id, toStatus: "new" }]);
    await enqueueOrderEvent(tx, "order.created", inserted);
    return { order: inserted, created: true };
  }
  const [existing] = await tx
    .select()
    .from(orders)
    .where(and(eq(orders.pharmacyId, pharmacy.id), eq(orders.externalId, body.external_id)));
  if (!existing) throw new Error(`order ${body.external_id} conflicted but cannot be found`);
  if (existing.requestHash !== requestHash) throw conflict(externalIdConflictMessage(existing, body.external_id));
  return { order: existing, created: false };
});

/** One order the caller may see, locked for change; another pharmacy's is 404 like a missing one. */
export async function lockVisibleOrder(tx: Tx, id: number, scope: number | null): Promise<OrderRow> {
  const [row] = await tx.select().from(orders).where(eq(orders.id, id)).for("update");
  if (!row || (scope !== null && row.pharmacyId !== scope)) throw notFound(`Order ${id}`);
  return row;
}

function refuseUnlessEditable(row: OrderRow, what: string): void {
  const status = statusNameOf(row);
  if (!EDITABLE.has(status)) {
    throw conflict(`Order ${row.id} is ${status.replace(/_/g, " ")}: it left the pharmacy and can no longer be ${what}.`);
  }
}

/** PATCH orders/{id}: the pharmacy corrects an order until it is picked up. */
export const updateOrder = inTransaction(async function updateOrder(
  tx: Tx,
  actor: Actor,
  id: number,
  body: OrderUpdateOpsRequest,
  scope: number | null,
  today: string,
): Promise<OpsOrder> {
  const row = await lockVisibleOrder(tx, id, scope);
  refuseUnlessEditable(row, "changed");
  // The date rule holds for the dates this body sends; the stored ones were checked when they came.
  const dateProblems = orderDateProblems(body, today);
  if (dateProblems.length) throw dateRefusal(dateProblems);
  const changes: Partial<typeof orders.$inferInsert> = { updatedAt: new Date() };
  if (body.patient_first_name !== undefined) changes.patientFirstName = body.patient_first_name;
  if (body.patient_last_name !== undefined) changes.patientLastName = body.patient_last_name;
  if (body.patient_first_name !== undefined || body.patient_last_name !== undefined) {
    changes.recipientDescription = `${changes.patientFirstName ?? row.patientFirstName} ${changes.patientLastName ?? row.patientLastName}`;
  }
  if (body.patient_date_of_birth !== undefined) changes.patientDateOfBirth = body.patient_date_of_birth;
  if (body.phone_number !== undefined) changes.phoneNumber = body.phone_number;
  if (body.address !== undefined) Object.assign(changes, addressColumns(body.address));
  if (body.rx_numbers !== undefined) changes.rxNumbers = body.rx_numbers;
  if (body.copay !== undefined) changes.copayCents = cents(body.copay);
  if (body.delivery_fee !== undefined) changes.deliveryFeeCents = cents(body.delivery_fee);
  if (body.other_items_amount_due !== undefined) changes.otherItemsAmountDueCents = cents(body.other_items_amount_due) ?? 0;
  if (body.pid_order !== undefined) changes.pidOrder = body.pid_order;
  if (body.collect_identification !== undefined) changes.collectIdentification = body.collect_identification;
  if (body.controlled_substance !== undefined) changes.controlledSubstance = body.controlled_substance;
  if (body.signature_required !== undefined) changes.signatureRequired = body.signature_required;
  if (body.pickup_note !== undefined) changes.pickupNote = body.pickup_note || null;
  if (body.service_date !== undefined) {
    if (row.courierId !== null) throw conflict(`Order ${id} is on a courier's day: unassign it before moving it to another day.`);
    changes.serviceDate = body.service_date;
  }
  // The money rule over the order as it will be: one amount changed can push the total past one payment.
  const totalProblem = totalDueProblem({
    copay: changes.copayCents !== undefined ? changes.copayCents : row.copayCents,
    deliveryFee: changes.deliveryFeeCents !== undefined ? changes.deliveryFeeCents : row.deliveryFeeCents,
    otherItems: changes.otherItemsAmountDueCents ?? row.otherItemsAmountDueCents,
  });
  if (totalProblem) throw badRequest(`Invalid body: ${totalProblem}`, [{ path: "body", message: totalProblem }]);
  if (body.delivery_instruction !== undefined || body.superuser_note !== undefined) {
    // The pharmacy's notes are replaced; a note the courier wrote stays.
    const kept = row.deliveryNotes.filter(
      (note) => note.courier_note || (body.delivery_instruction === undefined && !note.superuser_note) || (body.superuser_note === undefined && note.superuser_note),
    );
    changes.deliveryNotes = [...kept, ...notesOf(body.delivery_instruction, body.superuser_note)];
  }
  applyDeliveryWindow(row, body, changes);
  const [updated] = await tx.update(orders).set(changes).where(eq(orders.id, id)).returning();
  await audit(tx, [{ courierId: null, apiKeyId: actor.apiKeyId, staffId: actor.staffId ?? null, action: "order_updated", orderId: id }]);
  await recordDispatchEvents(tx, [{ type: "order.updated", pharmacyId: updated!.pharmacyId, data: { order: webhookOrder(updated!) }, at: updated!.updatedAt }]);
  return opsOrderView(tx, updated!);
});

/** Issue 28: a window end sent alone is checked with the order's other end (null clears it). */
function applyDeliveryWindow(row: OrderRow, body: OrderUpdateOpsRequest, changes: Partial<typeof orders.$inferInsert>): void {
  if (body.delivery_window_start === undefined && body.delivery_window_end === undefined) return;
  const start = body.delivery_window_start !== undefined ? body.delivery_window_start : row.deliveryWindowStart;
  const end = body.delivery_window_end !== undefined ? body.delivery_window_end : row.deliveryWindowEnd;
  refuseBadWindow(start ?? null, end ?? null, DELIVERY_WINDOW);
  changes.deliveryWindowStart = start ?? null;
  changes.deliveryWindowEnd = end ?? null;
}

/** POST orders/{id}/cancellation: through the lifecycle machine (409 once picked up). */
export const cancelOpsOrder = inTransaction(async function cancelOpsOrder(tx: Tx, actor: Actor, id: number, scope: number | null): Promise<OpsOrder> {
  const row = await lockVisibleOrder(tx, id, scope);
  const [updated] = await applyTransition(tx, { courierId: null, apiKeyId: actor.apiKeyId, staffId: actor.staffId ?? null }, [row], "CANCEL");
  return opsOrderView(tx, updated!);
});

export async function getOpsOrder(db: Db, id: number, scope: number | null) {
  const [row] = await db.select().from(orders).where(eq(orders.id, id));
  if (!row || (scope !== null && row.pharmacyId !== scope)) throw notFound(`Order ${id}`);
  return { ...(await opsOrderView(db, row)), status_history: await statusHistory(db, id) };
}

const encodeCursor = (id: number) => Buffer.from(`o${id}`).toString("base64url");
function decodeCursor(cursor: string): number {
  const text = Buffer.from(cursor, "base64url").toString();
  const id = /^o(\d{1,10})$/.exec(text)?.[1];
  if (!id) throw badRequest("Invalid query.cursor: must be a next_cursor from an earlier page", [{ path: "query.cursor", message: "must be a next_cursor from an earlier page" }]);
  return Number(id);
}

/** GET orders: newest first (by id, which only grows), a page at a time. */
export async function listOpsOrders(db: Db, query: OrderListQuery, scope: number | null) {
  if (scope !== null && query.pharmacy_id !== undefined && query.pharmacy_id !== scope) throw notFound(`Pharmacy ${query.pharmacy_id}`);
  const where: SQL[] = [];
  const pharmacyId = scope ?? query.pharmacy_id;
  if (pharmacyId !== undefined) where.push(eq(orders.pharmacyId, pharmacyId));
  if (query.service_date) where.push(eq(orders.serviceDate, query.service_date));
  if (query.status) where.push(eq(orders.statusId, statusByName(query.status).id));
  if (query.courier_id !== undefined) where.push(eq(orders.courierId, query.courier_id));
  if (query.cursor) where.push(lt(orders.id, decodeCursor(query.cursor)));
  const rows = await db
    .select()
    .from(orders)
    .where(and(...where))
    .orderBy(desc(orders.id))
    .limit(query.limit + 1);
  const page = rows.slice(0, query.limit);
  return {
    orders: await opsOrdersView(db, page),
    next_cursor: rows.length > query.limit ? encodeCursor(page[page.length - 1]!.id) : null,
  };
}
