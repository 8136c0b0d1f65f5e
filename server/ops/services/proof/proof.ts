import { and, desc, eq, inArray } from "drizzle-orm";
import type { Proof } from "../../../../domain/contract/ops-proof.ts";
import { centsToDecimal } from "../../../../domain/money.ts";
import { relationshipName } from "../../../../domain/recipient.ts";
import { FAILURE_REASONS, statusById } from "../../../../domain/vocabulary.ts";
import type { Db } from "../../../db/client.ts";
import { couriers, deliveries, deliveryOrders, deliveryPhotos, payments, pharmacies, returnLines, returnSignatures } from "../../../db/schema.ts";
import { conflict } from "../../../http/errors.ts";
import type { PaymentGateway } from "../../../payments/gateway.ts";
import type { OrderRow } from "../../../services/order-transitions.ts";
import { photoUrl, returnSignatureUrl, scopedOrder, signatureUrl, type OpsScope } from "./scope.ts";

/**
 * GET /api/ops/v1/orders/{id}/proof: the order's proof of delivery, from the
 * delivery the courier recorded at the door (or the return's, for an order
 * handed back without an attempt) and the pharmacy staff's return signature.
 * The ID's number leaves as its last 4 characters; the card's last 4 come from
 * the payment gateway, never from our rows (we never stored card data).
 */

type DeliveryRow = typeof deliveries.$inferSelect;

const OUTCOME_OF_STATUS: Record<string, Proof["outcome"] | undefined> = {
  delivered: "delivered",
  reconciled: "delivered",
  delivery_attempted: "delivery_attempted",
  returned_to_pharmacy: "returned_to_pharmacy",
};

const iso = (value: Date | null | undefined) => (value ? value.toISOString() : null);
export const lastFour = (value: string | null) => (value ? value.slice(-4) : null);

/** The order's latest delivery record and every order recorded with it. */
export async function latestDelivery(db: Db, orderId: number): Promise<{ row: DeliveryRow; orderIds: number[] } | null> {
  const [found] = await db
    .select({ delivery: deliveries })
    .from(deliveryOrders)
    .innerJoin(deliveries, eq(deliveries.id, deliveryOrders.deliveryId))
    .where(eq(deliveryOrders.orderId, orderId))
    .orderBy(desc(deliveries.id))
    .limit(1);
  if (!found) return null;
  const members = await db
    .select({ orderId: deliveryOrders.orderId })
    .from(deliveryOrders)
    .where(eq(deliveryOrders.deliveryId, found.delivery.id))
    .orderBy(deliveryOrders.orderId);
  return { row: found.delivery, orderIds: members.map((member) => member.orderId) };
}

/** The return signature an undelivered item was handed back under. */
export async function returnOf(db: Db, orderId: number) {
  const [found] = await db
    .select({ signature: returnSignatures })
    .from(returnLines)
    .innerJoin(returnSignatures, eq(returnSignatures.id, returnLines.returnSignatureId))
    .where(and(eq(returnLines.orderId, orderId), eq(returnLines.type, "item")))
    .orderBy(desc(returnSignatures.id))
    .limit(1);
  return found?.signature ?? null;
}

async function cardLastFour(db: Db, gateway: PaymentGateway, order: OrderRow): Promise<string | null> {
  const [held] = await db
    .select({ transactionId: payments.transactionId })
    .from(payments)
    .where(and(eq(payments.orderId, order.id), inArray(payments.status, ["authorized", "settled"])))
    .orderBy(desc(payments.id))
    .limit(1);
  if (!held?.transactionId) return null;
  const digits = await gateway.cardLastFour(held.transactionId);
  // Whatever a gateway answers, no more than four digits leave.
  return digits && /^\d{4}$/.test(digits) ? digits : null;
}

/** The proof as recorded; filed-proof.ts adds the copay change from custody and the filing fields. */
export type ProofRecord = Omit<Proof, "document_id" | "generated_at" | "time_zone" | "copay_change">;

