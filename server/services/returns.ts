import { and, eq } from "drizzle-orm";
import { isSignatureMediaType } from "../../domain/contract/deliveries.ts";
import type { ReturnRequest, ReturnResponse } from "../../domain/contract/returns.ts";
import { centsToDecimal, formatUsd, parseDecimalToCents, type Cents } from "../../domain/money.ts";
import { needsDeliveryRecord, returnLinesMismatch, returnSummary, summaryOfLines, type ReturnLine } from "../../domain/returns.ts";
import type { Db, Tx } from "../db/client.ts";
import { deliveries, deliveryOrders, orders, pharmacies, pharmacyVisits, returnLines, returnSignatures } from "../db/schema.ts";
import { badRequest, conflict, HttpError, notFound } from "../http/errors.ts";
import { ordersView } from "./order-responses.ts";
import { applyTransition, type OrderRow } from "./order-transitions.ts";
import { checkSignatureSvg } from "./signature-svg.ts";

/**
 * POST /api/courier/pharmacies/{id}/returns (spec §4 reconcile signature, §7,
 * §9): the pharmacy staff sign for the undelivered items, cash and checks the
 * courier hands back. What must come back is recomputed from the database
 * with the same rule the app showed (domain/returns.ts); anything the courier
 * sent that disagrees is refused, never adjusted. Everything is written in one
 * transaction, or nothing is.
 */

const cents = (decimal: string) => parseDecimalToCents(decimal)!;

/** The form as sent, checked on its own before the database is asked anything. */
function checkForm(courierId: number, pharmacyId: number, form: ReturnRequest): { lines: ReturnLine[]; cash: Cents; check: Cents } {
  if (form.pharmacy_id !== pharmacyId) {
    throw badRequest(`The form is for pharmacy ${form.pharmacy_id}, but was sent to pharmacy ${pharmacyId}.`);
  }
  if (form.courier_id !== courierId) throw badRequest(`courier_id ${form.courier_id} is not the courier who is logged in.`);
  if ((form.latitude === undefined) !== (form.longitude === undefined)) throw badRequest("Send latitude and longitude together, or neither.");

  const file = form.signature.attachment.file;
  if (!isSignatureMediaType(file.type)) throw badRequest("The signature must be an SVG image (image/svg+xml).");
  const verdict = checkSignatureSvg(file.content);
  if (!verdict.ok) throw new HttpError(400, "invalid_signature", verdict.reason);

  const lines = form.returns.map((line) => ({ type: line.type, amount: cents(line.amount), order_id: line.order_id }));
  const sent = summaryOfLines(lines);
  const cash = cents(form.cash_collected);
  const check = cents(form.check_collected);
  if (sent.cashCollected !== cash) {
    throw badRequest(`cash_collected ${form.cash_collected} is not the ${centsToDecimal(sent.cashCollected)} of the cash lines.`);
  }
  if (sent.checkCollected !== check) {
    throw badRequest(`check_collected ${form.check_collected} is not the ${centsToDecimal(sent.checkCollected)} of the check lines.`);
  }
  return { lines, cash, check };
}

/** The courier's orders at the pharmacy today, locked: a second return waits, then finds them returned. */
async function lockPharmacyOrders(tx: Tx, courierId: number, pharmacyId: number, day: string): Promise<OrderRow[]> {
  return tx
    .select()
    .from(orders)
    .where(and(eq(orders.courierId, courierId), eq(orders.pharmacyId, pharmacyId), eq(orders.serviceDate, day)))
    .orderBy(orders.id)
    .for("update");
}

/** The pharmacy, if the courier has business there today (a visit or orders); otherwise 404. */
async function pharmacyOfDay(tx: Tx, courierId: number, pharmacyId: number, day: string, hasOrders: boolean) {
  const [pharmacy] = await tx.select().from(pharmacies).where(eq(pharmacies.id, pharmacyId));
  if (!pharmacy) throw notFound(`Pharmacy ${pharmacyId}`);
  if (!hasOrders) {
    const [visit] = await tx
      .select({ id: pharmacyVisits.id })
      .from(pharmacyVisits)
      .where(and(eq(pharmacyVisits.courierId, courierId), eq(pharmacyVisits.pharmacyId, pharmacyId), eq(pharmacyVisits.serviceDate, day)));
    if (!visit) throw notFound(`Pharmacy ${pharmacyId}`);
  }
  return pharmacy;
}

