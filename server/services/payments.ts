import { randomUUID } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import { and, desc, eq, inArray, isNull } from "drizzle-orm";
import type { ChargeData, OrderPayment } from "../../domain/contract/payments.ts";
import type { Order } from "../../domain/contract/entities.ts";
import { copayCorrectionRefusal } from "../../domain/copay.ts";
import { collectsPaymentAtDoor, paymentMethodAllowed, paymentPartsCents, paymentTotalCents, type OwedOrder } from "../../domain/delivery-rules.ts";
import { centsToDecimal, parseDecimalToCents, type Cents } from "../../domain/money.ts";
import { TEXT } from "../../domain/texts.ts";
import type { Db, Tx } from "../db/client.ts";
import { orders, payments, pharmacies } from "../db/schema.ts";
import { badRequest, conflict, HttpError } from "../http/errors.ts";
import { GatewayConfigurationError, type AuthorizeResult, type PaymentGateway, type SettlementResult } from "../payments/gateway.ts";
import { lockOwnOrders, statusNameOf, type OrderRow } from "./order-transitions.ts";
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

/** "copay 20.00 + delivery fee 2.50 + other items 0.00": the parts of the total (the domain's), for the refusal's words. */
function owedParts(owed: OwedOrder, newCopayCents: Cents | null): string {
  const parts = paymentPartsCents(owed, newCopayCents);
  return `copay ${money(parts.copay)} + delivery fee ${money(parts.deliveryFee)} + other items ${money(parts.otherItems)}`;
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
  const refusal = copayCorrectionRefusal(owed, newCopayCents);
  if (refusal) throw badRequest(refusal);
  const owedCents = paymentTotalCents(owed, newCopayCents);
  if (owedCents === 0) throw conflict(`Nothing is owed on order ${order.id}.`);
  if (totalCents !== owedCents) {
    throw new HttpError(
      400,
      "amount_mismatch",
      `The total ${payment.total} does not match the ${money(owedCents)} owed on this order (${owedParts(owed, newCopayCents)}).`,
    );
  }
  if (!payment.token) throw badRequest("The card token is missing. Please enter the card again.");
}

/**
 * The steps of an authorization, in order; a test kills the path at each one
 * (tests/api/payment-crash-recovery.test.ts). row_written and row_completed
 * fall inside a transaction, the others between them.
 */
export type AuthorizationStep = "row_written" | "row_committed" | "gateway_answered" | "row_completed" | "attempt_completed";

export type AuthorizationDeps = PaymentServiceDeps & {
  checkpoint?: (step: AuthorizationStep) => void | Promise<void>;
  /** How long a second attempt waits on a pending one before its 409 (tests shorten it). */
  pendingWaitMs?: number;
};

type Attempt = { kind: "replay"; transactionId: string } | { kind: "in_progress" } | { kind: "new"; row: PaymentRow };

/** How long a second attempt waits for a pending one to be answered: longer than a gateway normally takes. */
const PENDING_WAIT_MS = 15_000;

/**
 * PUT /courier/orders/{id}/authorize, in three steps so that no crash can
 * leave a card held without a row of ours that says so:
 *
 * 1. A transaction checks the order (locked FOR UPDATE) and commits a pending
 *    payments row with the attempt's own reference. A double tap or retry
 *    finding a pending row waits (briefly) for its answer and gets the standing
 *    authorization back, or a 409 if the attempt is still with the gateway
 *    after the wait: the card is never held twice.
 * 2. The gateway is called outside any transaction, with the reference.
 * 3. A second transaction records the answer on the row and the order. If it
 *    cannot (the write fails, the order moved on, the recovery sweep took the
 *    row over), the hold is voided and the row marked failed.
 *
 * A process killed between 1 and 3 leaves the row pending: the recovery sweep
 * (payment-recovery.ts) finds the hold by its reference and releases it.
 */
