import { sql } from "drizzle-orm";
import type { DispatchEventType } from "../../../domain/dispatch-events.ts";
import { dispatchEvents } from "../../db/schema.ts";
import type { Tx } from "../../db/client.ts";

export interface DispatchEvent {
  type: DispatchEventType;
  /** Whose event it is: a pharmacist's stream carries their pharmacy's only. */
  pharmacyId: number;
  data: Record<string, unknown>;
  /** When it happened; now unless told. */
  at?: Date;
}

const orderIdOf = (data: Record<string, unknown>): number | null => {
  const order = data.order as { id?: unknown } | undefined;
  return typeof order?.id === "number" ? order.id : null;
};

/**
 * Writes the events of a change to dispatch_events inside the caller's
 * transaction (issue 27): they exist if and only if the change commits, and
 * the commit announces them (migration 0013's trigger: a position in commit
 * order, NOTIFY rxc_events). One statement, the rows as one JSON parameter.
 *
 * positionNow (many events at once, an orders batch): the rows take their
 * positions in the insert, under the trigger's lock, instead of one UPDATE
 * each at commit while every other writer of events waits for that lock
 * (issue 25). Only as the transaction's LAST statement: the lock is held from
 * here to the commit.
 */
export async function recordDispatchEvents(tx: Pick<Tx, "execute">, events: readonly DispatchEvent[], options: PositionOptions = {}): Promise<void> {
  if (events.length === 0) return;
  const rows = JSON.stringify(
    events.map((event) => ({
      type: event.type,
      pharmacy_id: event.pharmacyId,
      order_id: orderIdOf(event.data),
      data: event.data,
      created_at: (event.at ?? new Date()).toISOString(),
    })),
  );
  await insertDispatchEventRows(tx, rows, options);
}

export interface PositionOptions {
  /** The rows take their positions in the insert (see recordDispatchEvents): the transaction's LAST statement only. */
  positionNow?: boolean;
}

/**
 * recordDispatchEvents for rows already in its JSON form (an array of {type, pharmacy_id, order_id, data,
 * created_at}): an orders batch builds it from parts made in the batch check's worker.
 */
export async function insertDispatchEventRows(tx: Pick<Tx, "execute">, rows: string, options: PositionOptions = {}): Promise<void> {
  if (options.positionNow) {
    // The caller's last statement before COMMIT (see positionNow): the lock the commit trigger takes, taken now and
    // held until the commit is visible, so the positions stay in commit order; rows with one queue no trigger (migration 0014).
    await tx.execute(sql`select pg_advisory_xact_lock(${EVENT_POSITION_LOCK}), pg_notify('rxc_events', '')`);
    await tx.execute(sql`insert into ${dispatchEvents} (position, type, pharmacy_id, order_id, data, created_at)
      select nextval('dispatch_events_position_seq'), type, pharmacy_id, order_id, data, created_at
      from (select * from rows from (json_to_recordset(${rows}::json) as (type text, pharmacy_id integer, order_id integer, data jsonb, created_at timestamptz))
        with ordinality as e(type, pharmacy_id, order_id, data, created_at, n) order by n) e`);
    return;
  }
  await tx.execute(sql`insert into ${dispatchEvents} (type, pharmacy_id, order_id, data, created_at)
    select type, pharmacy_id, order_id, data, created_at
    from json_to_recordset(${rows}::json) as e(type text, pharmacy_id integer, order_id integer, data jsonb, created_at timestamptz)`);
}

/** The transaction-level advisory lock under which events take their positions (migration 0013's trigger takes the same). */
export const EVENT_POSITION_LOCK = 4_242_027;
