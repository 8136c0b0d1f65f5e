import { sql } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { auditEvents } from "../db/schema.ts";

type Executor = Pick<Db, "execute">;

export interface AuditEntry {
  courierId: number | null;
  action: "status_change" | "view_patient_details" | "login" | "logout";
  orderId?: number | null;
  fromStatus?: string | null;
  toStatus?: string | null;
  clientOccurredAt?: Date | null;
}

/** Append-only: rows are inserted, never updated or deleted by the application. */
export async function audit(db: Executor, entries: AuditEntry[]): Promise<void> {
  if (entries.length === 0) return;
  // The rows travel as one JSON parameter: a read of the day writes a row per order, and building
  // a 40-row insert with Drizzle cost more CPU than the read itself (docs/benchmarks.md "API under load").
  const rows = JSON.stringify(
    entries.map((entry) => ({
      courier_id: entry.courierId,
      action: entry.action,
      order_id: entry.orderId ?? null,
      from_status: entry.fromStatus ?? null,
      to_status: entry.toStatus ?? null,
      client_occurred_at: entry.clientOccurredAt ?? null,
    })),
  );
  await db.execute(sql`insert into ${auditEvents} (courier_id, action, order_id, from_status, to_status, client_occurred_at)
    select courier_id, action, order_id, from_status, to_status, client_occurred_at from json_populate_recordset(null::audit_events, ${rows}::json)`);
}