export async function authorizeCardPayment(
  deps: AuthorizationDeps,
  courierId: number,
  orderId: number,
  payment: OrderPayment,
): Promise<{ transaction_id: string }> {
  const totalCents = parseDecimalToCents(payment.total)!;
  const newCopayCents = payment.new_copay ? parseDecimalToCents(payment.new_copay) : null;
  const checkpoint = deps.checkpoint ?? (() => undefined);

  // A double tap or a retry while the first attempt is with the gateway waits for its answer, as briefly as it takes.
  const waitUntil = Date.now() + (deps.pendingWaitMs ?? PENDING_WAIT_MS);
  let attempt: Attempt;
  for (let pause = 50; ; pause = Math.min(pause * 2, 1_000)) {
    attempt = await deps.db.transaction(async (tx): Promise<Attempt> => {
      const [order] = await lockOwnOrders(tx, courierId, [orderId]);
      const existing = await holdingPayment(tx, order!.id);
      if (existing) return { kind: "replay", transactionId: replayOf(existing, payment, totalCents) };
      if (await pendingAttempt(tx, orderId)) return { kind: "in_progress" };
      if (payment.braintree_transaction_id) {
        throw conflict("This order has no card authorization with that transaction id. Please enter the card again.");
      }
      await checkPayable(tx, order!, payment, totalCents, newCopayCents);
      const [row] = await tx
        .insert(payments)
        .values({
          orderId,
          courierId,
          paymentType: "card",
          gateway: deps.gateway.name,
          status: "pending",
          amountCents: totalCents,
          newCopayCents,
          attemptReference: `${orderId}-${randomUUID()}`,
        })
        .returning();
      await checkpoint("row_written");
      return { kind: "new", row: row! };
    });
    if (attempt.kind !== "in_progress") break;
    // Still pending past the wait: a slow gateway or a crashed attempt (the recovery sweep settles it).
    if (Date.now() + pause > waitUntil) throw paymentInProgress(orderId);
    await sleep(pause);
  }
  if (attempt.kind === "replay") return { transaction_id: attempt.transactionId };
  const { row } = attempt;

  // Where the attempt stands, so that anything thrown below leaves the row settled and no card held.
  const progress: AttemptProgress = { stage: "not_sent", heldTransaction: null };
  try {
    await checkpoint("row_committed");
    progress.stage = "sent";
    let result: AuthorizeResult;
    try {
      result = await deps.gateway.authorize({
        amountCents: totalCents,
        nonce: payment.token!,
        orderId,
        reference: row.attemptReference!,
        email: payment.email ?? null,
      });
    } catch (error) {
      // A misconfiguration is the gateway refusing our request: nothing was held.
      if (error instanceof GatewayConfigurationError) progress.stage = "not_sent";
      throw error;
    }
    progress.stage = "answered";
    if (result.status === "authorized") progress.heldTransaction = result.transactionId;
    await checkpoint("gateway_answered");

    if (result.status !== "authorized") {
      await finishAttempt(deps.db, row.id, {
        status: result.status === "declined" ? "declined" : "failed",
        transactionId: result.transactionId,
        processorResponse: result.processorResponse,
      });
      progress.stage = "settled";
      await checkpoint("attempt_completed");
      if (result.status === "declined") throw new HttpError(403, "card_declined", result.processorResponse);
      throw new HttpError(503, "processor_unavailable", TEXT.processorUnavailable);
    }

    const refusal = await recordAuthorization(deps.db, checkpoint, courierId, row.id, orderId, result);
    if (refusal) {
      await abandonAttempt(deps, row.id, result.transactionId, `released: ${refusal.message}`);
      progress.stage = "settled";
      throw refusal;
    }
    progress.stage = "settled";
    await checkpoint("attempt_completed");
    return { transaction_id: result.transactionId };
  } catch (error) {
    await cleanUpAttempt(deps, row, progress, error);
    throw error;
  }
}

interface AttemptProgress {
  /** not_sent: the gateway holds nothing; sent: it may; answered: heldTransaction says; settled: the row is final. */
  stage: "not_sent" | "sent" | "answered" | "settled";
  heldTransaction: string | null;
}

/**
 * The row of an attempt that threw is settled here when this process still
 * can; if it cannot (the database or the gateway is unreachable, or the
 * process dies), the row stays pending and the recovery sweep settles it.
 */
async function cleanUpAttempt(deps: PaymentServiceDeps, row: PaymentRow, progress: AttemptProgress, cause: unknown): Promise<void> {
  try {
    if (progress.stage === "settled") return;
    const why = cause instanceof Error ? cause.message : String(cause);
    if (progress.stage === "not_sent") {
      await finishAttempt(deps.db, row.id, { status: "failed", transactionId: null, processorResponse: why });
    } else if (progress.stage === "sent") {
      // We cannot tell whether the card is held: ask the gateway by the attempt's reference.
      await recoverAttempt(deps, row);
    } else if (progress.heldTransaction) {
      await abandonAttempt(deps, row.id, progress.heldTransaction, "released: the authorization could not be recorded");
    } else {
      await finishAttempt(deps.db, row.id, { status: "failed", transactionId: null, processorResponse: why });
    }
  } catch (error) {
    deps.log.error({ err: error, paymentId: row.id }, "could not settle a card authorization attempt; the recovery sweep will");
  }
}

/**
 * Step 3: the gateway's authorization onto the row and the order, in one
 * transaction. Returns the refusal when the attempt may no longer stand: the
 * order moved on while the gateway answered (a delivery recorded meanwhile),
 * or the recovery sweep took the row over. The caller then releases the hold.
 */
