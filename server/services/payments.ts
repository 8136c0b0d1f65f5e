import { and, desc, eq, inArray } from "drizzle-orm";
import type { ChargeData, OrderPayment } from "../../domain/contract/payments.ts";
import type { Order } from "../../domain/contract/entities.ts";
import { collectsPaymentAtDoor, paymentMethodAllowed, paymentTotalCents, type OwedOrder } from "../../domain/delivery-rules.ts";
import { centsToDecimal, parseDecimalToCents, type Cents } from "../../domain/money.ts";
import { TEXT } from "../../domain/texts.ts";
import type { Db } from "../db/client.ts";
import { orders, payments, pharmacies } from "../db/schema.ts";
import { badRequest, conflict, HttpError } from "../http/errors.ts";
import { GatewayConfigurationError, type PaymentGateway, type SettlementResult } from "../payments/gateway.ts";
import { lockOwnOrders, statusNameOf, type OrderRow, type Tx } from "./order-transitions.ts";
import { orderView, pharmacyView } from "./views.ts";

type PaymentRow = typeof payments.$inferSelect;

/** Statuses of a payment that holds the order's money: there is at most one, ever. */
const HOLDING = ["authorized", "settled"] as const;

export interface PaymentLogger {
  error(object: unknown, message: string): void;
}

export interface PaymentServiceDeps {
  db: Db;
  gateway: PaymentGateway;
  log: PaymentLogger;
}

/** The order's standing authorization, if it has one. */
export async function holdingPayment(tx: Tx, orderId: number): Promise<PaymentRow | null> {
  const [row] = await tx
    .select()
    .from(payments)
    .where(and(eq(payments.orderId, orderId), inArray(payments.status, [...HOLDING])))
    .orderBy(payments.id)
    .limit(1);
  return row ?? null;
}

const money = (cents: Cents) => centsToDecimal(cents)!;

/** What the order keeps: references to the gateway's transaction, never card data. */
function chargeDataFor(payment: PaymentRow): Record<string, unknown> {
  return {
    transaction_id: payment.transactionId,
    amount: money(payment.amountCents),
    new_copay: payment.newCopayCents == null ? null : money(payment.newCopayCents),
    gateway: payment.gateway,
    payment_type: "credit_card",
  };
}

type PharmacyRow = typeof pharmacies.$inferSelect;

/** The order as domain/delivery-rules.ts sees it: the one rule for what is owed, shared with the payment step. */
function owedOrder(order: OrderRow, pharmacy: PharmacyRow): OwedOrder {
  return {
    copay: centsToDecimal(order.copayCents),
    delivery_fee: centsToDecimal(order.deliveryFeeCents),
    other_items_amount_due: centsToDecimal(order.otherItemsAmountDueCents) ?? "0.00",
    copay_paid_at: order.copayPaidAt ? order.copayPaidAt.toISOString() : null,
    payment_collected: order.paymentCollected,
    payment_authorized: order.paymentAuthorized,
    pharmacy: { allow_pod_copay_collection: pharmacy.allowPodCopayCollection, payment_methods: pharmacy.paymentMethods },
  };
}

/** "copay 20.00 + delivery fee 2.50 + other items 0.00": the parts of the total, for the refusal's words. */
function owedParts(order: OrderRow, newCopayCents: Cents | null): string {
  const copay = order.copayPaidAt ? 0 : (newCopayCents ?? order.copayCents ?? 0);
  return `copay ${money(copay)} + delivery fee ${money(order.deliveryFeeCents ?? 0)} + other items ${money(order.otherItemsAmountDueCents)}`;
}

/** Throws unless the order may take a card payment of exactly `totalCents` now. */
async function checkPayable(tx: Tx, order: OrderRow, payment: OrderPayment, totalCents: Cents, newCopayCents: Cents | null) {
  const status = statusNameOf(order);
  if (status !== "picked_up") {
    throw conflict(`Order ${order.id} is ${status.replace(/_/g, " ")}; a card payment is taken only for an order out for delivery.`);
  }
  const [pharmacy] = await tx.select().from(pharmacies).where(eq(pharmacies.id, order.pharmacyId));
  const owed = owedOrder(order, pharmacy!);
  if (!paymentMethodAllowed(owed.pharmacy, "card")) {
    throw new HttpError(409, "card_not_accepted", `${pharmacy!.name} does not accept card payments.`);
  }
  if (!collectsPaymentAtDoor(owed)) {
    throw new HttpError(409, "card_not_accepted", `${pharmacy!.name} does not collect payment at delivery.`);
  }
  if (order.paymentCollected) throw conflict(`The payment for order ${order.id} was already collected.`);
  if (newCopayCents != null && order.copayPaidAt) {
    throw badRequest("The copay on this order was already collected at pickup, so it cannot be corrected.");
  }
  const owedCents = paymentTotalCents(owed, newCopayCents);
  if (owedCents === 0) throw conflict(`Nothing is owed on order ${order.id}.`);
  if (totalCents !== owedCents) {
    throw new HttpError(
      400,
      "amount_mismatch",
      `The total ${payment.total} does not match the ${money(owedCents)} owed on this order (${owedParts(order, newCopayCents)}).`,
    );
  }
  if (!payment.token) throw badRequest("The card token is missing. Please enter the card again.");
}

