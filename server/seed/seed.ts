import argon2 from "argon2";
import { count, eq, inArray, sql } from "drizzle-orm";
import { OrderCreateRequest, PharmacyCreateRequest } from "../../domain/contract/ops.ts";
import { centsToDecimal } from "../../domain/money.ts";
import { newToken, hashToken } from "../auth/tokens.ts";
import { assignOrders } from "../ops/services/assignments.ts";
import { inviteCourier } from "../ops/services/couriers.ts";
import { createOrder } from "../ops/services/orders.ts";
import { createPharmacy } from "../ops/services/pharmacies.ts";
import { inviteStaff } from "../ops/services/staff.ts";
import { applyTransition, type OrderRow } from "../services/order-transitions.ts";
import type { Db } from "../db/client.ts";
import { DEMO_PASSWORD, DEMO_STAFF_PASSWORD, demoCouriers, demoStaff, demoOrders, demoPharmacies, demoVisits, type DemoOrder } from "./demo-data.ts";
import { ensureReferenceData } from "../db/reference-data.ts";
import { apiKeys, courierInvitations, couriers, orders, pharmacyVisits, staffAccounts } from "../db/schema.ts";

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
      webhook_attempts, webhook_messages, webhook_subscriptions,
      audit_events, api_keys, courier_invitations, idempotency_keys, return_lines, return_signatures, payments, delivery_orders,
      deliveries, orders, pharmacy_visits, pharmacies, sessions, couriers, staff_sessions, staff_accounts, dispatch_events restart identity cascade`);
    await tx.execute(sql`alter table audit_events enable trigger audit_events_no_truncate`);
  });
}

/** A demo order as the ops API's POST /orders body: the demo goes through the same validation. */
function orderRequest(order: DemoOrder, index: number, pharmacyId: number, serviceDate: string): OrderCreateRequest {
  const notes = order.notes ?? [];
  return OrderCreateRequest.parse({
    pharmacy_id: pharmacyId,
    external_id: `demo-${index + 1}`,
    patient_first_name: order.first,
    patient_last_name: order.last,
    patient_date_of_birth: order.dob ?? null,
    phone_number: order.phone,
    address: {
      street_address: order.street,
      street_address_2: order.street2 ?? null,
      city: order.city ?? "Philadelphia",
      state_abbreviation: "PA",
      zipcode: order.zip,
      latitude: order.lat,
      longitude: order.lng,
    },
    rx_numbers: order.rx,
    copay: order.copay === undefined ? "0.00" : centsToDecimal(order.copay),
    delivery_fee: order.fee === undefined ? null : centsToDecimal(order.fee),
    other_items_amount_due: centsToDecimal(order.other ?? 0),
    pid_order: order.pid ?? false,
    collect_identification: order.collectId ?? false,
    controlled_substance: order.controlled ?? false,
    signature_required: order.signatureRequired ?? false,
    delivery_instruction: notes.find((note) => !note.courier_note && !note.superuser_note)?.delivery_instruction ?? null,
    superuser_note: notes.find((note) => note.superuser_note)?.delivery_instruction ?? null,
    pickup_note: order.pickupNote ?? null,
    service_date: serviceDate,
  });
}

/**
 * Loads the demo day for serviceDate ("YYYY-MM-DD") into an empty database
 * through the operations API's own service functions (issue 15): pharmacies,
 * invited couriers, orders and assignments are made exactly as dispatch and
 * the pharmacies make them. What only a courier does on the day (setting the
 * password, confirming visits, picking up, a note of their own) is then
 * played as the courier, and the demo's add-ons are put on offer. Every
 * audit row names the "Demo day" key, a dispatch key revoked at once.
 */
export async function seedDemo(db: Db, serviceDate: string): Promise<void> {
  await ensureReferenceData(db);
  const passwordHash = await argon2.hash(DEMO_PASSWORD);
  await db.transaction(async (tx) => {
    const [loader] = await tx
      .insert(apiKeys)
      .values({ name: "Demo day", role: "dispatch", keyHash: hashToken(newToken()), source: "api", revokedAt: new Date() })
      .returning({ id: apiKeys.id });
    const actor = { apiKeyId: loader!.id };
    const actorIds = { courierId: null, apiKeyId: loader!.id };

    const courierIds = new Map<string, number>();
    for (const courier of demoCouriers) {
      const { courier: created } = await inviteCourier(tx, actor, { first_name: courier.firstName, last_name: courier.lastName, email: courier.email });
      // The published demo password is set as if the courier had used the invitation.
      await tx.update(couriers).set({ passwordHash, selfServiceAddonsEnabled: courier.selfServiceAddonsEnabled }).where(eq(couriers.id, created.id));
      await tx.update(courierInvitations).set({ usedAt: new Date() }).where(eq(courierInvitations.courierId, created.id));
      courierIds.set(courier.key, created.id);
    }

    const pharmacyIds = new Map<string, number>();
    for (const pharmacy of demoPharmacies) {
      const body = PharmacyCreateRequest.parse({
        name: pharmacy.name,
        phone_number: pharmacy.phoneNumber,
        address: {
          street_address: pharmacy.streetAddress,
          street_address_2: "streetAddress2" in pharmacy ? pharmacy.streetAddress2 : null,
          city: pharmacy.city,
          state_abbreviation: pharmacy.stateAbbreviation,
          zipcode: pharmacy.zipcode,
          latitude: pharmacy.latitude,
          longitude: pharmacy.longitude,
        },
        payment_methods: pharmacy.paymentMethods,
        allow_pod_copay_collection: pharmacy.allowPodCopayCollection,
        routing_enabled: pharmacy.routingEnabled,
        dob_verification_enabled: pharmacy.dobVerificationEnabled,
        pod_recipient_config: pharmacy.podRecipientConfig,
        can_skip_copay_collection: pharmacy.canSkipCopayCollection,
        can_skip_signature: pharmacy.canSkipSignature,
      });
      pharmacyIds.set(pharmacy.key, (await createPharmacy(tx, actor, body)).id);
    }

    // The console's people (issue 27), invited as dispatch invites them, with the published password set.
    const staffPasswordHash = await argon2.hash(DEMO_STAFF_PASSWORD);
    for (const member of demoStaff) {
      const { staff } = await inviteStaff(tx, { apiKeyId: loader!.id }, {
        email: member.email,
        first_name: member.firstName,
        last_name: member.lastName,
        role: member.role,
        pharmacy_id: member.pharmacy ? pharmacyIds.get(member.pharmacy)! : null,
      });
      await tx.update(staffAccounts).set({ passwordHash: staffPasswordHash }).where(eq(staffAccounts.id, staff.id));
      await tx.update(courierInvitations).set({ usedAt: new Date() }).where(eq(courierInvitations.staffId, staff.id));
    }

    const rows: OrderRow[] = [];
    for (const [index, order] of demoOrders.entries()) {
      const request = orderRequest(order, index, pharmacyIds.get(order.pharmacy)!, serviceDate);
      const { order: row } = await createOrder(tx, actor, request, { today: serviceDate, scope: null });
      const changes: Partial<OrderRow> = { serviceWindowInstanceId: 9000 + Math.floor(index / 8) };
      // A note the courier wrote on an earlier visit keeps its place among the pharmacy's notes.
      if (order.notes?.some((note) => note.courier_note)) changes.deliveryNotes = order.notes;
      const [updated] = await tx.update(orders).set(changes).where(eq(orders.id, row.id)).returning();
      rows.push(updated!);
    }

    // Dispatch assigns each courier's day; the pharmacy visits are made unconfirmed, as on a real day.
    for (const [key, courierId] of courierIds) {
      const ids = rows.filter((_, i) => demoOrders[i]!.courier === key && demoOrders[i]!.status !== "new").map((row) => row.id);
      if (ids.length) await assignOrders(tx, actor, { courier_id: courierId, service_date: serviceDate, order_ids: ids });
      // An order the courier will find new on the day (spec §3 'new'): on their day, not yet submitted.
      const fresh = rows.filter((_, i) => demoOrders[i]!.courier === key && demoOrders[i]!.status === "new").map((row) => row.id);
      if (fresh.length) await tx.update(orders).set({ courierId }).where(inArray(orders.id, fresh));
    }

    // What the couriers already did this morning: confirmed their visits, picked some orders up.
    for (const visit of demoVisits) {
      await tx
        .update(pharmacyVisits)
        .set({ confirmed: visit.confirmed })
        .where(sql`${pharmacyVisits.courierId} = ${courierIds.get(visit.courier)!} and ${pharmacyVisits.pharmacyId} = ${pharmacyIds.get(visit.pharmacy)!}`);
    }
    for (const [key, courierId] of courierIds) {
      const picked = await tx
        .select()
        .from(orders)
        .where(inArray(orders.id, rows.filter((_, i) => demoOrders[i]!.courier === key && demoOrders[i]!.status === "picked_up").map((row) => row.id)));
      if (picked.length) await applyTransition(tx, courierId, picked, "PICK_UP", { pickedUpAt: new Date() });
    }

    // Add-ons: submitted with no courier, offered at check-in (spec §2 add-ons).
    const addons = rows.filter((_, i) => demoOrders[i]!.addon);
    if (addons.length) await applyTransition(tx, actorIds, addons, "SUBMIT_TO_COURIER", { availableAsAddon: true });
  });
}

export async function resetToDemo(db: Db, serviceDate: string): Promise<void> {
  await wipe(db);
  await seedDemo(db, serviceDate);
}
