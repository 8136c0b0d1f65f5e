import { sql } from "drizzle-orm";
import { statusByName } from "../../domain/vocabulary.ts";
import { captureOrderPayment, voidOrderPayment, type PaymentServiceDeps } from "./payments.ts";

/**
 * What happens to a card authorization once its delivery is recorded: a
 * completed delivery captures it, a failed one releases it. Every caller that
 * records a delivery settles through here (today the courier's delivery
 * route; the operations API records none).
 */

export type Settlement = "capture" | "release";

/**
 * After the delivery committed (it talks to the gateway). The delivery stands
 * whatever the gateway says; a capture or void that fails is logged, and the
 * recovery sweep (settleOverdueCards) tries again later.
 */
export async function settleCardsAfterDelivery(deps: PaymentServiceDeps, orderIds: number[], settle: Settlement): Promise<void> {
  for (const orderId of orderIds) {
    try {
      const result = settle === "capture" ? await captureOrderPayment(deps.db, deps.gateway, orderId) : await voidOrderPayment(deps.db, deps.gateway, orderId);
      if (result?.status === "refused") deps.log.error({ orderId, result }, `card ${settle} refused after delivery`);
    } catch (error) {
      deps.log.error({ err: error, orderId }, `card ${settle} failed after delivery`);
    }
  }
}

const rowsOf = <T>(result: unknown): T[] => (Array.isArray(result) ? result : (result as { rows: T[] }).rows) as T[];

/**
 * Authorizations still standing on orders delivered or attempted more than
 * `staleAfterMs` ago: the process that recorded the delivery died before it
 * settled the card (or the gateway was down). Claimed with FOR UPDATE SKIP
 * LOCKED and a lease, like abandoned attempts, so one process settles each;
 * a refusal is logged and tried again when the lease ends.
 */
export async function settleOverdueCards(deps: PaymentServiceDeps, staleAfterMs: number, leaseMs: number, batchSize = 25): Promise<number> {
  const delivered = statusByName("delivered").id;
  const attempted = statusByName("delivery_attempted").id;
  const result = await deps.db.execute(sql`
    with overdue as (
      select p.id from payments p join orders o on o.id = p.order_id
      where p.status = 'authorized'
        and o.status_id in (${delivered}, ${attempted})
        and o.updated_at <= now() - ${staleAfterMs} * interval '1 millisecond'
        and (p.recovery_lease_until is null or p.recovery_lease_until < now())
      order by p.id
      limit ${batchSize}
      for update of p skip locked
    )
    update payments p
    set recovery_lease_until = now() + ${leaseMs} * interval '1 millisecond'
    from overdue, orders o
    where p.id = overdue.id and o.id = p.order_id
    returning p.order_id, o.status_id`);
  const claimed = rowsOf<{ order_id: number | string; status_id: number | string }>(result);
  for (const row of claimed) {
    await settleCardsAfterDelivery(deps, [Number(row.order_id)], Number(row.status_id) === delivered ? "capture" : "release");
  }
  return claimed.length;
}
