import { and, asc, eq, inArray } from "drizzle-orm";
import type { ReturnedOrder, ReturnManifest } from "../../../../domain/contract/ops-proof.ts";
import { centsToDecimal } from "../../../../domain/money.ts";
import { FAILURE_REASONS } from "../../../../domain/vocabulary.ts";
import type { Db } from "../../../db/client.ts";
import { couriers, deliveries, deliveryOrders, orders, pharmacies, returnLines, returnSignatures } from "../../../db/schema.ts";
import { notFound } from "../../../http/errors.ts";
import { filed } from "./filing.ts";
import { returnPdfUrl, returnSignatureUrl, type OpsScope } from "./scope.ts";

/**
 * GET /api/ops/v1/returns?pharmacy_id=&service_date=: the day's return
 * manifests — what the courier handed back to the pharmacy, the cash and
 * check totals, and who at the pharmacy signed. A return belongs to the
 * service day of the orders on it.
 */

type SignatureRow = typeof returnSignatures.$inferSelect;
const money = (cents: number) => centsToDecimal(cents)!;

type LineRow = typeof returnLines.$inferSelect;

/** The orders on the returns, each with the reason its latest failed attempt gave (none: it was never attempted). */
async function ordersOf(db: Db, lines: LineRow[]) {
  const ids = [...new Set(lines.map((line) => line.orderId).filter((id): id is number => id !== null))];
  if (ids.length === 0) return { rows: new Map<number, typeof orders.$inferSelect>(), reasons: new Map<number, string>() };
  const rows = await db.select().from(orders).where(inArray(orders.id, ids));
  const failures = await db
    .select({ orderId: deliveryOrders.orderId, reason: deliveries.failureReasonId })
    .from(deliveryOrders)
    .innerJoin(deliveries, eq(deliveries.id, deliveryOrders.deliveryId))
    .where(and(inArray(deliveryOrders.orderId, ids), eq(deliveries.outcome, "failed")))
    .orderBy(asc(deliveries.id));
  const reasons = new Map<number, string>();
  for (const failure of failures) {
    const name = FAILURE_REASONS.find((reason) => reason.id === failure.reason)?.name;
    if (name) reasons.set(failure.orderId, name);
  }
  return { rows: new Map(rows.map((row) => [row.id, row])), reasons };
}

/** Each order on one return: what it is, for whom, why it came back, and what was handed over for it. */
function returnedOrders(own: LineRow[], found: Awaited<ReturnType<typeof ordersOf>>): ReturnedOrder[] {
  const ids = [...new Set(own.map((line) => line.orderId).filter((id): id is number => id !== null))].sort((a, b) => a - b);
  const sum = (orderId: number, type: LineRow["type"]) => {
    const matching = own.filter((line) => line.orderId === orderId && line.type === type);
    return matching.length ? money(matching.reduce((total, line) => total + line.amountCents, 0)) : null;
  };
  return ids.flatMap((orderId) => {
    const order = found.rows.get(orderId);
    if (!order) return [];
    const item = sum(orderId, "item");
    return [
      {
        order_id: orderId,
        external_id: order.externalId,
        service_date: order.serviceDate,
        patient: { first_name: order.patientFirstName, last_name: order.patientLastName },
        rx_numbers: order.rxNumbers,
        returned_item: item !== null,
        reason: item !== null ? (found.reasons.get(orderId) ?? "Not attempted") : "Delivered: payment handed over",
        item_amount: item,
        cash: sum(orderId, "cash"),
        check: sum(orderId, "check"),
      },
    ];
  });
}

async function manifests(db: Db, signatures: SignatureRow[], timeZone: string): Promise<ReturnManifest[]> {
  if (signatures.length === 0) return [];
  const ids = signatures.map((s) => s.id);
  const lines = await db.select().from(returnLines).where(inArray(returnLines.returnSignatureId, ids)).orderBy(asc(returnLines.id));
  const found = await ordersOf(db, lines);
  const pharmacyRows = await db.select({ id: pharmacies.id, name: pharmacies.name }).from(pharmacies).where(inArray(pharmacies.id, [...new Set(signatures.map((s) => s.pharmacyId))]));
  const courierRows = await db
    .select({ id: couriers.id, first_name: couriers.firstName, last_name: couriers.lastName })
    .from(couriers)
    .where(inArray(couriers.id, [...new Set(signatures.map((s) => s.courierId))]));
  return signatures.map((signature) => {
    const own = lines.filter((line) => line.returnSignatureId === signature.id);
    const of = (type: "item" | "cash" | "check") => own.filter((line) => line.type === type);
    return filed("RET", signature.id, {
      id: signature.id,
      pharmacy: pharmacyRows.find((p) => p.id === signature.pharmacyId)!,
      courier: courierRows.find((c) => c.id === signature.courierId)!,
      signed_at: signature.createdAt.toISOString(),
      staff_first_name: signature.recipientFirstName,
      staff_last_name: signature.recipientLastName,
      items: of("item").map((line) => ({ order_id: line.orderId!, amount: money(line.amountCents) })),
      cash: of("cash").map((line) => ({ order_id: line.orderId, amount: money(line.amountCents) })),
      checks: of("check").map((line) => ({ order_id: line.orderId, amount: money(line.amountCents) })),
      cash_total: money(signature.cashCollectedCents),
      check_total: money(signature.checkCollectedCents),
      orders: returnedOrders(own, found),
      latitude: signature.latitude,
      longitude: signature.longitude,
      signature_url: returnSignatureUrl(signature.id),
      pdf_url: returnPdfUrl(signature.id),
    }, timeZone);
  });
}

export async function dayReturns(db: Db, scope: OpsScope, pharmacyId: number, serviceDate: string, timeZone: string): Promise<ReturnManifest[]> {
  // A pharmacy key asking for another pharmacy's day sees nothing of it.
  if (scope.pharmacyId !== null && scope.pharmacyId !== pharmacyId) throw notFound(`Pharmacy ${pharmacyId}`);
  const rows = await db
    .selectDistinct({ signature: returnSignatures })
    .from(returnSignatures)
    .innerJoin(returnLines, eq(returnLines.returnSignatureId, returnSignatures.id))
    .innerJoin(orders, eq(orders.id, returnLines.orderId))
    .where(and(eq(returnSignatures.pharmacyId, pharmacyId), eq(orders.serviceDate, serviceDate)))
    .orderBy(asc(returnSignatures.id));
  return manifests(db, rows.map((row) => row.signature), timeZone);
}

async function scopedSignature(db: Db, scope: OpsScope, returnId: number): Promise<SignatureRow> {
  const [row] = await db
    .select()
    .from(returnSignatures)
    .where(and(eq(returnSignatures.id, returnId), scope.pharmacyId === null ? undefined : eq(returnSignatures.pharmacyId, scope.pharmacyId)));
  if (!row) throw notFound(`Return ${returnId}`);
  return row;
}

export async function oneReturn(db: Db, scope: OpsScope, returnId: number, timeZone: string): Promise<{ manifest: ReturnManifest; signatureSvg: string }> {
  const row = await scopedSignature(db, scope, returnId);
  const [manifest] = await manifests(db, [row], timeZone);
  return { manifest: manifest!, signatureSvg: row.signatureSvg };
}
