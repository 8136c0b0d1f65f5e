import { describe, expect, it } from "vitest";
import { createActor, type Actor } from "xstate";
import { ORDER_STATUS_NAMES } from "../../../domain/vocabulary.ts";
import { orderLifecycleMachine, type OrderLifecycleEvent } from "../../../machines/order-lifecycle.machine.ts";
import { eventBetween, nextOrderStatus } from "../../../machines/order-status.ts";
import { expectFullCoverage, transitionCoverPaths } from "../../support/model-coverage.ts";
import { eachEventOf } from "../../support/replay-paths.ts";

const EVENTS: OrderLifecycleEvent[] = [
  { type: "SUBMIT_TO_COURIER" }, { type: "UNASSIGN" }, { type: "VERIFY" }, { type: "PICK_UP" }, { type: "CANCEL" },
  { type: "DELIVER" }, { type: "ATTEMPT_DELIVERY" }, { type: "RETURN_TO_PHARMACY" }, { type: "RECONCILE" },
];

const INPUTS = [{ paymentType: "cash", paymentCollected: true }, { paymentType: null, paymentCollected: false }] as const;

/**
 * createTestModel would take this machine as it is (it invokes nothing), but
 * its paths are built as every machine's are, so that the machine docs count
 * them (docs/decisions/0023-model-based-paths-from-xstate-graph-test-model.md);
 * they are replayed with path.test all the same.
 */
const pathsOf = (input: (typeof INPUTS)[number]) => transitionCoverPaths(orderLifecycleMachine, { events: EVENTS, input });

describe("order lifecycle machine", () => {
  for (const input of INPUTS) {
    it.each(pathsOf(input).map((path) => [path.steps.map((s) => s.event.type).join(" → "), path] as const))(
      `replays on a live actor (${input.paymentType ?? "no payment"}): %s`,
      async (_name, path) => {
        let actor: Actor<typeof orderLifecycleMachine> | undefined;
        await path.test({
          events: eachEventOf(path, ({ event }) => {
            if (event.type === "xstate.init") actor = createActor(orderLifecycleMachine, { input }).start();
            else actor!.send(event as OrderLifecycleEvent);
          }),
          states: { "*": (state) => expect(actor!.getSnapshot().value).toEqual(state.value) },
        });
      },
    );
  }

  it("covers every state and transition", () => {
    expectFullCoverage(orderLifecycleMachine, INPUTS.flatMap((input) => pathsOf(input)));
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
