import { and, eq, inArray } from "drizzle-orm";
import type { RoutedOrdersResponse } from "../../../domain/contract/routing.ts";
import { REMAINING_DELIVERY_STATUS } from "../../../domain/routing.ts";
import { statusByName } from "../../../domain/vocabulary.ts";
import type { Db } from "../../db/client.ts";
import { orders, pharmacies } from "../../db/schema.ts";
import { conflict, HttpError, notFound } from "../../http/errors.ts";
import { plannedPlace, plannedStopsOf } from "../planned-places.ts";
import { orderView, pharmacyView } from "../views.ts";
import { planDrivingOrder } from "./plan-route.ts";
import type { SearchOptions } from "./iterated-local-search.ts";

export interface RoutedOrdersRequest {
  courierId: number;
  serviceDate: string;
  pharmacyId: number;
  /** Distinct ids, at most MAX_ROUTED_ORDERS (the contract has checked both). */
  orderIds: number[];
}

/**
 * The courier's remaining deliveries among the given orders, in driving
 * order from the pharmacy (one of the courier's pharmacies today). Every id must be one of the courier's orders at
 * that pharmacy today (another courier's order is indistinguishable from a
 * missing one); those no longer in the bag (delivered, attempted) or not
 * yet picked up are simply not part of the route.
 */
export async function routedOrders(db: Db, request: RoutedOrdersRequest, search: SearchOptions = {}): Promise<RoutedOrdersResponse> {
  // A pharmacy not in the courier's day answers exactly as an unknown one: its existence and settings are not the courier's to probe.
  const [inDay] = await db
    .select({ id: orders.id })
    .from(orders)
    .where(and(eq(orders.courierId, request.courierId), eq(orders.pharmacyId, request.pharmacyId), eq(orders.serviceDate, request.serviceDate)))
    .limit(1);
  const [pharmacy] = inDay ? await db.select().from(pharmacies).where(eq(pharmacies.id, request.pharmacyId)) : [];
  if (!pharmacy) throw notFound(`Pharmacy ${request.pharmacyId}`);
  if (!pharmacy.routingEnabled) throw conflict(`${pharmacy.name} does not use routing: deliver its orders in the listed order.`);

  const rows = await db
    .select()
    .from(orders)
    .where(and(inArray(orders.id, request.orderIds), eq(orders.courierId, request.courierId)));
  const byId = new Map(rows.map((row) => [row.id, row]));
  const requested = request.orderIds.map((id) => {
    const row = byId.get(id);
    if (!row) throw notFound(`Order ${id}`);
    if (row.pharmacyId !== pharmacy.id || row.serviceDate !== request.serviceDate) {
      throw new HttpError(404, "not_found", `Order ${id} is not on today's list for ${pharmacy.name}.`);
    }
    return row;
  });

  const remainingStatusId = statusByName(REMAINING_DELIVERY_STATUS).id;
  const remaining = requested.filter((row) => row.statusId === remainingStatusId);
  const origin =
    pharmacy.latitude !== null && pharmacy.longitude !== null ? { latitude: pharmacy.latitude, longitude: pharmacy.longitude } : null;
  const order = planDrivingOrder(origin, remaining, search);

  const view = pharmacyView(pharmacy);
  const placeOf = await plannedStopsOf(db, request.courierId, order);
  return { orders: order.map((id) => ({ ...orderView(byId.get(id)!, view), ...plannedPlace(placeOf, id) })) };
}
