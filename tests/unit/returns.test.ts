import { describe, expect, it } from "vitest";
import type { Order } from "../../domain/contract/entities.ts";
import { returnFormEntries, toWireReturnLine } from "../../domain/contract/returns.ts";
import { isPharmacyComplete, pharmacySections } from "../../domain/pharmacy-list.ts";
import {
  collectedPaymentType,
  isUndeliveredItem,
  itemReturnCents,
  linesOfKind,
  needsDeliveryRecord,
  paymentReturnCents,
  returnLineOf,
  returnLinesMismatch,
  returnSummary,
  totalOfKind,
  type ReturnLine,
} from "../../domain/returns.ts";
import { ORDER_STATUS_NAMES, type OrderStatusName } from "../../domain/vocabulary.ts";
import { nextOrderStatus } from "../../machines/order-status.ts";
import { makeOrder, makePharmacy } from "../support/order-fixtures.ts";

const PHARMACY = makePharmacy({ id: 7 });
const order = (overrides: Parameters<typeof makeOrder>[0] = {}) => makeOrder({ pharmacy: PHARMACY, ...overrides });

/** Copay $12.50, delivery fee $5.00, other items $3.25. */
const PRICED = { copay: "12.50", delivery_fee: "5.00", other_items_amount_due: "3.25" };

describe("return totals (spec §9)", () => {
  it("a returned item is worth copay plus delivery_fee, in cents; other items are not part of it", () => {
    expect(itemReturnCents(order(PRICED))).toBe(1750);
    expect(itemReturnCents(order({ copay: "0.00", delivery_fee: "7.99" }))).toBe(799);
    expect(itemReturnCents(order({ copay: "0.01", delivery_fee: null }))).toBe(1);
    expect(itemReturnCents(order({ copay: null, delivery_fee: null }))).toBe(0);
  });

  it("cash or a check handed back sums copay, delivery_fee and other_items_amount_due, in cents", () => {
    expect(paymentReturnCents(order({ ...PRICED, status: "delivered", payment_collected: true, payment_type: "cash" }))).toBe(2075);
    expect(paymentReturnCents(order({ copay: null, delivery_fee: "0.10", other_items_amount_due: "0.20", status: "delivered" }))).toBe(30);
    // Cents never drift through floating point: 0.10 + 0.20 is 30, and 1,234,567.89 stays exact.
    expect(paymentReturnCents(order({ copay: "1234567.89", delivery_fee: null, other_items_amount_due: "0.00" }))).toBe(123456789);
  });

  it("a copay paid before delivery was never in the courier's hands: only the fee and other items go back", () => {
    expect(paymentReturnCents(order({ ...PRICED, copay_paid_at: "2026-11-21T09:00:00.000Z" }))).toBe(825);
  });
});

type Payment = { payment_type: string | null; payment_collected: boolean };
const PAYMENTS: Payment[] = [
  { payment_type: null, payment_collected: false },
  { payment_type: "cash", payment_collected: true },
  { payment_type: "check", payment_collected: true },
  { payment_type: "card", payment_collected: false },
  { payment_type: "cash", payment_collected: false },
  { payment_type: "check", payment_collected: false },
];

/** What should go back, written out from the spec for each combination. */
function expectedLine(status: OrderStatusName, payment: Payment, itemReturned: boolean): ReturnLine["type"] | null {
  if (status === "picked_up") return "item";
  if (status === "delivery_attempted") return itemReturned ? null : "item";
  if (status === "delivered" && payment.payment_collected && !itemReturned && (payment.payment_type === "cash" || payment.payment_type === "check")) {
    return payment.payment_type;
  }
  return null;
}