const mismatch = (message: string) => new HttpError(409, "return_mismatch", `${message} Please refresh and check the return again.`);

export async function recordReturn(db: Db, courierId: number, pharmacyId: number, form: ReturnRequest, day: string): Promise<ReturnResponse> {
  const sent = checkForm(courierId, pharmacyId, form);
  return db.transaction(async (tx) => {
    const rows = await lockPharmacyOrders(tx, courierId, pharmacyId, day);
    const pharmacy = await pharmacyOfDay(tx, courierId, pharmacyId, day, rows.length > 0);
    const views = await ordersView(tx, rows);
    const expected = returnSummary(views, pharmacyId);
    if (expected.lines.length === 0) throw conflict(`There is nothing to return to ${pharmacy.name}.`);
    if (sent.cash !== expected.cashCollected) {
      throw mismatch(`The cash handed back, ${formatUsd(sent.cash)}, is not the ${formatUsd(expected.cashCollected)} collected in cash for ${pharmacy.name}.`);
    }
    if (sent.check !== expected.checkCollected) {
      throw mismatch(`The checks handed back, ${formatUsd(sent.check)}, are not the ${formatUsd(expected.checkCollected)} collected by check for ${pharmacy.name}.`);
    }
    const difference = returnLinesMismatch(sent.lines, expected.lines);
    if (difference) throw mismatch(difference);

    const staff = { first: form.recipient_first_name, last: form.recipient_last_name };
    const svg = form.signature.attachment.file.content;
    const latitude = form.latitude ?? null;
    const longitude = form.longitude ?? null;
    const [signature] = await tx
      .insert(returnSignatures)
      .values({
        courierId,
        pharmacyId,
        recipientFirstName: staff.first,
        recipientLastName: staff.last,
        signatureSvg: svg,
        cashCollectedCents: expected.cashCollected,
        checkCollectedCents: expected.checkCollected,
        latitude,
        longitude,
      })
      .returning({ id: returnSignatures.id });
    await tx
      .insert(returnLines)
      .values(expected.lines.map((line) => ({ returnSignatureId: signature!.id, type: line.type, amountCents: line.amount, orderId: line.order_id })));

    // Spec §4: orders never attempted are "created as deliveries" — handed to the pharmacy staff, who signed.
    const byId = new Map(rows.map((row) => [row.id, row]));
    const neverAttempted = views.filter((order) => expected.orderIds.includes(order.id) && needsDeliveryRecord(order));
    if (neverAttempted.length > 0) {
      const [delivery] = await tx
        .insert(deliveries)
        .values({
          courierId,
          outcome: "returned",
          recipientFirstName: staff.first,
          recipientLastName: staff.last,
          signedBy: `${staff.first} ${staff.last}`,
          signatureSvg: svg,
          latitude,
          longitude,
        })
        .returning({ id: deliveries.id });
      await tx.insert(deliveryOrders).values(neverAttempted.map((order) => ({ deliveryId: delivery!.id, orderId: order.id })));
    }

    // Undelivered items go back to the pharmacy; delivered orders' cash and checks reconcile them.
    const items = expected.items.map((line) => byId.get(line.order_id)!);
    const payments = [...expected.cash, ...expected.check].map((line) => byId.get(line.order_id)!).sort((a, b) => a.id - b.id);
    const position = { latitude, longitude };
    if (items.length > 0) await applyTransition(tx, courierId, items, "RETURN_TO_PHARMACY", { itemReturned: true }, null, position);
    if (payments.length > 0) await applyTransition(tx, courierId, payments, "RECONCILE", { itemReturned: true }, null, position);

    return {
      return: {
        id: signature!.id,
        order_ids: expected.orderIds,
        cash_collected: centsToDecimal(expected.cashCollected)!,
        check_collected: centsToDecimal(expected.checkCollected)!,
      },
    };
  });
}
