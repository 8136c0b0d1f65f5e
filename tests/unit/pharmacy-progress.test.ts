import { describe, expect, it } from "vitest";
import {
  awaitingVerificationCount,
  isOrderHandled,
  isPharmacyComplete,
  pendingVisits,
  pharmaciesOfDay,
  pharmacySections,
  pickupRows,
  visitsToMake,
} from "../../domain/pharmacy-list.ts";
import {
  addonCount,
  canContinueCheckIn,
  checkInList,
  checkInRowAction,
  compareNames,
  onlyCancelledOrders,
  pickupInstructions,
  reviewLists,
  rowIndicator,
  showsCopaySection,
} from "../../domain/pharmacy-progress.ts";
import { ORDER_STATUS_NAMES, type OrderStatusName } from "../../domain/vocabulary.ts";
import { makeOrder, makePharmacy, makeVisit } from "../support/order-fixtures.ts";

const RIVERSIDE = makePharmacy({ id: 1 });
const MARKET = makePharmacy({ id: 2, name: "Market Street Apothecary" });
const NONE = new Set<number>();

/**
 * Spec §4 Pharmacy completion as a table, written out by hand:
 * [status, payment_collected, item_returned] → handled.
 */
const HANDLED: Record<OrderStatusName, [boolean, boolean, boolean, boolean]> = {
  // (paid, returned) = (no, no), (no, yes), (yes, no), (yes, yes)
  delivered: [true, true, false, true],
  delivery_attempted: [false, true, false, true],
  cancelled: [true, true, true, true],
  returned_to_pharmacy: [true, true, true, true],
  reconciled: [true, true, true, true],
  new: [false, false, false, false],
  submitted_to_courier: [false, false, false, false],
  verified: [false, false, false, false],
  picked_up: [false, false, false, false],
};
const FLAGS = [
  [false, false],
  [false, true],
  [true, false],
  [true, true],
] as const;

const variants = ORDER_STATUS_NAMES.flatMap((status) =>
  FLAGS.map(([paid, returned], index) => ({ status, paid, returned, handled: HANDLED[status][index]! })),
);

describe("pharmacy completion (spec §4)", () => {
  it.each(variants)("$status, payment collected $paid, item returned $returned → handled $handled", ({ status, paid, returned, handled }) => {
    expect(isOrderHandled(makeOrder({ status, payment_collected: paid, item_returned: returned }))).toBe(handled);
  });

  it("every pair of orders: complete exactly when each non-cancelled one is handled", () => {
    let checked = 0;
    for (const a of variants) {
      for (const b of variants) {
        const orders = [
          makeOrder({ id: 1, status: a.status, payment_collected: a.paid, item_returned: a.returned }),
          makeOrder({ id: 2, status: b.status, payment_collected: b.paid, item_returned: b.returned }),
        ];
        const expected = [a, b].every((v) => v.status === "cancelled" || v.handled);
        expect(isPharmacyComplete(orders, RIVERSIDE.id), `${a.status}/${a.paid}/${a.returned} + ${b.status}/${b.paid}/${b.returned}`).toBe(expected);
        checked++;
      }
    }
    expect(checked).toBe(variants.length ** 2);
  });

  it("only looks at the pharmacy asked about", () => {
    const orders = [makeOrder({ id: 1, status: "delivered" }), makeOrder({ id: 2, status: "picked_up", pharmacy: MARKET })];
    expect(isPharmacyComplete(orders, RIVERSIDE.id)).toBe(true);
    expect(isPharmacyComplete(orders, MARKET.id)).toBe(false);
  });

  it("a pharmacy whose orders were all cancelled is complete", () => {
    expect(isPharmacyComplete([makeOrder({ status: "cancelled" })], RIVERSIDE.id)).toBe(true);
  });
});

