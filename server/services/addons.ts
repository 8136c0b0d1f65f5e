import { and, asc, count, eq, inArray, isNull } from "drizzle-orm";
import type { Order } from "../../domain/contract/entities.ts";
import type { AddonsRequest } from "../../domain/contract/pickup.ts";
import { MAX_ADDON_ORDERS } from "../../domain/pharmacy-progress.ts";
import { TEXT } from "../../domain/texts.ts";
import type { Db, Tx } from "../db/client.ts";
import { orders, pharmacyVisits } from "../db/schema.ts";
import { conflict, notFound } from "../http/errors.ts";
import { assertedCopayCents, copayChange } from "./asserted-copay.ts";
import { audit } from "../db/audit.ts";
import { ordersView } from "./order-responses.ts";
import { applyTransition, planTransition } from "./order-transitions.ts";

/**
 * Add-on orders (spec §2 /addons, §4, §5): orders a pharmacy has ready that no
 * courier carries yet. A courier with a visit at the pharmacy today may take
 * up to 3 of them; they join the courier's day picked up.
 */

/**
 * The courier's visit at this pharmacy today, or 404: a pharmacy the courier
 * is not visiting is indistinguishable from one that does not exist. With
 * lock, it also serialises one courier's add-on requests at that pharmacy so
 * two at once cannot both pass the limit.
 */
async function visitToday(tx: Tx, courierId: number, pharmacyId: number, day: string, lock: boolean) {
  const query = tx
    .select({ id: pharmacyVisits.id })
    .from(pharmacyVisits)
    .where(and(eq(pharmacyVisits.courierId, courierId), eq(pharmacyVisits.pharmacyId, pharmacyId), eq(pharmacyVisits.serviceDate, day)))
    .orderBy(pharmacyVisits.id);
  const [visit] = lock ? await query.for("update") : await query;
  if (!visit) throw notFound(`Pharmacy ${pharmacyId}`);
  return visit;
}

/** GET courier/pharmacies/{id}/addons: today's add-ons on offer there, by patient last name. */
export async function listAddons(db: Db, courierId: number, pharmacyId: number, day: string): Promise<Order[]> {
  await visitToday(db, courierId, pharmacyId, day, false);
  const rows = await db
    .select()
    .from(orders)
    .where(
      and(
        eq(orders.pharmacyId, pharmacyId),
        eq(orders.serviceDate, day),
        eq(orders.availableAsAddon, true),
        isNull(orders.courierId),
      ),
    )
    .orderBy(asc(orders.patientLastName), asc(orders.patientFirstName), asc(orders.id));
  return ordersView(db, rows);
}

/**
 * POST courier/pharmacies/{id}/addons: the chosen add-ons become the
 * courier's, each with its asserted copay, added_on, and picked_up through
 * the lifecycle. One transaction with the rows locked: of two couriers taking
 * the same add-on, the second finds it taken (409).
 */
export async function takeAddons(db: Db, courierId: number, pharmacyId: number, day: string, request: AddonsRequest): Promise<Order[]> {
  const copays = new Map(request.orders.map((choice) => [choice.id, assertedCopayCents(choice.copay, `order ${choice.id}`)]));
  const ids = [...copays.keys()];
  return db.transaction(async (tx) => {
    await visitToday(tx, courierId, pharmacyId, day, true);
    const rows = await tx
      .select()
      .from(orders)
      .where(and(inArray(orders.id, ids), eq(orders.pharmacyId, pharmacyId), eq(orders.serviceDate, day)))
      .orderBy(orders.id)
      .for("update");
    for (const id of ids) {
      const row = rows.find((candidate) => candidate.id === id);
      // Only add-ons are visible here: any other order, anyone's, is "not found".
      if (!row || (!row.availableAsAddon && !row.addedOn)) throw notFound(`Add-on order ${id}`);
      if (row.courierId === courierId) throw conflict(`Order ${id} is already on your list.`);
      if (row.courierId !== null || !row.availableAsAddon) throw conflict(`Order ${id} has already been taken by another courier.`);
    }

    const [taken] = await tx
      .select({ n: count() })
      .from(orders)
      .where(and(eq(orders.courierId, courierId), eq(orders.pharmacyId, pharmacyId), eq(orders.serviceDate, day), eq(orders.addedOn, true)));
    if ((taken?.n ?? 0) + ids.length > MAX_ADDON_ORDERS) throw conflict(TEXT.maxAddonCount);

    planTransition(rows, "PICK_UP");
    const assigned = [];
    for (const row of rows) {
      const [updated] = await tx
        .update(orders)
        .set({
          courierId,
          copayCents: copays.get(row.id)!,
          copayAssertedAt: new Date(),
          addedOn: true,
          availableAsAddon: false,
          serviceWindowInstanceId: request.service_window_instance_id ?? row.serviceWindowInstanceId,
        })
        .where(eq(orders.id, row.id))
        .returning();
      assigned.push(updated!);
    }
    // An add-on's copay is asserted as it is taken: a changed one goes into the custody, as at the counter (issue 25).
    const changed = rows.flatMap((row) => {
      const details = copayChange(row.copayCents, copays.get(row.id)!);
      return details ? [{ courierId, action: "copay_asserted" as const, orderId: row.id, details }] : [];
    });
    await audit(tx, changed);
    const pickedUp = await applyTransition(tx, courierId, assigned, "PICK_UP", { pickedUpAt: new Date() });
    return ordersView(tx, pickedUp);
  });
}