type Outcome =
  | { kind: "authorized"; transactionId: string }
  | { kind: "declined"; processorResponse: string }
  | { kind: "unavailable" }
  | { kind: "failed"; error: Error };

/** The steps of an authorization, in order; a test stops the path at each one (tests/api/payments-ordering.test.ts). */
export type AuthorizationStep = "row_written" | "gateway_answered" | "row_completed" | "order_updated";

/**
 * PUT /courier/orders/{id}/authorize. The order row stays locked (FOR UPDATE)
 * from the first check to the recorded result, so a double tap or a retry
 * waits for the first attempt and gets its transaction back: the card is
 * never authorized twice for one order. The payments row is written before
 * the gateway is called, so a value the database cannot store fails before
 * any money is held; once the gateway has authorized, any failure to
 * complete the row or the order releases (voids) the hold. Every attempt
 * leaves a payments row (declines and outages too), which is why refusals
 * are thrown only after the transaction has committed.
 */
export async function authorizeCardPayment(
  deps: PaymentServiceDeps & { checkpoint?: (step: AuthorizationStep) => void | Promise<void> },
  courierId: number,
  orderId: number,
  payment: OrderPayment,
): Promise<{ transaction_id: string }> {
  const totalCents = parseDecimalToCents(payment.total)!;
  const newCopayCents = payment.new_copay ? parseDecimalToCents(payment.new_copay) : null;
  const checkpoint = deps.checkpoint ?? (() => undefined);
  // Set inside the transaction's callback, read in the catch below.
  let heldTransaction = null as string | null;

  let outcome: Outcome;
  try {
    outcome = await deps.db.transaction(async (tx): Promise<Outcome> => {
      const [order] = await lockOwnOrders(tx, courierId, [orderId]);
      const existing = await holdingPayment(tx, order!.id);
      if (existing) return replayOf(existing, payment, totalCents);
      if (payment.braintree_transaction_id) {
        throw conflict("This order has no card authorization with that transaction id. Please enter the card again.");
      }
      await checkPayable(tx, order!, payment, totalCents, newCopayCents);

      const [pending] = await tx
        .insert(payments)
        .values({
          orderId,
          courierId,
          paymentType: "card",
          gateway: deps.gateway.name,
          status: "pending",
          amountCents: totalCents,
          newCopayCents,
        })
        .returning();
      await checkpoint("row_written");

      let result;
      try {
        result = await deps.gateway.authorize({ amountCents: totalCents, nonce: payment.token!, orderId, email: payment.email ?? null });
      } catch (error) {
        if (!(error instanceof GatewayConfigurationError)) throw error;
        await completeAttempt(tx, pending!.id, { status: "failed", transactionId: null, processorResponse: error.message });
        return { kind: "failed", error };
      }
      if (result.status === "authorized") heldTransaction = result.transactionId;
      await checkpoint("gateway_answered");
      const status = result.status === "authorized" ? "authorized" : result.status === "declined" ? "declined" : "failed";
      const row = await completeAttempt(tx, pending!.id, {
        status,
        transactionId: result.transactionId,
        processorResponse: result.processorResponse,
      });
      await checkpoint("row_completed");
      if (result.status === "declined") return { kind: "declined", processorResponse: result.processorResponse };
      if (result.status === "processor_unavailable") return { kind: "unavailable" };

      await tx
        .update(orders)
        .set({ paymentAuthorized: true, paymentType: "card", chargeData: chargeDataFor(row), updatedAt: new Date() })
        .where(eq(orders.id, orderId));
      await checkpoint("order_updated");
      return { kind: "authorized", transactionId: result.transactionId };
    });
  } catch (error) {
    // The card was authorized but our record of it did not commit: release the hold rather than leave it orphaned.
    if (heldTransaction) await releaseOrphan(deps, heldTransaction);
    throw error;
  }

  switch (outcome.kind) {
    case "authorized":
      return { transaction_id: outcome.transactionId };
    case "declined":
      throw new HttpError(403, "card_declined", outcome.processorResponse);
    case "unavailable":
      throw new HttpError(503, "processor_unavailable", TEXT.processorUnavailable);
    case "failed":
      throw outcome.error;
  }
}