describe("check-in list (spec §4)", () => {
  const day = [
    makeOrder({ id: 1, patient_last_name: "Johnson", patient_first_name: "Timothy", recipient_description: "Timothy Johnson" }),
    makeOrder({ id: 2, patient_last_name: "abernathy", recipient_description: "Eleanor Abernathy", status: "picked_up" }),
    makeOrder({ id: 3, patient_last_name: "Johnson", patient_first_name: "Harold", recipient_description: "Harold Johnson", status: "cancelled" }),
    makeOrder({ id: 4, patient_last_name: "Brennan", recipient_description: "Walter Brennan", status: "new" }),
    makeOrder({ id: 5, patient_last_name: "Delgado", status: "delivered" }),
    makeOrder({ id: 6, patient_last_name: "Evans", status: "verified" }),
    makeOrder({ id: 7, patient_last_name: "Aaron", pharmacy: MARKET }),
  ];

  it("holds new, submitted_to_courier, cancelled and picked_up orders of the pharmacy, sorted by patient last name", () => {
    expect(checkInList(day, RIVERSIDE.id).map((o) => o.id)).toEqual([2, 4, 3, 1]);
  });

  it("searches the recipient description ignoring case and surrounding spaces", () => {
    expect(checkInList(day, RIVERSIDE.id, "  JOHNSON ").map((o) => o.id)).toEqual([3, 1]);
    expect(checkInList(day, RIVERSIDE.id, "walter b").map((o) => o.id)).toEqual([4]);
    expect(checkInList(day, RIVERSIDE.id, "nobody")).toEqual([]);
    expect(checkInList(day, RIVERSIDE.id, "")).toHaveLength(4);
  });

  it("plain names sort as the collator sorts them, without it; other names go to it", () => {
    const collator = new Intl.Collator("en", { sensitivity: "base" });
    const sign = (n: number) => Math.sign(n);
    const alphabet = "aAbByYzZ09 ";
    // Deterministic pseudo-random plain names (letters, digits, spaces), compared both ways.
    let seed = 29;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
    const word = () => Array.from({ length: Math.floor(next() * 5) }, () => alphabet[Math.floor(next() * alphabet.length)]).join("");
    for (let i = 0; i < 2000; i++) {
      const a = word();
      const b = word();
      expect(sign(compareNames(a, b)), `${JSON.stringify(a)} vs ${JSON.stringify(b)}`).toBe(sign(collator.compare(a, b)));
    }
    for (const [a, b] of [["Émile", "Emile"], ["O'Brien", "Obrien"], ["Smith-Jones", "Smith Jones"], ["Øster", "Oster"], ["zoë", "Zoe"], ["Ångström", "Zed"]]) {
      expect(sign(compareNames(a!, b!)), `${a} vs ${b}`).toBe(sign(collator.compare(a!, b!)));
    }
  });

  it("sorts a day's list once, and the list it hands out is the caller's to change", () => {
    const first = checkInList(day, RIVERSIDE.id);
    first.reverse();
    expect(checkInList(day, RIVERSIDE.id).map((o) => o.id)).toEqual([2, 4, 3, 1]);
    // A new day (a new array) is sorted afresh.
    const next = [...day, makeOrder({ id: 8, patient_last_name: "Abbott" })];
    expect(checkInList(next, RIVERSIDE.id).map((o) => o.id)).toEqual([8, 2, 4, 3, 1]);
  });

  it("each status gives the row its action", () => {
    expect(checkInRowAction(makeOrder({ status: "submitted_to_courier" }))).toBe("check_in");
    expect(checkInRowAction(makeOrder({ status: "new" }))).toBe("check_in");
    expect(checkInRowAction(makeOrder({ status: "picked_up" }))).toBe("verified");
    expect(checkInRowAction(makeOrder({ status: "cancelled" }))).toBe("cancelled");
  });

  it.each(ORDER_STATUS_NAMES.flatMap((a) => ORDER_STATUS_NAMES.map((b) => [a, b] as const)))(
    "Continue with orders %s and %s",
    (a, b) => {
      const orders = [makeOrder({ id: 1, status: a }), makeOrder({ id: 2, status: b })];
      const listed = [a, b].filter((s) => ["new", "submitted_to_courier", "cancelled", "picked_up"].includes(s));
      const expected = listed.length > 0 && listed.every((s) => s === "picked_up" || s === "cancelled");
      expect(canContinueCheckIn(orders, RIVERSIDE.id)).toBe(expected);
    },
  );

  it("Continue stays disabled with nothing listed, and ignores other pharmacies", () => {
    expect(canContinueCheckIn([], RIVERSIDE.id)).toBe(false);
    expect(canContinueCheckIn([makeOrder({ status: "picked_up" }), makeOrder({ id: 2, pharmacy: MARKET })], RIVERSIDE.id)).toBe(true);
  });

  it("the review step lists verified and cancelled orders; only cancelled ones mean 'Continue' home", () => {
    const lists = reviewLists(day, RIVERSIDE.id);
    expect(lists.verified.map((o) => o.id)).toEqual([2]);
    expect(lists.cancelled.map((o) => o.id)).toEqual([3]);
    expect(onlyCancelledOrders(day, RIVERSIDE.id)).toBe(false);
    expect(onlyCancelledOrders([makeOrder({ status: "cancelled" })], RIVERSIDE.id)).toBe(true);
    expect(onlyCancelledOrders([], RIVERSIDE.id)).toBe(false);
  });

  it("'Pickup Instructions' come from the first listed order's pickup note", () => {
    const orders = [
      makeOrder({ id: 1, patient_last_name: "Brennan", pickup_note: "Second in the list" }),
      makeOrder({ id: 2, patient_last_name: "Abernathy", pickup_note: "Ring the bell at the side counter." }),
    ];
    expect(pickupInstructions(orders, RIVERSIDE.id)).toBe("Ring the bell at the side counter.");
    expect(pickupInstructions([makeOrder({ pickup_note: "   " })], RIVERSIDE.id)).toBeNull();
    expect(pickupInstructions([], RIVERSIDE.id)).toBeNull();
  });

  it("counts orders awaiting verification per pharmacy", () => {
    expect(awaitingVerificationCount(day, RIVERSIDE.id)).toBe(3);
    expect(awaitingVerificationCount(day, MARKET.id)).toBe(1);
    expect(awaitingVerificationCount(day, 99)).toBe(0);
  });
});

