import { describe, expect, it } from "vitest";
import { createActor } from "xstate";
import { ORDER_STATUS_NAMES } from "../../../domain/vocabulary.ts";
import { orderLifecycleMachine, type OrderLifecycleEvent } from "../../../machines/order-lifecycle.machine.ts";
import { eventBetween, nextOrderStatus } from "../../../machines/order-status.ts";
import { expectFullCoverage, transitionCoverPaths } from "../../support/model-coverage.ts";

const EVENTS: OrderLifecycleEvent[] = [
  { type: "SUBMIT_TO_COURIER" }, { type: "UNASSIGN" }, { type: "VERIFY" }, { type: "PICK_UP" }, { type: "CANCEL" },
  { type: "DELIVER" }, { type: "ATTEMPT_DELIVERY" }, { type: "RETURN_TO_PHARMACY" }, { type: "RECONCILE" },
];

describe("order lifecycle machine", () => {
  for (const input of [{ paymentType: "cash", paymentCollected: true }, { paymentType: null, paymentCollected: false }]) {
    const paths = transitionCoverPaths(orderLifecycleMachine, { events: EVENTS, input });
    it.each(paths.map((path) => [path.steps.map((s) => s.event.type).join(" → "), path] as const))(
      `replays on a live actor (${input.paymentType ?? "no payment"}): %s`,
      (_name, path) => {
        const actor = createActor(orderLifecycleMachine, { input }).start();
        for (const step of path.steps.slice(1)) actor.send(step.event as OrderLifecycleEvent);
        expect(actor.getSnapshot().value).toEqual(path.state.value);
      },
    );
  }

  it("covers every state and transition", () => {
    const paths = [
      ...transitionCoverPaths(orderLifecycleMachine, { events: EVENTS, input: { paymentType: "cash", paymentCollected: true } }),
      ...transitionCoverPaths(orderLifecycleMachine, { events: EVENTS, input: { paymentType: null, paymentCollected: false } }),
    ];
    expectFullCoverage(orderLifecycleMachine, paths);
  });

  it("knows every status of spec §3", () => {
    expect(Object.keys(orderLifecycleMachine.root.states).sort()).toEqual([...ORDER_STATUS_NAMES].sort());
  });

  it("refuses illegal changes and allows the legal ones", () => {
    expect(nextOrderStatus("submitted_to_courier", "PICK_UP")).toBe("picked_up");
    expect(nextOrderStatus("picked_up", "CANCEL")).toBeNull();
    expect(nextOrderStatus("cancelled", "PICK_UP")).toBeNull();
    expect(nextOrderStatus("delivered", "RECONCILE")).toBeNull();
    expect(nextOrderStatus("delivered", "RECONCILE", { paymentType: "check", paymentCollected: true })).toBe("reconciled");
    expect(nextOrderStatus("delivered", "RECONCILE", { paymentType: "card", paymentCollected: true })).toBeNull();
    expect(eventBetween("submitted_to_courier", "cancelled")).toBe("CANCEL");
    expect(eventBetween("delivered", "new")).toBeNull();
    expect(nextOrderStatus("submitted_to_courier", "UNASSIGN")).toBe("new");
    expect(nextOrderStatus("picked_up", "UNASSIGN")).toBeNull();
    expect(nextOrderStatus("verified", "UNASSIGN")).toBeNull();
  });
});
