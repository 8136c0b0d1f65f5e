import { describe, expect, it } from "vitest";
import type { Status } from "../../domain/contract/entities.ts";
import {
  deliveryOutcomeOf,
  deliveryOutcomePlan,
  ordersAfterDelivery,
  recordedRecipientOf,
  type DeliveryOutcome,
  type DeliveryReport,
} from "../../domain/delivery-outcome.ts";
import { EMPTY_RECIPIENT_FORM } from "../../domain/recipient.ts";
import { nextOrderStatus } from "../../machines/order-status.ts";
import { makeOrder } from "../support/order-fixtures.ts";

/** The rule both the server's completion and the app's copy of the day follow (domain/delivery-outcome.ts). */

const PATIENT = 1;
const OTHER = 2;
const NO_RECIPIENT = 3;
const CALLED = "2026-03-02T15:04:05.000Z";

const lead = makeOrder({ id: 10, status: "picked_up", copay: "12.50", collect_identification: true });
const grouped = makeOrder({ id: 11, status: "picked_up" });
const needsId = makeOrder({ id: 12, status: "picked_up", collect_identification: true });

const recipient = { relationship_id: PATIENT, first_name: "Eleanor", last_name: "Abernathy", other_description: null, called_at: CALLED };
const id = { identification_type: "driver" as const, identification_state: "PA", identification_number: "D123", identification_expiration: "2030-01-31" };

const delivered = (overrides: Partial<Extract<DeliveryOutcome, { outcome: "delivered" }>> = {}): DeliveryOutcome => ({
  outcome: "delivered",
  orderIds: [10, 11, 12],
  recipient,
  identification: id,
  payment: null,
  ...overrides,
});

describe("deliveryOutcomePlan: which orders a delivery changes and what they take on", () => {
  it("a delivery moves every covered order to delivered and writes the recipient on each", () => {
    const plan = deliveryOutcomePlan([lead, grouped, needsId], delivered(), nextOrderStatus);
    expect(plan.map(({ order, status }) => [order.id, status])).toEqual([
      [10, "delivered"],
      [11, "delivered"],
      [12, "delivered"],
    ]);
    for (const { fields } of plan) {
      expect(fields).toMatchObject({
        recipient_relationship_id: PATIENT,
        recipient_first_name: "Eleanor",
        recipient_last_name: "Abernathy",
        other_recipient_description: null,
        recipient_called_at: CALLED,
      });
    }
  });

  it("the ID goes only on the orders that need one", () => {
    const plan = deliveryOutcomePlan([lead, grouped, needsId], delivered(), nextOrderStatus);
    const fieldsOf = (orderId: number) => plan.find(({ order }) => order.id === orderId)!.fields;
    expect(fieldsOf(10)).toMatchObject(id);
    expect(fieldsOf(12)).toMatchObject(id);
    expect(fieldsOf(11)).not.toHaveProperty("identification_number");
  });

  it("cash or a check is collected on the leading order only, with a corrected copay", () => {
    const plan = deliveryOutcomePlan([lead, grouped], delivered({ orderIds: [10, 11], payment: { payment_type: "check", new_copay: "20.00" } }), nextOrderStatus);
    expect(plan[0]!.fields).toMatchObject({ copay: "20.00", payment_type: "check", payment_collected: true });
    expect(plan[0]!.fields).not.toHaveProperty("payment_authorized");
    expect(plan[1]!.fields).not.toHaveProperty("payment_type");
    expect(plan[1]!.fields).not.toHaveProperty("copay");
  });

  it("a card is authorized, not collected, and keeps the copay when it was not corrected", () => {
    const [only] = deliveryOutcomePlan([lead], delivered({ orderIds: [10], payment: { payment_type: "credit_card", new_copay: null } }), nextOrderStatus);
    expect(only!.fields).toMatchObject({ payment_type: "card", payment_authorized: true });
    expect(only!.fields).not.toHaveProperty("payment_collected");
    expect(only!.fields).not.toHaveProperty("copay");
  });

  it("an attempt moves the orders to delivery_attempted and writes nothing else", () => {
    const plan = deliveryOutcomePlan([lead, grouped], { outcome: "attempted", orderIds: [10, 11] }, nextOrderStatus);
    expect(plan).toEqual([
      { order: lead, status: "delivery_attempted", fields: {} },
      { order: grouped, status: "delivery_attempted", fields: {} },
    ]);
  });

  it("leaves out an order the lifecycle refuses, and one it does not know", () => {
    const cancelled = makeOrder({ id: 13, status: "cancelled" });
    const plan = deliveryOutcomePlan([lead, cancelled], delivered({ orderIds: [10, 13, 99] }), nextOrderStatus);
    expect(plan.map(({ order }) => order.id)).toEqual([10]);
  });

  it("asks the lifecycle it is given, with the order's payment facts", () => {
    const asked: unknown[] = [];
    const paid = makeOrder({ id: 20, status: "picked_up", payment_type: "cash", payment_collected: true });
    deliveryOutcomePlan([paid], { outcome: "attempted", orderIds: [20] }, (status, event, facts) => {
      asked.push([status, event, facts]);
      return null;
    });
    expect(asked).toEqual([["picked_up", "ATTEMPT_DELIVERY", { paymentType: "cash", paymentCollected: true }]]);
  });
});

describe("the app's side: what the delivery flow recorded", () => {
  const report: DeliveryReport = {
    order: lead,
    groupedOrderIds: [],
    recipient: { ...EMPTY_RECIPIENT_FORM, relationship_id: PATIENT, first_name: " Eleanor ", last_name: "Abernathy" },
    identification: { type: "driver", state: "pa", number: " D123 ", expiration: "01/31/2030" },
    payment: { payment_type: "credit_card", amount: "17.50", new_copay: "15.00", transaction_id: "t-1", collected: true },
    recipientCalledAt: CALLED,
  };

  it("nobody is named when nobody signs, even with names left in the form; a description only for Other", () => {
    const left = { ...EMPTY_RECIPIENT_FORM, first_name: "Ann", last_name: "Lee", other_description: "Neighbour" };
    expect(recordedRecipientOf({ ...left, relationship_id: NO_RECIPIENT }, null)).toEqual({
      relationship_id: NO_RECIPIENT,
      first_name: null,
      last_name: null,
      other_description: null,
      called_at: null,
    });
    expect(recordedRecipientOf({ ...left, relationship_id: OTHER }, CALLED)).toMatchObject({ first_name: "Ann", other_description: "Neighbour", called_at: CALLED });
  });

  it("a payment counts only once collected", () => {
    const notCollected = { ...report, payment: { ...report.payment!, collected: false } };
    expect(deliveryOutcomeOf(notCollected, "delivered")).toMatchObject({ payment: null });
    expect(deliveryOutcomeOf(report, "delivered")).toMatchObject({ payment: { payment_type: "credit_card", new_copay: "15.00" } });
  });

  it("the day's copies take the plan, with the day's status records; the flow's order stands in when the day lacks it", () => {
    const statuses: Status[] = [{ id: 777, name: "delivered" }];
    const [after] = ordersAfterDelivery([], report.order, deliveryOutcomeOf(report, "delivered"), nextOrderStatus, statuses);
    expect(after).toMatchObject({
      id: 10,
      status: { id: 777, name: "delivered" },
      recipient_first_name: "Eleanor",
      identification_state: "PA",
      identification_number: "D123",
      identification_expiration: "2030-01-31",
      copay: "15.00",
      payment_type: "card",
      payment_authorized: true,
      payment_collected: false,
    });
  });
});