describe("/pharmacies sections (spec §2)", () => {
  const sections = (...statuses: [OrderStatusName, Partial<Parameters<typeof makeOrder>[0]>?][]) =>
    pharmacySections(
      statuses.map(([status, extra], i) => makeOrder({ id: i + 1, status, ...extra })),
      RIVERSIDE.id,
    );

  it("a pharmacy with orders to verify is in pickup", () => {
    expect(sections(["submitted_to_courier"], ["new"])).toEqual(["pickup"]);
  });
  it("part verified: pickup and deliver", () => {
    expect(sections(["submitted_to_courier"], ["picked_up"])).toEqual(["pickup", "deliver"]);
  });
  it("everything picked up: deliver", () => {
    expect(sections(["picked_up"], ["cancelled"])).toEqual(["deliver"]);
  });
  it("an attempted order waits for return once nothing is left to deliver", () => {
    expect(sections(["delivery_attempted"], ["picked_up"])).toEqual(["deliver"]);
    expect(sections(["delivery_attempted"], ["delivered"])).toEqual(["return"]);
  });
  it("cash collected at the door is returned", () => {
    expect(sections(["delivered", { payment_collected: true, payment_type: "cash" }])).toEqual(["return"]);
  });
  it("handled orders: completed", () => {
    expect(sections(["delivered"], ["cancelled"], ["returned_to_pharmacy"], ["delivery_attempted", { item_returned: true }])).toEqual([
      "completed",
    ]);
  });
  it("no orders today: no section", () => {
    expect(pharmacySections([], RIVERSIDE.id)).toEqual([]);
  });
  it("lists each pharmacy of the day once, visits first", () => {
    const visits = [makeVisit({ id: 5, pharmacy: MARKET })];
    const orders = [makeOrder({ id: 1 }), makeOrder({ id: 2, pharmacy: MARKET })];
    expect(pharmaciesOfDay(visits, orders).map((p) => p.id)).toEqual([MARKET.id, RIVERSIDE.id]);
  });
});

