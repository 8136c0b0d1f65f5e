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
 */
export async function recordDispatchEvents(tx: Pick<Tx, "execute">, events: readonly DispatchEvent[]): Promise<void> {
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
  await tx.execute(sql`insert into ${dispatchEvents} (type, pharmacy_id, order_id, data, created_at)
    select type, pharmacy_id, order_id, data, created_at
    from json_to_recordset(${rows}::json) as e(type text, pharmacy_id integer, order_id integer, data jsonb, created_at timestamptz)`);
}
