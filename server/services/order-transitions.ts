import { and, eq, inArray } from "drizzle-orm";
import { statusById, statusByName, type OrderStatusName } from "../../domain/vocabulary.ts";
import type { OrderLifecycleEvent } from "../../machines/order-lifecycle.machine.ts";
import { nextOrderStatus } from "../../machines/order-status.ts";
import type { Tx } from "../db/client.ts";
import { orders } from "../db/schema.ts";
import { conflict, notFound } from "../http/errors.ts";
import { audit } from "../db/audit.ts";
import { enqueueOrderEvent, WEBHOOK_FOR_LIFECYCLE } from "./webhooks/order-events.ts";

export type OrderRow = typeof orders.$inferSelect;

const EVENT_WORDS: Record<OrderLifecycleEvent["type"], string> = {
  SUBMIT_TO_COURIER: "assigned to a courier",
  UNASSIGN: "taken off the courier's day",
  VERIFY: "verified",
  PICK_UP: "picked up",
  CANCEL: "cancelled",
  DELIVER: "delivered",
  ATTEMPT_DELIVERY: "marked as a failed delivery attempt",
  RETURN_TO_PHARMACY: "returned to the pharmacy",
  RECONCILE: "reconciled",
};

export function statusNameOf(order: OrderRow): OrderStatusName {
  return statusById(order.statusId)!.name;
}

/**
 * Loads the courier's own orders, locked for this transaction. Another
 * courier's order is indistinguishable from a missing one (404).
 */
export async function lockOwnOrders(tx: Tx, courierId: number, orderIds: number[]): Promise<OrderRow[]> {
  const unique = [...new Set(orderIds)];
  const rows = await tx
    .select()
    .from(orders)
    .where(and(inArray(orders.id, unique), eq(orders.courierId, courierId)))
    .orderBy(orders.id)
    .for("update");
  const found = new Set(rows.map((row) => row.id));
  const missing = unique.find((id) => !found.has(id));
  if (missing !== undefined) throw notFound(`Order ${missing}`);
  return rows;
}

/** Throws 409 unless the lifecycle machine allows the event for every order. */
export function planTransition(rows: OrderRow[], event: OrderLifecycleEvent["type"]): Map<number, OrderStatusName> {
  const plan = new Map<number, OrderStatusName>();
  for (const row of rows) {
    const from = statusNameOf(row);
    const to = nextOrderStatus(from, event, { paymentType: row.paymentType, paymentCollected: row.paymentCollected });
    if (!to) throw conflict(`Order ${row.id} is ${from.replace(/_/g, " ")} and cannot be ${EVENT_WORDS[event]}.`);
    plan.set(row.id, to);
  }
  return plan;
}

/** Where the phone said it was, when it sent a position: kept in the audit trail for the chain of custody. */
export interface TransitionPosition {
  latitude?: number | null;
  longitude?: number | null;
}

/** Who moved an order: a courier (their id), an operations API key, or a dispatcher or pharmacist (issue 27). */
export type TransitionActor = number | { courierId: number | null; apiKeyId: number | null; staffId?: number | null };

/** The columns a transition writes besides the status. */
export type OrderChanges = Partial<Omit<OrderRow, "id" | "statusId">>;

/** One order's move: the status it goes to and the columns written with it. */
export interface OrderMove {
  to: OrderStatusName;
  changes: OrderChanges;
}

/**
 * Moves orders through the lifecycle in one go, with any extra column
 * changes, writes the audit trail and puts the webhook events in the outbox.
 * Call inside a transaction: the events exist only if the change commits.
 */
export async function applyTransition(
  tx: Tx,
  actor: TransitionActor,
  rows: OrderRow[],
  event: OrderLifecycleEvent["type"],
  changes: OrderChanges = {},
  clientOccurredAt: Date | null = null,
  position: TransitionPosition = {},
): Promise<OrderRow[]> {
  const plan = planTransition(rows, event);
  const moves = new Map([...plan].map(([id, to]) => [id, { to, changes }]));
  return applyMoves(tx, actor, rows, event, moves, clientOccurredAt, position);
}

/**
 * applyTransition for moves planned elsewhere (a delivery's come from
 * domain/delivery-outcome.ts, through the same lifecycle): every row must
 * have its move.
 */
export async function applyMoves(
  tx: Tx,
  actor: TransitionActor,
  rows: OrderRow[],
  event: OrderLifecycleEvent["type"],
  moves: ReadonlyMap<number, OrderMove>,
  clientOccurredAt: Date | null = null,
  position: TransitionPosition = {},
): Promise<OrderRow[]> {
  const moveOf = (row: OrderRow): OrderMove => {
    const move = moves.get(row.id);
    if (!move) throw new Error(`Order ${row.id} has no planned move for ${event}.`);
    return move;
  };
  const updated: OrderRow[] = [];
  for (const row of rows) {
    const { to, changes } = moveOf(row);
    const [next] = await tx
      .update(orders)
      .set({ ...changes, statusId: statusByName(to).id, updatedAt: new Date() })
      .where(eq(orders.id, row.id))
      .returning();
    updated.push(next!);
  }
  await audit(
    tx,
    rows.map((row) => ({
      ...(typeof actor === "number" ? { courierId: actor } : actor),
      action: "status_change" as const,
      orderId: row.id,
      fromStatus: statusNameOf(row),
      toStatus: moveOf(row).to,
      clientOccurredAt,
      latitude: position.latitude ?? null,
      longitude: position.longitude ?? null,
    })),
  );
  const webhook = WEBHOOK_FOR_LIFECYCLE[event];
  if (webhook) for (const row of updated) await enqueueOrderEvent(tx, webhook, row);
  return updated;
}