describe("the pickup section on a planned day (issue 28)", () => {
  const order = (id: number, pharmacy: typeof RIVERSIDE, pickup: number | null, status: OrderStatusName = "submitted_to_courier") =>
    makeOrder({ id, pharmacy, status, planned_pickup_position: pickup });
  const rows = (orders: ReturnType<typeof makeOrder>[], pharmacies = [RIVERSIDE, MARKET]) =>
    pickupRows(pharmacies, orders).map((row) => [row.pharmacy.id, row.awaiting, row.stop ? `${row.stop.nth}/${row.stop.of}` : null]);

  it("without a plan: one row per pharmacy awaiting verification, in the order given, with its count", () => {
    const day = [order(1, RIVERSIDE, null), order(2, RIVERSIDE, null), order(3, MARKET, null), order(4, MARKET, null, "picked_up")];
    expect(rows(day, [MARKET, RIVERSIDE])).toEqual([
      [MARKET.id, 1, null],
      [RIVERSIDE.id, 2, null],
    ]);
  });

  it("lists a pharmacy the plan returns to at each of its pickups, in plan order, not merged", () => {
    // Plan: Riverside (1, 2), Market (3), then Riverside again (4).
    const day = [order(1, RIVERSIDE, 1), order(2, RIVERSIDE, 1), order(3, MARKET, 3), order(4, RIVERSIDE, 5)];
    expect(rows(day)).toEqual([
      [RIVERSIDE.id, 2, "1/2"],
      [MARKET.id, 1, null],
      [RIVERSIDE.id, 1, "2/2"],
    ]);
  });

  it("drops a pickup once its orders are verified, and the return keeps its place in the plan", () => {
    const day = [order(1, RIVERSIDE, 1, "picked_up"), order(2, RIVERSIDE, 1, "cancelled"), order(3, MARKET, 3), order(4, RIVERSIDE, 5)];
    expect(rows(day)).toEqual([
      [MARKET.id, 1, null],
      [RIVERSIDE.id, 1, "2/2"],
    ]);
  });

  it("counts an order the plan does not place toward the pharmacy's next pickup; unplanned pharmacies come last", () => {
    const OAK = makePharmacy({ id: 3, name: "Oak Lane Drugs" });
    const day = [order(1, RIVERSIDE, 1, "picked_up"), order(2, RIVERSIDE, 4), order(3, RIVERSIDE, null, "verified"), order(4, OAK, null), order(5, MARKET, 2)];
    expect(rows(day, [OAK, RIVERSIDE, MARKET])).toEqual([
      [MARKET.id, 1, null],
      [RIVERSIDE.id, 2, "2/2"],
      [OAK.id, 1, null],
    ]);
  });
});

