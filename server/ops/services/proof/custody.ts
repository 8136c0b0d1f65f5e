import { and, asc, eq, inArray, or } from "drizzle-orm";
import type { Custody, CustodyEntry } from "../../../../domain/contract/ops-proof.ts";
import { centsToDecimal } from "../../../../domain/money.ts";
import { FAILURE_REASONS } from "../../../../domain/vocabulary.ts";
import type { Db } from "../../../db/client.ts";
import { auditEvents, deliveries, deliveryOrders, pharmacyVisits } from "../../../db/schema.ts";
import { actorNames } from "../actor-names.ts";
import { returnOf } from "./proof.ts";
import { returnSignatureUrl, scopedOrder, type OpsScope } from "./scope.ts";

/**
 * GET /api/ops/v1/orders/{id}/custody: the order's chain of custody, in time
 * order, from the append-only audit trail (server/db/audit.ts). Views of
 * patient details are not custody and are left out.
 *
 * The audit rows' convention: courier_id is the courier who acted, or, for an
 * assignment made with an operations key (api_key_id set), the courier assigned.
 */

type AuditRow = typeof auditEvents.$inferSelect;

const STATUS_EVENT: Record<string, CustodyEntry["event"] | undefined> = {
  submitted_to_courier: "assigned",
  verified: "verified",
  picked_up: "picked_up",
  cancelled: "cancelled",
  delivery_attempted: "delivery_attempted",
  delivered: "delivered",
  returned_to_pharmacy: "returned",
  reconciled: "reconciled",
};

export async function orderCustody(db: Db, scope: OpsScope, orderId: number): Promise<Custody> {
  const order = await scopedOrder(db, scope, orderId);
  // The visit answers for the order's pharmacy and day, by its courier, belong to its chain too.
  const visits = order.courierId
    ? await db
        .select({ id: pharmacyVisits.id })
        .from(pharmacyVisits)
        .where(and(eq(pharmacyVisits.courierId, order.courierId), eq(pharmacyVisits.pharmacyId, order.pharmacyId), eq(pharmacyVisits.serviceDate, order.serviceDate)))
    : [];
  const rows = await db
    .select()
    .from(auditEvents)
    .where(
      or(
        and(
          eq(auditEvents.orderId, order.id),
          inArray(auditEvents.action, ["status_change", "order_created", "order_assigned", "order_unassigned", "order_rescheduled", "copay_asserted"]),
        ),
        visits.length ? and(eq(auditEvents.action, "visit_confirmed"), inArray(auditEvents.pharmacyVisitId, visits.map((v) => v.id))) : undefined,
      ),
    )
    .orderBy(asc(auditEvents.occurredAt), asc(auditEvents.id));

  const names = await actorNames(db, rows, rows.map(assignedCourier).filter((id): id is number => id !== null));
  const courierName = (id: number | null) => (id === null ? "unknown" : names.courierName(id));
  const attempts = await db
    .select({ id: deliveries.id, reason: deliveries.failureReasonId, notes: deliveries.body, at: deliveries.createdAt })
    .from(deliveryOrders)
    .innerJoin(deliveries, eq(deliveries.id, deliveryOrders.deliveryId))
    .where(and(eq(deliveryOrders.orderId, order.id), eq(deliveries.outcome, "failed")))
    .orderBy(asc(deliveries.id));
  const returned = await returnOf(db, order.id);

  const custody: CustodyEntry[] = [];
  let attempt = 0;
  for (const row of rows) {
    const event = eventOf(row);
    if (!event) continue;
    // An answer about the visit given before the order existed was not about this order.
    if (event === "visit_confirmed" && row.occurredAt < order.createdAt) continue;
    // Named as the status history names them (actor-names.ts); a row with nobody on it keeps custody's old "unknown" courier.
    let actor: CustodyEntry["actor"] = names.actorOf(row) ?? { type: "courier", id: null, name: "unknown" };
    const details: CustodyEntry["details"] = {};
    if (event === "assigned" || event === "unassigned") {
      const courierId = assignedCourier(row);
      details.courier_id = courierId;
      details.courier_name = courierId === null ? null : courierName(courierId);
    }
    if (event === "verified" && row.action === "copay_asserted") {
      details.copay_asserted = true;
      // A copay the courier changed at the counter: what it was and what they made it (cents inside, decimals here).
      if (row.details && "copay_after" in row.details) {
        details.copay_before = centsToDecimal(centsOf(row.details.copay_before));
        details.copay_after = centsToDecimal(centsOf(row.details.copay_after));
      }
    }
    if (event === "rescheduled") {
      details.from = row.details?.from ?? null;
      details.to = row.details?.to ?? null;
    }
    if (event === "visit_confirmed") details.visit_id = row.pharmacyVisitId;
    if (event === "delivery_attempted") {
      const failed = attempts[attempt++];
      if (failed) {
        details.attempt = attempt;
        details.failure_reason = FAILURE_REASONS.find((reason) => reason.id === failed.reason)?.name ?? null;
        details.notes = failed.notes;
      }
    }
    if (event === "returned" && returned) {
      // The pharmacy staff took it back: they are who signed, the courier handed it over.
      actor = { type: "staff", id: null, name: `${returned.recipientFirstName} ${returned.recipientLastName}` };
      details.staff_first_name = returned.recipientFirstName;
      details.staff_last_name = returned.recipientLastName;
      details.courier_name = courierName(row.courierId);
      details.return_id = returned.id;
      details.signature_url = returnSignatureUrl(returned.id);
    }
    custody.push({
      event,
      at: row.occurredAt.toISOString(),
      client_occurred_at: row.clientOccurredAt ? row.clientOccurredAt.toISOString() : null,
      actor,
      latitude: row.latitude,
      longitude: row.longitude,
      details,
    });
  }
  return { order_id: order.id, custody };
}

/** A cents amount kept in an audit row's details (null: the order had no copay). */
function centsOf(value: unknown): number | null {
  return typeof value === "number" && Number.isSafeInteger(value) ? value : null;
}

/** An assignment's audit row names the courier as its subject, "courier:7". */
function assignedCourier(row: AuditRow): number | null {
  const match = /^courier:(\d+)$/.exec(row.subject ?? "");
  return match ? Number(match[1]) : null;
}

function eventOf(row: AuditRow): CustodyEntry["event"] | null {
  if (row.action === "order_created") return "created";
  // The operations API writes order_assigned (with the courier) beside the status change; that row is the one shown.
  if (row.action === "order_assigned") return "assigned";
  if (row.action === "order_unassigned") return "unassigned";
  if (row.action === "order_rescheduled") return "rescheduled";
  if (row.action === "status_change" && (row.toStatus === "submitted_to_courier" || (row.fromStatus === "submitted_to_courier" && row.toStatus === "new"))) {
    return null;
  }
  if (row.action === "copay_asserted") return "verified";
  if (row.action === "visit_confirmed") return "visit_confirmed";
  if (row.action === "status_change" && row.toStatus) return STATUS_EVENT[row.toStatus] ?? null;
  return null;
}
