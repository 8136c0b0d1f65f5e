import { eq } from "drizzle-orm";
import type { Order } from "../../domain/contract/entities.ts";
import { statusById, type OrderStatusName } from "../../domain/vocabulary.ts";
import type { OrderLifecycleEvent } from "../../machines/order-lifecycle.machine.ts";
import { eventBetween, nextOrderStatus } from "../../machines/order-status.ts";
import type { Db } from "../db/client.ts";
import { orders } from "../db/schema.ts";
import { badRequest, conflict } from "../http/errors.ts";
import { assertedCopayCents, copayChange } from "./asserted-copay.ts";
import { audit } from "../db/audit.ts";
import { ordersView } from "./order-responses.ts";
import { applyTransition, lockOwnOrders, statusNameOf, type OrderRow } from "./order-transitions.ts";

/**
 * Pickup at the pharmacy counter (spec §4 "Verify flow", §7): the copay
 * assertion, the pickup, cancellation, and a status change by id.
 */

const words = (status: OrderStatusName) => status.replace(/_/g, " ");

/**
 * The status changes PUT /orders/{id} may make: the pickup-stage ones.
 * Delivered, attempted, returned and reconciled are recorded with their
 * delivery or return (signature, payment, pharmacy staff), never by a bare status.
 */
const PICKUP_EVENTS: ReadonlySet<OrderLifecycleEvent["type"]> = new Set(["VERIFY", "PICK_UP", "CANCEL"]);

async function view(tx: Parameters<typeof ordersView>[0], row: OrderRow): Promise<Order> {
  const [order] = await ordersView(tx, [row]);
  return order!;
}

/** PUT /orders/{id} {order:{status_id}}: through the lifecycle machine, 409 when it refuses. */
export async function changeOrderStatus(db: Db, courierId: number, orderId: number, statusId: number): Promise<Order> {
  const target = statusById(statusId);
  if (!target) throw badRequest(`There is no order status ${statusId}.`);
  return db.transaction(async (tx) => {
    const [row] = await lockOwnOrders(tx, courierId, [orderId]);
    const from = statusNameOf(row!);
    const lifecycle = { paymentType: row!.paymentType, paymentCollected: row!.paymentCollected };
    if (from === target.name) throw conflict(`Order ${orderId} is already ${words(from)}.`);
    const event = eventBetween(from, target.name, lifecycle);
    if (!event) throw conflict(`Order ${orderId} is ${words(from)} and cannot become ${words(target.name)}.`);
    if (!PICKUP_EVENTS.has(event)) {
      throw conflict(`Order ${orderId} becomes ${words(target.name)} when its delivery or return is recorded, not by a status change.`);
    }
    const changes = event === "PICK_UP" ? { pickedUpAt: new Date() } : {};
    const [updated] = await applyTransition(tx, courierId, [row!], event, changes);
    return view(tx, updated!);
  });
}

/**
 * PUT /orders/{id} {order:{copay}}: the courier asserts the copay is correct
 * ("0.00" for none) while the order is still to be picked up.
 */
export async function assertCopay(db: Db, courierId: number, orderId: number, copay: string): Promise<Order> {
  const cents = assertedCopayCents(copay, `order ${orderId}`);
  return db.transaction(async (tx) => {
    const [row] = await lockOwnOrders(tx, courierId, [orderId]);
    const status = statusNameOf(row!);
    if (nextOrderStatus(status, "PICK_UP") === null) {
      throw conflict(`Order ${orderId} is ${words(status)}; its copay can no longer be changed.`);
    }
    const [updated] = await tx
      .update(orders)
      .set({ copayCents: cents, copayAssertedAt: new Date(), updatedAt: new Date() })
      .where(eq(orders.id, orderId))
      .returning();
    // The chain of custody shows the verification at the counter (docs/operations.md), and a changed copay's before and after.
    await audit(tx, [{ courierId, action: "copay_asserted", orderId, details: copayChange(row!.copayCents, cents) }]);
    return view(tx, updated!);
  });
}

/** POST /orders/{id}/pickups: the order is in the courier's bag. */
export async function pickUpOrder(db: Db, courierId: number, orderId: number, clientOccurredAt: Date | null): Promise<Order> {
  return db.transaction(async (tx) => {
    const rows = await lockOwnOrders(tx, courierId, [orderId]);
    const [updated] = await applyTransition(tx, courierId, rows, "PICK_UP", { pickedUpAt: new Date() }, clientOccurredAt);
    return view(tx, updated!);
  });
}

/** POST /courier/cancellation {order_id}: cancelled at verification. */
export async function cancelOrder(db: Db, courierId: number, orderId: number): Promise<Order> {
  return db.transaction(async (tx) => {
    const rows = await lockOwnOrders(tx, courierId, [orderId]);
    const [updated] = await applyTransition(tx, courierId, rows, "CANCEL");
    return view(tx, updated!);
  });
}