async function recordAuthorization(
  db: Db,
  checkpoint: (step: AuthorizationStep) => void | Promise<void>,
  courierId: number,
  rowId: number,
  orderId: number,
  result: Extract<AuthorizeResult, { status: "authorized" }>,
): Promise<HttpError | null> {
  return db.transaction(async (tx) => {
    const [order] = await lockOwnOrders(tx, courierId, [orderId]);
    const status = statusNameOf(order!);
    if (status !== "picked_up" || order!.paymentCollected) {
      return conflict(`Order ${orderId} is ${status.replace(/_/g, " ")}; its card authorization was released.`);
    }
    const [completed] = await tx
      .update(payments)
      .set({ status: "authorized", transactionId: result.transactionId, processorResponse: result.processorResponse })
      .where(and(eq(payments.id, rowId), eq(payments.status, "pending"), isNull(payments.recoveryLeaseUntil)))
      .returning();
    if (!completed) {
      return new HttpError(409, "payment_abandoned", `The card authorization for order ${orderId} took too long and was released. Please try again.`);
    }
    await checkpoint("row_completed");
    await tx
      .update(orders)
      .set({ paymentAuthorized: true, paymentType: "card", chargeData: chargeDataFor(completed), updatedAt: new Date() })
      .where(eq(orders.id, orderId));
    return null;
  });
}

function paymentInProgress(orderId: number): HttpError {
  return new HttpError(409, "payment_in_progress", `The card payment for order ${orderId} is still being authorized. Please try again in a moment.`);
}

async function pendingAttempt(tx: Tx, orderId: number): Promise<PaymentRow | null> {
  const [row] = await tx
    .select()
    .from(payments)
    .where(and(eq(payments.orderId, orderId), eq(payments.status, "pending")))
    .limit(1);
  return row ?? null;
}

/** A retry or a double tap: the first authorization stands, provided it is the same payment. */
function replayOf(existing: PaymentRow, payment: OrderPayment, totalCents: Cents): string {
  if (payment.braintree_transaction_id && payment.braintree_transaction_id !== existing.transactionId) {
    throw conflict("This order's card payment was already authorized under another transaction.");
  }
  if (existing.amountCents !== totalCents) {
    throw conflict(`This order's card payment was already authorized for ${money(existing.amountCents)}.`);
  }
  return existing.transactionId!;
}

/**
 * Records the end of an attempt that holds nothing, unless the sweep took the
 * row over (it then records the end itself).
 */
export async function finishAttempt(
  db: Db | Tx,
  rowId: number,
  answer: { status: "declined" | "failed"; transactionId: string | null; processorResponse: string },
): Promise<void> {
  await db
    .update(payments)
    .set({ status: answer.status, transactionId: answer.transactionId, processorResponse: answer.processorResponse })
    .where(and(eq(payments.id, rowId), eq(payments.status, "pending")));
}

/**
 * The card is held but the row cannot be completed: void first, then mark the
 * row failed. In that order a crash between the two leaves a pending row (the
 * sweep finishes it), never a failed row over a live hold. A void the gateway
 * does not take leaves the row pending for the sweep too.
 */
async function abandonAttempt(deps: PaymentServiceDeps, rowId: number, transactionId: string, why: string): Promise<void> {
  try {
    const voided = await deps.gateway.void(transactionId);
    if (voided.status !== "voided") {
      deps.log.error({ transactionId, result: voided }, "could not void an authorization that was not recorded; the sweep retries");
      return;
    }
    await deps.db
      .update(payments)
      .set({ status: "failed", transactionId, processorResponse: why })
      .where(and(eq(payments.id, rowId), eq(payments.status, "pending")));
  } catch (error) {
    deps.log.error({ err: error, transactionId }, "could not release an authorization that was not recorded; the sweep retries");
  }
}

/**
 * Finds what the gateway holds for an attempt (by its reference), voids it,
 * and marks the row failed. Used for an attempt whose outcome we did not see:
 * a crashed process (the sweep) or a gateway call that threw. Throws if the
 * gateway cannot be asked or will not void: the row then stays pending.
 */
export async function recoverAttempt(
  deps: PaymentServiceDeps,
  row: Pick<PaymentRow, "id" | "attemptReference">,
): Promise<"released" | "nothing_held"> {
  const found = row.attemptReference ? await deps.gateway.findByReference(row.attemptReference) : [];
  const held = found.filter((transaction) => transaction.held);
  for (const transaction of held) {
    const voided = await deps.gateway.void(transaction.transactionId);
    if (voided.status !== "voided") {
      // Another sweeper or the attempt itself may have voided it just now: believe the gateway, not the refusal.
      const still = (await deps.gateway.findByReference(row.attemptReference!)).some(
        (again) => again.transactionId === transaction.transactionId && again.held,
      );
      if (still) throw new Error(`The gateway would not void ${transaction.transactionId}: ${voided.processorResponse}`);
    }
  }
  await deps.db
    .update(payments)
    .set({
      status: "failed",
      transactionId: found[0]?.transactionId ?? null,
      processorResponse: held.length > 0 ? "released: the attempt's answer was never recorded" : "abandoned: the attempt's answer was never recorded",
    })
    .where(and(eq(payments.id, row.id), eq(payments.status, "pending")));
  return held.length > 0 ? "released" : "nothing_held";
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
