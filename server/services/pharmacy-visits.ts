import { and, eq, inArray, sql } from "drizzle-orm";
import type { PharmacyVisit } from "../../domain/contract/entities.ts";
import type { ConfirmVisitsRequest } from "../../domain/contract/pickup.ts";
import type { Db } from "../db/client.ts";
import { pharmacyVisits } from "../db/schema.ts";
import { notFound } from "../http/errors.ts";
import { audit } from "../db/audit.ts";
import { visitsView } from "./order-responses.ts";
import { enqueueEvent } from "./webhooks/outbox.ts";

/**
 * Pharmacy visits (spec §2 /confirm_pharmacy_visits, §4 check-in, §7): the
 * courier's availability answers and arrival times. The path names a courier;
 * anyone but the logged-in one is "not found", like another courier's visit.
 */

function requireSelf(sessionCourierId: number, pathCourierId: number): void {
  if (sessionCourierId !== pathCourierId) throw notFound(`Courier ${pathCourierId}`);
}

/** PUT couriers/{id}/pharmacy_visits/{visitId}/arrived_at_pharmacy: the first arrival time stays. */
export async function markArrived(db: Db, sessionCourierId: number, courierId: number, visitId: number): Promise<PharmacyVisit> {
  requireSelf(sessionCourierId, courierId);
  const [row] = await db
    .update(pharmacyVisits)
    .set({ arrivedAt: sql`coalesce(${pharmacyVisits.arrivedAt}, now())` })
    .where(and(eq(pharmacyVisits.id, visitId), eq(pharmacyVisits.courierId, courierId)))
    .returning();
  if (!row) throw notFound(`Pharmacy visit ${visitId}`);
  const [visit] = await visitsView(db, [row]);
  return visit!;
}

/** POST couriers/{id}/pharmacy_visits/confirm: every answer stored, or none (404 names the first unknown visit). */
export async function confirmVisits(
  db: Db,
  sessionCourierId: number,
  courierId: number,
  request: ConfirmVisitsRequest,
): Promise<PharmacyVisit[]> {
  requireSelf(sessionCourierId, courierId);
  const ids = request.pharmacy_visits.map((answer) => answer.id);
  return db.transaction(async (tx) => {
    const rows = await tx
      .select({ id: pharmacyVisits.id })
      .from(pharmacyVisits)
      .where(and(inArray(pharmacyVisits.id, ids), eq(pharmacyVisits.courierId, courierId)))
      .orderBy(pharmacyVisits.id)
      .for("update");
    const found = new Set(rows.map((row) => row.id));
    const missing = ids.find((id) => !found.has(id));
    if (missing !== undefined) throw notFound(`Pharmacy visit ${missing}`);
    const updated = [];
    for (const answer of request.pharmacy_visits) {
      const [row] = await tx
        .update(pharmacyVisits)
        .set({ confirmed: answer.confirmed })
        .where(eq(pharmacyVisits.id, answer.id))
        .returning();
      updated.push(row!);
    }
    // The answers join the chain of custody and go out as visit.confirmed, with the change or not at all.
    await audit(tx, updated.map((row) => ({ courierId, action: "visit_confirmed" as const, pharmacyVisitId: row.id })));
    for (const row of updated) {
      const visit = { id: row.id, pharmacy_id: row.pharmacyId, courier_id: row.courierId, service_date: row.serviceDate, confirmed: row.confirmed };
      await enqueueEvent(tx, { type: "visit.confirmed", pharmacyId: row.pharmacyId, data: { visit } });
    }
    return visitsView(tx, updated);
  });
}