describe("what goes back, for every status and payment", () => {
  const cases = ORDER_STATUS_NAMES.flatMap((status) =>
    PAYMENTS.flatMap((payment) => [false, true].map((itemReturned) => [status, payment, itemReturned] as const)),
  );

  it.each(cases)("%s, %o, item_returned %s", (status, payment, itemReturned) => {
    const o = order({ id: 3, status, ...PRICED, ...payment, item_returned: itemReturned });
    const type = expectedLine(status, payment, itemReturned);
    const line = returnLineOf(o);
    if (type === null) {
      expect(line).toBeNull();
      return;
    }
    expect(line).toEqual({ type, amount: type === "item" ? 1750 : 2075, order_id: 3 });
    expect(isUndeliveredItem(o)).toBe(type === "item");
    expect(collectedPaymentType(o)).toBe(type === "item" ? null : type);
    expect(needsDeliveryRecord(o)).toBe(status === "picked_up");
  });

  it("every order with a line can make its lifecycle move at the return, and afterwards the pharmacy is complete", () => {
    for (const [status, payment, itemReturned] of cases) {
      const o = order({ id: 1, status, ...PRICED, ...payment, item_returned: itemReturned });
      const line = returnLineOf(o);
      if (!line) continue;
      const event = line.type === "item" ? "RETURN_TO_PHARMACY" : "RECONCILE";
      const next = nextOrderStatus(status, event, { paymentType: o.payment_type, paymentCollected: o.payment_collected });
      expect(next, `${status} ${JSON.stringify(payment)}`).not.toBeNull();
      const returned = order({ ...o, status: next!, item_returned: true });
      expect(isPharmacyComplete([returned], PHARMACY.id)).toBe(true);
    }
  });

  it("with nothing to return, each order is either handled already or not the courier's to return yet", () => {
    for (const [status, payment, itemReturned] of cases) {
      const o = order({ status, ...PRICED, ...payment, item_returned: itemReturned });
      if (returnLineOf(o)) continue;
      const notYetInHand = ["new", "submitted_to_courier", "verified"].includes(status);
      expect(isPharmacyComplete([o], PHARMACY.id) !== notYetInHand, `${status} ${JSON.stringify(payment)} ${itemReturned}`).toBe(true);
    }
  });
});

describe("the return summary at one pharmacy", () => {
  const orders: Order[] = [
    order({ id: 40, status: "delivered", ...PRICED, payment_collected: true, payment_type: "check" }),
    order({ id: 11, status: "delivery_attempted", copay: "6.50", delivery_fee: null }),
    order({ id: 30, status: "delivered", copay: "10.00", delivery_fee: "2.50", payment_collected: true, payment_type: "cash" }),
    order({ id: 12, status: "picked_up", copay: "0.00", delivery_fee: "5.00" }),
    order({ id: 31, status: "delivered", copay: "1.00", delivery_fee: null, payment_collected: true, payment_type: "cash" }),
    order({ id: 50, status: "delivered", ...PRICED, payment_authorized: true, payment_type: "card" }),
    order({ id: 51, status: "delivered", copay: "0.00" }),
    order({ id: 52, status: "cancelled", ...PRICED }),
    order({ id: 53, status: "returned_to_pharmacy", ...PRICED, item_returned: true }),
    order({ id: 60, status: "picked_up", ...PRICED, pharmacy: makePharmacy({ id: 8 }) }),
  ];

  it("lists items, then cash, then checks, each by order id, with totals in cents", () => {
    const summary = returnSummary(orders, 7);
    expect(summary.lines).toEqual([
      { type: "item", amount: 650, order_id: 11 },
      { type: "item", amount: 500, order_id: 12 },
      { type: "cash", amount: 1250, order_id: 30 },
      { type: "cash", amount: 100, order_id: 31 },
      { type: "check", amount: 2075, order_id: 40 },
    ]);
    expect(summary).toMatchObject({ itemsTotal: 1150, cashCollected: 1350, checkCollected: 2075, orderIds: [11, 12, 30, 31, 40] });
    expect(linesOfKind(summary, "orders").map((line) => line.order_id)).toEqual([11, 12]);
    expect(linesOfKind(summary, "cash").map((line) => line.order_id)).toEqual([30, 31]);
    expect(linesOfKind(summary, "check").map((line) => line.order_id)).toEqual([40]);
    expect([totalOfKind(summary, "orders"), totalOfKind(summary, "cash"), totalOfKind(summary, "check")]).toEqual([1150, 1350, 2075]);
  });

  it("another pharmacy's orders are not part of it; a pharmacy with nothing in hand has no lines", () => {
    expect(returnSummary(orders, 8).lines).toEqual([{ type: "item", amount: 1750, order_id: 60 }]);
    expect(returnSummary(orders, 9)).toMatchObject({ lines: [], itemsTotal: 0, cashCollected: 0, checkCollected: 0, orderIds: [] });
  });

  it("puts the pharmacy in 'Select pharmacy to return orders' until the return, then 'Completed'", () => {
    const atSeven = orders.filter((o) => o.pharmacy.id === 7 && o.status.name !== "picked_up");
    expect(pharmacySections(atSeven, 7)).toEqual(["return"]);
    const after = atSeven.map((o) => {
      const line = returnLineOf(o);
      if (!line) return o;
      const next = nextOrderStatus(o.status.name, line.type === "item" ? "RETURN_TO_PHARMACY" : "RECONCILE", {
        paymentType: o.payment_type,
        paymentCollected: o.payment_collected,
      })!;
      return { ...o, status: { ...o.status, name: next }, item_returned: true };
    });
    expect(pharmacySections(after, 7)).toEqual(["completed"]);
  });
});

