import { and, asc, eq, inArray } from "drizzle-orm";
import type { ReturnManifest } from "../../../domain/contract/ops-proof.ts";
import { centsToDecimal } from "../../../domain/money.ts";
import type { Db } from "../../db/client.ts";
import { couriers, orders, pharmacies, returnLines, returnSignatures } from "../../db/schema.ts";
import { notFound } from "../../http/errors.ts";
import { returnPdfUrl, returnSignatureUrl, type OpsScope } from "./scope.ts";

/**
 * GET /api/ops/v1/returns?pharmacy_id=&service_date=: the day's return
 * manifests — what the courier handed back to the pharmacy, the cash and
 * check totals, and who at the pharmacy signed. A return belongs to the
 * service day of the orders on it.
 */

type SignatureRow = typeof returnSignatures.$inferSelect;
const money = (cents: number) => centsToDecimal(cents)!;

async function manifests(db: Db, signatures: SignatureRow[]): Promise<ReturnManifest[]> {
  if (signatures.length === 0) return [];
  const ids = signatures.map((s) => s.id);
  const lines = await db.select().from(returnLines).where(inArray(returnLines.returnSignatureId, ids)).orderBy(asc(returnLines.id));
  const pharmacyRows = await db.select({ id: pharmacies.id, name: pharmacies.name }).from(pharmacies).where(inArray(pharmacies.id, [...new Set(signatures.map((s) => s.pharmacyId))]));
  const courierRows = await db
    .select({ id: couriers.id, first_name: couriers.firstName, last_name: couriers.lastName })
    .from(couriers)
    .where(inArray(couriers.id, [...new Set(signatures.map((s) => s.courierId))]));
  return signatures.map((signature) => {
    const own = lines.filter((line) => line.returnSignatureId === signature.id);
    const of = (type: "item" | "cash" | "check") => own.filter((line) => line.type === type);
    return {
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
      latitude: signature.latitude,
      longitude: signature.longitude,
      signature_url: returnSignatureUrl(signature.id),
      pdf_url: returnPdfUrl(signature.id),
    };
  });
}

export async function dayReturns(db: Db, scope: OpsScope, pharmacyId: number, serviceDate: string): Promise<ReturnManifest[]> {
  // A pharmacy key asking for another pharmacy's day sees nothing of it.
  if (scope.pharmacyId !== null && scope.pharmacyId !== pharmacyId) throw notFound(`Pharmacy ${pharmacyId}`);
  const rows = await db
    .selectDistinct({ signature: returnSignatures })
    .from(returnSignatures)
    .innerJoin(returnLines, eq(returnLines.returnSignatureId, returnSignatures.id))
    .innerJoin(orders, eq(orders.id, returnLines.orderId))
    .where(and(eq(returnSignatures.pharmacyId, pharmacyId), eq(orders.serviceDate, serviceDate)))
    .orderBy(asc(returnSignatures.id));
  return manifests(db, rows.map((row) => row.signature));
}

async function scopedSignature(db: Db, scope: OpsScope, returnId: number): Promise<SignatureRow> {
  const [row] = await db
    .select()
    .from(returnSignatures)
    .where(and(eq(returnSignatures.id, returnId), scope.pharmacyId === null ? undefined : eq(returnSignatures.pharmacyId, scope.pharmacyId)));
  if (!row) throw notFound(`Return ${returnId}`);
  return row;
}

export async function oneReturn(db: Db, scope: OpsScope, returnId: number): Promise<{ manifest: ReturnManifest; signatureSvg: string }> {
  const row = await scopedSignature(db, scope, returnId);
  const [manifest] = await manifests(db, [row]);
  return { manifest: manifest!, signatureSvg: row.signatureSvg };
}