describe("row indicators (spec §4)", () => {
  it("'incomplete' wins when the order is saved offline", () => {
    expect(rowIndicator(makeOrder({ id: 7, status: "delivered" }), new Set([7]))).toBe("incomplete");
    expect(rowIndicator(makeOrder({ id: 7, status: "cancelled" }), new Set([7]))).toBe("incomplete");
    expect(rowIndicator(makeOrder({ id: 7, status: "delivered" }), new Set([8]))).toBe("complete_mark");
  });

  it("'not collected' for a payable copay not collected and not attempted", () => {
    expect(rowIndicator(makeOrder({ status: "picked_up", copay: "12.50" }), NONE)).toBe("not_collected");
    expect(rowIndicator(makeOrder({ status: "delivered", copay: "0.00", delivery_fee: "5.00" }), NONE)).toBe("not_collected");
    expect(rowIndicator(makeOrder({ status: "delivered", copay: "12.50", payment_collected: true, payment_type: "card" }), NONE)).toBe("complete_mark");
    expect(rowIndicator(makeOrder({ status: "delivered", copay: "12.50", payment_authorized: true }), NONE)).toBe("complete_mark");
    expect(rowIndicator(makeOrder({ status: "delivered", copay: "12.50", copay_paid_at: "2026-11-21T10:00:00Z" }), NONE)).toBe("complete_mark");
    expect(rowIndicator(makeOrder({ status: "delivery_attempted", copay: "12.50" }), NONE)).toBe("incomplete_mark");
    expect(rowIndicator(makeOrder({ status: "returned_to_pharmacy", copay: "12.50" }), NONE)).toBe("incomplete_mark");
    expect(rowIndicator(makeOrder({ status: "cancelled", copay: "12.50" }), NONE)).toBe("cancelled");
  });

  it("a copay the pharmacy does not collect at the door is not payable", () => {
    const noPod = makePharmacy({ allow_pod_copay_collection: false });
    const noMethod = makePharmacy({ payment_methods: [{ type: "cash", allowed: false }] });
    expect(rowIndicator(makeOrder({ status: "delivered", copay: "12.50", pharmacy: noPod }), NONE)).toBe("complete_mark");
    expect(rowIndicator(makeOrder({ status: "delivered", copay: "12.50", pharmacy: noMethod }), NONE)).toBe("complete_mark");
  });

  it("incomplete mark for cash or check at the door, attempted or returned", () => {
    for (const payment_type of ["cash", "check"]) {
      expect(rowIndicator(makeOrder({ status: "delivered", copay: "9.00", payment_collected: true, payment_type }), NONE)).toBe("incomplete_mark");
    }
    expect(rowIndicator(makeOrder({ status: "delivery_attempted" }), NONE)).toBe("incomplete_mark");
    expect(rowIndicator(makeOrder({ status: "returned_to_pharmacy" }), NONE)).toBe("incomplete_mark");
  });

  it("'cancelled' and the complete mark", () => {
    expect(rowIndicator(makeOrder({ status: "cancelled" }), NONE)).toBe("cancelled");
    expect(rowIndicator(makeOrder({ status: "delivered" }), NONE)).toBe("complete_mark");
    expect(rowIndicator(makeOrder({ status: "reconciled", copay: "12.50", payment_type: "cash" }), NONE)).toBe("complete_mark");
  });
});

describe("verify screen copay section (spec §5)", () => {
  it("shows when the pharmacy collects at delivery with an allowed method and the copay is unpaid", () => {
    expect(showsCopaySection(makeOrder())).toBe(true);
    expect(showsCopaySection(makeOrder({ copay: "0.00" }))).toBe(true);
  });
  it("hides when the pharmacy does not allow copay collection at delivery", () => {
    expect(showsCopaySection(makeOrder({ pharmacy: makePharmacy({ allow_pod_copay_collection: false }) }))).toBe(false);
  });
  it("hides when no payment method is allowed", () => {
    const pharmacy = makePharmacy({ payment_methods: (["cash", "check", "card"] as const).map((type) => ({ type, allowed: false })) });
    expect(showsCopaySection(makeOrder({ pharmacy }))).toBe(false);
  });
  it("hides once the copay is paid", () => {
    expect(showsCopaySection(makeOrder({ copay_paid_at: "2026-11-21T09:00:00Z" }))).toBe(false);
    expect(showsCopaySection(makeOrder({ payment_collected: true }))).toBe(false);
  });
});

describe("add-ons and visits", () => {
  it("counts the add-ons already taken at a pharmacy", () => {
    const orders = [makeOrder({ id: 1, addedOn: true }), makeOrder({ id: 2 }), makeOrder({ id: 3, addedOn: true, pharmacy: MARKET })];
    expect(addonCount(orders, RIVERSIDE.id)).toBe(1);
    expect(addonCount(orders, MARKET.id)).toBe(1);
  });
  it("a visit confirmed neither true nor false is pending", () => {
    const visits = [makeVisit({ id: 1, confirmed: true }), makeVisit({ id: 2, confirmed: false }), makeVisit({ id: 3, confirmed: null })];
    expect(pendingVisits(visits).map((v) => v.id)).toEqual([3]);
  });
});

describe("visitsToMake", () => {
  it("keeps confirmed and pending visits, drops the ones the courier declined", () => {
    const visit = (id: number, confirmed: boolean | null) => ({ id, confirmed }) as unknown as Parameters<typeof visitsToMake>[0][number];
    expect(visitsToMake([visit(1, true), visit(2, null), visit(3, false)]).map((v) => v.id)).toEqual([1, 2]);
  });
});
