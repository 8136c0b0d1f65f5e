import { inArray } from "drizzle-orm";
import type { Order, PharmacyVisit } from "../../domain/contract/entities.ts";
import { pharmacies, type pharmacyVisits } from "../db/schema.ts";
import type { OrderRow } from "./order-transitions.ts";
import { orderView, pharmacyView } from "./views.ts";
import type { Tx } from "../db/client.ts";

type VisitRow = typeof pharmacyVisits.$inferSelect;

/** The pharmacies the rows point at, loaded once, as the API shows them. */
async function pharmaciesById(tx: Tx, ids: number[]) {
  const unique = [...new Set(ids)];
  const rows = unique.length ? await tx.select().from(pharmacies).where(inArray(pharmacies.id, unique)) : [];
  return new Map(rows.map((row) => [row.id, pharmacyView(row)]));
}

/** Order rows → the API's Order objects, in the same order. */
export async function ordersView(tx: Tx, rows: OrderRow[]): Promise<Order[]> {
  const byId = await pharmaciesById(tx, rows.map((row) => row.pharmacyId));
  return rows.map((row) => orderView(row, byId.get(row.pharmacyId)!));
}

/** Pharmacy visit rows → the API's PharmacyVisit objects, in the same order. */
export async function visitsView(tx: Tx, rows: VisitRow[]): Promise<PharmacyVisit[]> {
  const byId = await pharmaciesById(tx, rows.map((row) => row.pharmacyId));
  return rows.map((row) => ({
    id: row.id,
    pharmacy: byId.get(row.pharmacyId)!,
    confirmed: row.confirmed,
    arrived_at: row.arrivedAt ? row.arrivedAt.toISOString() : null,
  }));
}
