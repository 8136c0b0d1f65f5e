import { sql } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import type { payments } from "../db/schema.ts";
import { settleOverdueCards } from "./card-settlement.ts";
import { recoverAttempt, type PaymentServiceDeps } from "./payments.ts";

/**
 * The recovery sweep for card authorizations a crash left pending
 * (docs/security.md "Payments"). Each API process runs it at start and then
 * every minute. A pending row older than STALE_AFTER_MS is one no live
 * attempt will finish: a live one ends within the gateway's own timeout
 * (Braintree's SDK gives up after 60 s). The sweep claims such rows with FOR
 * UPDATE SKIP LOCKED and a lease in one statement, so processes sharing a
 * database never work on the same row, asks the gateway for the attempt's
 * transaction by its reference, voids any hold and marks the row failed. A
 * sweeper that dies mid-row leaves the lease to run out; the row is then
 * claimed again. The same pass settles (captures or releases) authorizations
 * on orders delivered or attempted as long ago, which a process killed right
 * after recording the delivery left standing (card-settlement.ts).
 */

export const STALE_AFTER_MS = 5 * 60_000;
export const SWEEP_INTERVAL_MS = 60_000;
/** Longer than a lookup and a void can take, so a live sweeper finishes before anyone else takes its row. */
const LEASE_MS = 2 * 60_000;

export interface SweepOptions {
  /** How old a pending row must be before it counts as abandoned (tests pass 0). */
  staleAfterMs?: number;
  batchSize?: number;
}

export interface SweepResult {
  /** Authorizations of delivered or attempted orders captured or released late (card-settlement.ts). */
  settledLate: number;
  released: number;
  nothingHeld: number;
  /** Rows the gateway could not settle this time: they stay pending and are tried again once the lease runs out. */
  retryLater: number;
}

type Claimed = Pick<typeof payments.$inferSelect, "id" | "attemptReference">;

const rowsOf = <T>(result: unknown): T[] => (Array.isArray(result) ? result : (result as { rows: T[] }).rows) as T[];

async function claimAbandoned(db: Db, staleAfterMs: number, batchSize: number): Promise<Claimed[]> {
  // The lease also tells a still-running attempt (a very slow one) that the row is no longer its own to complete.
  const result = await db.execute(sql`
    with abandoned as (
      select id from payments
      where status = 'pending'
        and created_at <= now() - ${staleAfterMs} * interval '1 millisecond'
        and (recovery_lease_until is null or recovery_lease_until < now())
      order by id
      limit ${batchSize}
      for update skip locked
    )
    update payments p
    set recovery_lease_until = now() + ${LEASE_MS} * interval '1 millisecond'
    from abandoned
    where p.id = abandoned.id
    returning p.id, p.attempt_reference`);
  return rowsOf<{ id: number | string; attempt_reference: string | null }>(result).map(
    (row) => ({ id: Number(row.id), attemptReference: row.attempt_reference }),
  );
}

/** One pass: settles every abandoned attempt it can claim. */
export async function sweepAbandonedAuthorizations(deps: PaymentServiceDeps, options: SweepOptions = {}): Promise<SweepResult> {
  const staleAfterMs = options.staleAfterMs ?? STALE_AFTER_MS;
  const batchSize = options.batchSize ?? 25;
  const result: SweepResult = { settledLate: 0, released: 0, nothingHeld: 0, retryLater: 0 };
  for (let claimed = batchSize; claimed === batchSize; ) {
    claimed = await settleOverdueCards(deps, staleAfterMs, LEASE_MS, batchSize);
    result.settledLate += claimed;
  }
  for (;;) {
    const claimed = await claimAbandoned(deps.db, staleAfterMs, batchSize);
    for (const row of claimed) {
      try {
        const outcome = await recoverAttempt(deps, row);
        if (outcome === "released") result.released++;
        else result.nothingHeld++;
      } catch (error) {
        result.retryLater++;
        deps.log.error({ err: error, paymentId: row.id }, "payment recovery: could not settle an abandoned authorization; tried again later");
      }
    }
    if (claimed.length < batchSize) return result;
  }
}

export interface PaymentRecovery {
  stop(): Promise<void>;
}

/** Runs the sweep now and every intervalMs until stopped; a pass never overlaps the previous one. */
export function startPaymentRecovery(deps: PaymentServiceDeps, intervalMs = SWEEP_INTERVAL_MS): PaymentRecovery {
  let running: Promise<unknown> | null = null;
  const pass = () => {
    if (running) return;
    running = sweepAbandonedAuthorizations(deps)
      .then((result) => {
        if (result.settledLate + result.released + result.nothingHeld + result.retryLater > 0) deps.log.error(result, "payment recovery: settled card authorizations a crash left pending");
      })
      .catch((error: unknown) => deps.log.error({ err: error }, "payment recovery: a pass failed; the next one tries again"))
      .finally(() => {
        running = null;
      });
  };
  pass();
  const timer = setInterval(pass, intervalMs).unref();
  return {
    async stop() {
      clearInterval(timer);
      if (running) await running;
    },
  };
}
