import argon2 from "argon2";
import { count, sql } from "drizzle-orm";
import { statusByName } from "../../domain/vocabulary.ts";
import type { Db } from "./client.ts";
import { DEMO_PASSWORD, demoCouriers, demoOrders, demoPharmacies, demoVisits } from "./demo-data.ts";
import { ensureReferenceData } from "./reference-data.ts";
import { couriers, orders, pharmacies, pharmacyVisits } from "./schema.ts";

export async function hasCouriers(db: Db): Promise<boolean> {
  const [row] = await db.select({ n: count() }).from(couriers);
  return (row?.n ?? 0) > 0;
}

/**
 * Empties every table but the vocabulary: the demo reset only. The audit trail's
 * append-only guard (migration 0002) is lifted for this transaction alone.
 */
export async function wipe(db: Db): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.execute(sql`alter table audit_events disable trigger audit_events_no_truncate`);
    await tx.execute(sql`truncate table
      audit_events, idempotency_keys, return_lines, return_signatures, payments, delivery_orders,
      deliveries, orders, pharmacy_visits, pharmacies, sessions, couriers restart identity cascade`);
    await tx.execute(sql`alter table audit_events enable trigger audit_events_no_truncate`);
  });
}

/** Loads the demo day for serviceDate ("YYYY-MM-DD") into an empty database. */
export async function seedDemo(db: Db, serviceDate: string): Promise<void> {
  await ensureReferenceData(db);
  await db.transaction(async (tx) => {
    const courierIds = new Map<string, number>();
    for (const courier of demoCouriers) {
      const [row] = await tx
        .insert(couriers)
        .values({
          email: courier.email,
          passwordHash: await argon2.hash(DEMO_PASSWORD),
          firstName: courier.firstName,
          lastName: courier.lastName,
          selfServiceAddonsEnabled: courier.selfServiceAddonsEnabled,
        })
        .returning({ id: couriers.id });
      courierIds.set(courier.key, row!.id);
    }

    const pharmacyIds = new Map<string, number>();
    for (const { key, ...pharmacy } of demoPharmacies) {
      const [row] = await tx
        .insert(pharmacies)
        .values({ ...pharmacy, paymentMethods: [...pharmacy.paymentMethods] })
        .returning({ id: pharmacies.id });
      pharmacyIds.set(key, row!.id);
    }

    await tx.insert(pharmacyVisits).values(
      demoVisits.map((visit) => ({
        courierId: courierIds.get(visit.courier)!,
        pharmacyId: pharmacyIds.get(visit.pharmacy)!,
        serviceDate,
        confirmed: visit.confirmed,
      })),
    );

    await tx.insert(orders).values(
      demoOrders.map((order, index) => ({
        courierId: order.courier ? courierIds.get(order.courier)! : null,
        pharmacyId: pharmacyIds.get(order.pharmacy)!,
        serviceDate,
        statusId: statusByName(order.status).id,
        patientFirstName: order.first,
        patientLastName: order.last,
        patientDateOfBirth: order.dob ?? null,
        recipientDescription: `${order.first} ${order.last}`,
        streetAddress: order.street,
        streetAddress2: order.street2 ?? null,
        city: order.city ?? "Philadelphia",
        stateAbbreviation: "PA",
        zipcode: order.zip,
        latitude: order.lat,
        longitude: order.lng,
        phoneNumber: order.phone,
        rxNumbers: order.rx,
        pickupNote: order.pickupNote ?? null,
        copayCents: order.copay === undefined ? 0 : order.copay,
        deliveryFeeCents: order.fee === undefined ? null : order.fee,
        otherItemsAmountDueCents: order.other ?? 0,
        pidOrder: order.pid ?? false,
        deliveryNotes: order.notes ?? [],
        collectIdentification: order.collectId ?? false,
        controlledSubstance: order.controlled ?? false,
        signatureRequired: order.signatureRequired ?? false,
        availableAsAddon: order.addon ?? false,
        serviceWindowInstanceId: 9000 + Math.floor(index / 8),
        pickedUpAt: order.status === "picked_up" ? new Date() : null,
      })),
    );
  });
}

export async function resetToDemo(db: Db, serviceDate: string): Promise<void> {
  await wipe(db);
  await seedDemo(db, serviceDate);
}
