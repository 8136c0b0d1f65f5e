import { sql } from "drizzle-orm";
import type { Db } from "./client.ts";
import { auditEvents } from "./schema.ts";

type Executor = Pick<Db, "execute">;

/** What the operations API writes (issue 15); every one carries the key's id. */
export type OpsAuditAction =
  | "key_created"
  | "key_revoked"
  | "pharmacy_created"
  | "pharmacy_updated"
  | "courier_invited"
  | "courier_reinvited"
  | "courier_deactivated"
  | "courier_updated"
  | "plan_created"
  | "plan_applied"
  | "courier_password_set"
  | "order_created"
  | "order_updated"
  | "order_assigned"
  | "order_unassigned"
  | "order_rescheduled"
  | "staff_invited"
  | "staff_reinvited"
  | "staff_deactivated"
  | "staff_password_set";

export interface AuditEntry {
  courierId: number | null;
  /** The operations API key that acted or read, when it was one. */
  apiKeyId?: number | null;
  /** The dispatcher or pharmacist logged in to the console (issue 27), when it was one. */
  staffId?: number | null;
  action: "status_change" | "view_patient_details" | "login" | "logout" | "copay_asserted" | "visit_confirmed" | OpsAuditAction;
  /** What a mutation that is not about one order touched: "pharmacy:3", "courier:7", "key:2". */
  subject?: string | null;
  orderId?: number | null;
  fromStatus?: string | null;
  toStatus?: string | null;
  clientOccurredAt?: Date | null;
  /** The visit a visit_confirmed entry is about. */
  pharmacyVisitId?: number | null;
  latitude?: number | null;
  longitude?: number | null;
  /** What changed, where the action alone does not say: a reschedule's {from, to}, a copay's {copay_before, copay_after} in cents. */
  details?: Record<string, string | number | boolean | null> | null;
}

/** Append-only: rows are inserted, never updated or deleted by the application. */
export async function audit(db: Executor, entries: AuditEntry[]): Promise<void> {
  if (entries.length === 0) return;
  // The rows travel as one JSON parameter: a read of the day writes a row per order, and building
  // a 40-row insert with Drizzle cost more CPU than the read itself (docs/benchmarks.md "API under load").
  const rows = JSON.stringify(
    entries.map((entry) => ({
      courier_id: entry.courierId,
      api_key_id: entry.apiKeyId ?? null,
      staff_id: entry.staffId ?? null,
      action: entry.action,
      subject: entry.subject ?? null,
      order_id: entry.orderId ?? null,
      from_status: entry.fromStatus ?? null,
      to_status: entry.toStatus ?? null,
      client_occurred_at: entry.clientOccurredAt ?? null,
      pharmacy_visit_id: entry.pharmacyVisitId ?? null,
      latitude: entry.latitude ?? null,
      longitude: entry.longitude ?? null,
      details: entry.details ?? null,
    })),
  );
  await db.execute(sql`insert into ${auditEvents} (courier_id, api_key_id, staff_id, action, subject, order_id, from_status, to_status, client_occurred_at,
      pharmacy_visit_id, latitude, longitude, details)
    select courier_id, api_key_id, staff_id, action, subject, order_id, from_status, to_status, client_occurred_at, pharmacy_visit_id, latitude, longitude, details
    from json_populate_recordset(null::audit_events, ${rows}::json)`);
}