describe("comparing the lines sent with the lines expected", () => {
  const expected: ReturnLine[] = [
    { type: "item", amount: 650, order_id: 11 },
    { type: "cash", amount: 1250, order_id: 30 },
  ];

  it("accepts the same lines in any order", () => {
    expect(returnLinesMismatch([...expected].reverse(), expected)).toBeNull();
  });

  it("names the first difference in the courier's words", () => {
    expect(returnLinesMismatch([expected[0]!], expected)).toBe("Order 30 must be returned too (cash).");
    expect(returnLinesMismatch([...expected, { type: "check", amount: 5, order_id: 99 }], expected)).toBe("Order 99 has nothing to return to this pharmacy.");
    expect(returnLinesMismatch([expected[0]!, { ...expected[1]!, type: "check" }], expected)).toBe("Order 30 is returned as cash, not a check.");
    expect(returnLinesMismatch([{ ...expected[0]!, amount: 600 }, expected[1]!], expected)).toBe("The amount to return for order 11 is $6.50, not $6.00.");
    expect(returnLinesMismatch([...expected, expected[0]!], expected)).toBe("Order 11 is listed more than once.");
  });
});

describe("the reconcile signature form (spec §7)", () => {
  it("names every field as the spec does, the lines as JSON with decimal amounts, the signature as signature.svg", () => {
    const entries = returnFormEntries(
      {
        recipient_first_name: "Priya",
        recipient_last_name: "Raman",
        signature_svg: "<svg/>",
        courier_id: 1,
        pharmacy_id: 7,
        cash_collected: "13.50",
        check_collected: "0.00",
        latitude: null,
        longitude: null,
        returns: [toWireReturnLine({ type: "cash", amount: 1350, order_id: 30 })],
      },
      "token",
    );
    expect(entries).toEqual([
      ["_csrf_token", "token"],
      ["recipient_first_name", "Priya"],
      ["recipient_last_name", "Raman"],
      ["courier_id", "1"],
      ["pharmacy_id", "7"],
      ["cash_collected", "13.50"],
      ["check_collected", "0.00"],
      ["signature[attachment][file]", { filename: "signature.svg", type: "image/svg+xml", content: "<svg/>" }],
      ["returns", '[{"type":"cash","amount":"13.50","order_id":30}]'],
    ]);
  });
});
