import { and, eq, inArray } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { plannedStops } from "../db/schema.ts";

type PlannedStopRow = typeof plannedStops.$inferSelect;

/**
 * Each order's stop in this courier's applied plan (issue 28), by order id. A
 * plan of another courier's (the order moved since) does not count.
 */
export async function plannedStopsOf(db: Db, courierId: number, orderIds: readonly number[]): Promise<Map<number, PlannedStopRow>> {
  const rows = orderIds.length
    ? await db
        .select()
        .from(plannedStops)
        .where(and(eq(plannedStops.courierId, courierId), inArray(plannedStops.orderId, [...orderIds])))
    : [];
  return new Map(rows.map((row) => [row.orderId, row]));
}

/**
 * The order's place in the plan as the courier's app reads it, null on a day
 * without one: every view that hands the app an order (the itinerary, the
 * routed list) carries it, so a copy the app replaces keeps it.
 */
export function plannedPlace(stops: Map<number, PlannedStopRow>, orderId: number) {
  const stop = stops.get(orderId);
  return { planned_position: stop?.deliveryPosition ?? null, planned_pickup_position: stop?.pickupPosition ?? null };
}