export async function orderProof(db: Db, gateway: PaymentGateway, scope: OpsScope, orderId: number): Promise<ProofRecord> {
  const order = await scopedOrder(db, scope, orderId);
  const status = statusById(order.statusId)!.name;
  const outcome = OUTCOME_OF_STATUS[status];
  if (!outcome) throw conflict(`Order ${orderId} is ${status.replace(/_/g, " ")}: there is no proof of delivery yet.`);

  const [pharmacy] = await db.select({ id: pharmacies.id, name: pharmacies.name }).from(pharmacies).where(eq(pharmacies.id, order.pharmacyId));
  const [courier] = order.courierId
    ? await db.select({ id: couriers.id, first_name: couriers.firstName, last_name: couriers.lastName }).from(couriers).where(eq(couriers.id, order.courierId))
    : [];
  const delivery = await latestDelivery(db, order.id);
  const returned = outcome === "returned_to_pharmacy" ? await returnOf(db, order.id) : null;
  const row = delivery?.row ?? null;
  // A delivery row of outcome "returned" is the staff's signature for an order never attempted: no door, no recipient.
  const atDoor = row && row.outcome !== "returned" ? row : null;
  const completed = atDoor?.outcome === "completed" ? atDoor : null;
  const failed = atDoor?.outcome === "failed" ? atDoor : null;

  const paymentType = completed?.paymentType as "cash" | "check" | "credit_card" | null | undefined;
  const payment =
    completed && paymentType && completed.paymentAmountCents != null
      ? {
          type: paymentType,
          amount: centsToDecimal(completed.paymentAmountCents)!,
          card_last4: paymentType === "credit_card" ? await cardLastFour(db, gateway, order) : null,
        }
      : null;
  const [photo] = completed
    ? await db.select({ deliveryId: deliveryPhotos.deliveryId }).from(deliveryPhotos).where(eq(deliveryPhotos.deliveryId, completed.id))
    : [];
  const hasId = completed && (completed.identificationType || completed.identificationNumber);

  return {
    order: { id: order.id, external_id: order.externalId, status, service_date: order.serviceDate, rx_numbers: order.rxNumbers },
    pharmacy: pharmacy!,
    courier: courier ?? null,
    patient: { first_name: order.patientFirstName, last_name: order.patientLastName },
    delivery_address: {
      street_address: order.streetAddress,
      street_address_2: order.streetAddress2,
      city: order.city,
      state_abbreviation: order.stateAbbreviation,
      zipcode: order.zipcode,
    },
    outcome,
    failure: failed
      ? { reason: FAILURE_REASONS.find((reason) => reason.id === failed.failureReasonId)!.name, notes: failed.body }
      : null,
    recipient:
      completed && completed.relationshipId
        ? {
            first_name: completed.recipientFirstName,
            last_name: completed.recipientLastName,
            relationship: relationshipName(completed.relationshipId) ?? String(completed.relationshipId),
            other_relationship_description: completed.otherRelationshipDescription,
          }
        : null,
    signed_by: completed?.signedBy ?? null,
    signature_refusal_reason: completed?.signatureRefusalReason ?? null,
    // From the door's record, completed or failed: a failure at 'Did not verify date of birth' is false.
    dob_verified: atDoor?.dobVerified ?? null,
    identification: hasId
      ? {
          type: completed.identificationType,
          state: completed.identificationState,
          number_last4: lastFour(completed.identificationNumber),
          expiration: completed.identificationExpiration,
        }
      : null,
    payment,
    notes: completed?.body ?? null,
    client_occurred_at: iso(atDoor?.clientOccurredAt),
    received_at: iso(atDoor?.createdAt ?? returned?.createdAt ?? row?.createdAt ?? order.updatedAt)!,
    latitude: atDoor?.latitude ?? returned?.latitude ?? null,
    longitude: atDoor?.longitude ?? returned?.longitude ?? null,
    grouped_order_ids: atDoor ? delivery!.orderIds.filter((id) => id !== order.id) : [],
    signature_url: completed?.signatureSvg ? signatureUrl(order.id) : null,
    photo_url: photo ? photoUrl(order.id) : null,
    returned: returned
      ? {
          return_id: returned.id,
          staff_first_name: returned.recipientFirstName,
          staff_last_name: returned.recipientLastName,
          at: returned.createdAt.toISOString(),
          signature_url: returnSignatureUrl(returned.id),
        }
      : null,
  };
}

/** The recipient's signature as stored (checked at upload to be a drawing only); null when there is none. */
export async function proofSignatureSvg(db: Db, scope: OpsScope, orderId: number): Promise<string | null> {
  await scopedOrder(db, scope, orderId);
  const delivery = await latestDelivery(db, orderId);
  return delivery && delivery.row.outcome === "completed" ? delivery.row.signatureSvg : null;
}

/** The photo of the drop-off of the order's latest delivery, as stored; null when there is none. */
export async function proofPhoto(db: Db, scope: OpsScope, orderId: number): Promise<{ mediaType: string; bytes: Buffer } | null> {
  await scopedOrder(db, scope, orderId);
  const delivery = await latestDelivery(db, orderId);
  if (!delivery || delivery.row.outcome !== "completed") return null;
  const [photo] = await db
    .select({ mediaType: deliveryPhotos.mediaType, bytes: deliveryPhotos.bytes })
    .from(deliveryPhotos)
    .where(eq(deliveryPhotos.deliveryId, delivery.row.id));
  return photo ?? null;
}