/** A retry or a double tap: the first authorization stands, provided it is the same payment. */
function replayOf(existing: PaymentRow, payment: OrderPayment, totalCents: Cents): Outcome {
  if (payment.braintree_transaction_id && payment.braintree_transaction_id !== existing.transactionId) {
    throw conflict("This order's card payment was already authorized under another transaction.");
  }
  if (existing.amountCents !== totalCents) {
    throw conflict(`This order's card payment was already authorized for ${money(existing.amountCents)}.`);
  }
  return { kind: "authorized", transactionId: existing.transactionId! };
}

/** The gateway's answer on the attempt's row, written before the gateway was called. */
async function completeAttempt(
  tx: Tx,
  rowId: number,
  answer: { status: "authorized" | "declined" | "failed"; transactionId: string | null; processorResponse: string },
): Promise<PaymentRow> {
  const [row] = await tx
    .update(payments)
    .set({ status: answer.status, transactionId: answer.transactionId, processorResponse: answer.processorResponse })
    .where(eq(payments.id, rowId))
    .returning();
  return row!;
}

async function releaseOrphan(deps: PaymentServiceDeps, transactionId: string): Promise<void> {
  try {
    const result = await deps.gateway.void(transactionId);
    if (result.status !== "voided") deps.log.error({ transactionId, result }, "could not void an authorization that was not recorded");
  } catch (error) {
    deps.log.error({ err: error, transactionId }, "could not void an authorization that was not recorded");
  }
}

/**
 * PUT /courier/orders/{id} with the delivery's charge data: it must name this
 * order's own authorization and its amount; the order then keeps it.
 */
export async function saveChargeData(db: Db, courierId: number, orderId: number, charge: ChargeData): Promise<Order> {
  return db.transaction(async (tx) => {
    const [order] = await lockOwnOrders(tx, courierId, [orderId]);
    const status = statusNameOf(order!);
    if (status !== "picked_up" && status !== "delivered") {
      throw conflict(`Order ${orderId} is ${status.replace(/_/g, " ")}; charge data is saved only with its delivery.`);
    }
    const held = await holdingPayment(tx, orderId);
    if (!held) throw conflict(`Order ${orderId} has no authorized card payment.`);
    if (held.transactionId !== charge.transaction_id) {
      throw new HttpError(400, "charge_data_mismatch", `Transaction ${charge.transaction_id} is not this order's card authorization.`);
    }
    if (parseDecimalToCents(charge.amount) !== held.amountCents) {
      throw new HttpError(400, "charge_data_mismatch", `The amount ${charge.amount} is not the ${money(held.amountCents)} authorized for this order.`);
    }
    const heldNewCopay = held.newCopayCents == null ? null : money(held.newCopayCents);
    if (charge.new_copay !== undefined && charge.new_copay !== heldNewCopay) {
      throw new HttpError(400, "charge_data_mismatch", `The corrected copay ${charge.new_copay ?? "none"} is not the one authorized (${heldNewCopay ?? "none"}).`);
    }
    const [updated] = await tx
      .update(orders)
      .set({
        paymentAuthorized: true,
        paymentType: "card",
        chargeData: { ...chargeDataFor(held), saved_with_delivery_at: new Date().toISOString() },
        updatedAt: new Date(),
      })
      .where(eq(orders.id, orderId))
      .returning();
    const [pharmacy] = await tx.select().from(pharmacies).where(eq(pharmacies.id, updated!.pharmacyId));
    return orderView(updated!, pharmacyView(pharmacy!));
  });
}

/**
 * For delivery completion: captures the order's authorization. Call it after
 * the delivery has committed (it talks to the gateway); it is a no-op for an
 * order without one or already captured.
 */
export async function captureOrderPayment(db: Db, gateway: PaymentGateway, orderId: number): Promise<SettlementResult | null> {
  const [held] = await db
    .select()
    .from(payments)
    .where(and(eq(payments.orderId, orderId), eq(payments.status, "authorized")))
    .orderBy(desc(payments.id))
    .limit(1);
  if (!held?.transactionId) return null;
  const result = await gateway.submitForSettlement(held.transactionId, held.amountCents);
  if (result.status === "submitted_for_settlement") {
    await db.update(payments).set({ status: "settled", processorResponse: result.processorResponse }).where(eq(payments.id, held.id));
  }
  return result;
}

/** For a failed delivery: releases the order's authorization so the recipient is not charged. */
export async function voidOrderPayment(db: Db, gateway: PaymentGateway, orderId: number): Promise<SettlementResult | null> {
  const [held] = await db
    .select()
    .from(payments)
    .where(and(eq(payments.orderId, orderId), inArray(payments.status, [...HOLDING])))
    .orderBy(desc(payments.id))
    .limit(1);
  if (!held?.transactionId) return null;
  const result = await gateway.void(held.transactionId);
  if (result.status === "voided") {
    await db.update(payments).set({ status: "voided", processorResponse: result.processorResponse }).where(eq(payments.id, held.id));
    await db.update(orders).set({ paymentAuthorized: false, updatedAt: new Date() }).where(eq(orders.id, orderId));
  }
  return result;
}
