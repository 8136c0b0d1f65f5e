import { and, eq, inArray, sql } from "drizzle-orm";
import type { ItineraryResponse } from "../../domain/contract/itinerary.ts";
import { FAILURE_REASONS, ORDER_STATUSES, RELATIONSHIPS } from "../../domain/vocabulary.ts";
import type { Db } from "../db/client.ts";
import { couriers, orders, pharmacies, pharmacyVisits } from "../db/schema.ts";
import { plannedPlace, plannedStopsOf } from "./planned-places.ts";
import { orderView, pharmacyView } from "./views.ts";
import { AWAITING_VERIFICATION } from "../../domain/pharmacy-list.ts";
import { statusById } from "../../domain/vocabulary.ts";

/**
 * The day's three fixed queries, built once per database and prepared: every
 * courier loads the day dozens of times (docs/benchmarks.md "API under load").
 */
function prepareDayQueries(db: Db) {
  const courierId = sql.placeholder("courierId");
  const serviceDate = sql.placeholder("serviceDate");
  return {
    courier: db.select().from(couriers).where(eq(couriers.id, courierId)).prepare("rxc_day_courier"),
    visits: db
      .select()
      .from(pharmacyVisits)
      .where(and(eq(pharmacyVisits.courierId, courierId), eq(pharmacyVisits.serviceDate, serviceDate)))
      .orderBy(pharmacyVisits.id)
      .prepare("rxc_day_visits"),
    orders: db
      .select()
      .from(orders)
      .where(and(eq(orders.courierId, courierId), eq(orders.serviceDate, serviceDate)))
      .orderBy(orders.id)
      .prepare("rxc_day_orders"),
  };
}

const prepared = new WeakMap<Db, ReturnType<typeof prepareDayQueries>>();

export async function loadItinerary(
  db: Db,
  courierId: number,
  serviceDate: string,
  supportPhone: string,
): Promise<ItineraryResponse> {
  let queries = prepared.get(db);
  if (!queries) prepared.set(db, (queries = prepareDayQueries(db)));
  const [courier] = await queries.courier.execute({ courierId });
  if (!courier) throw new Error(`Courier ${courierId} vanished`);

  const [visitRows, orderRows] = await Promise.all([
    queries.visits.execute({ courierId, serviceDate }),
    queries.orders.execute({ courierId, serviceDate }),
  ]);

  const pharmacyIds = [...new Set([...visitRows.map((v) => v.pharmacyId), ...orderRows.map((o) => o.pharmacyId)])];
  const pharmacyRows = pharmacyIds.length ? await db.select().from(pharmacies).where(inArray(pharmacies.id, pharmacyIds)) : [];
  const pharmacyById = new Map(pharmacyRows.map((row) => [row.id, pharmacyView(row)]));
  const placeOf = await plannedStopsOf(db, courierId, orderRows.map((row) => row.id));
  const visitsInOrder = placeOf.size ? visitsInPlanOrder(visitRows, orderRows, placeOf) : visitRows;

  return {
    courier: { id: courier.id, first_name: courier.firstName, last_name: courier.lastName },
    service_date: serviceDate,
    support_phone: supportPhone,
    feature_flags: { self_service_addons_enabled: courier.selfServiceAddonsEnabled },
    pharmacy_visits: visitsInOrder.map((visit) => ({
      id: visit.id,
      pharmacy: pharmacyById.get(visit.pharmacyId)!,
      confirmed: visit.confirmed,
      arrived_at: visit.arrivedAt ? visit.arrivedAt.toISOString() : null,
    })),
    orders: orderRows.map((row) => ({
      ...orderView(row, pharmacyById.get(row.pharmacyId)!),
      ...plannedPlace(placeOf, row.id),
    })),
    statuses: ORDER_STATUSES.map((s) => ({ ...s })),
    relationships: RELATIONSHIPS.map((r) => ({ ...r })),
    failure_reasons: FAILURE_REASONS.map((r) => ({ ...r })),
  };
}

/**
 * Issue 28: the courier's pharmacies in the order of dispatch's plan, which
 * the app lists them in: each pharmacy at its next planned pickup (the
 * earliest planned pickup of an order still to be verified there), so a
 * pharmacy the plan returns to later moves to that later place once its
 * first pickup is done, as the plan says. Visits the plan does not name keep
 * their order, after the planned ones.
 */
function visitsInPlanOrder<Visit extends { pharmacyId: number }>(
  visits: Visit[],
  orderRows: { id: number; pharmacyId: number; statusId: number }[],
  placeOf: Map<number, { pickupPosition: number }>,
): Visit[] {
  const next = new Map<number, number>();
  for (const row of orderRows) {
    const place = placeOf.get(row.id)?.pickupPosition;
    const status = statusById(row.statusId)?.name;
    if (place === undefined || !status || !AWAITING_VERIFICATION.includes(status)) continue;
    next.set(row.pharmacyId, Math.min(next.get(row.pharmacyId) ?? Infinity, place));
  }
  // A stable sort: the same place (or none) keeps the visits' own order.
  return [...visits].sort((a, b) => (next.get(a.pharmacyId) ?? Infinity) - (next.get(b.pharmacyId) ?? Infinity));
}
