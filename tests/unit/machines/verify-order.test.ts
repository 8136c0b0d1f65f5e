import { describe, expect, it } from "vitest";
import type { AnyMachineSnapshot } from "xstate";
import type { ApiFailure } from "../../../domain/api-failure.ts";
import { isValidCopay } from "../../../domain/copay.ts";
import { ORDER_STATUSES } from "../../../domain/vocabulary.ts";
import { verifyOrderMachine, type VerifyOrderEvent, type VerifyOrderInput } from "../../../machines/verify-order.machine.ts";
import { verifyFailureText } from "../../../domain/verify-order-rules.ts";
import { transitionCoverPaths } from "../../support/model-coverage.ts";
import { makeOrder, makePharmacy } from "../../support/order-fixtures.ts";
import { expectFullCoverageAcross, pathName, possibleEvents, pathOfEvents, replayPath, type ReplayPath } from "../../support/replay-paths.ts";

const ACTORS = ["assertCopay", "pickUpOrder", "cancelOrder"] as const;
const STATUSES = ORDER_STATUSES.map((s) => ({ ...s }));

const failure = (kind: ApiFailure["kind"], status: number | null): ApiFailure => ({ kind, status, message: "nope", code: null });
const SERVER = failure("server", 500);
const NETWORK = failure("network", null);
const REFUSED = failure("refused", 409);

const EVENTS: VerifyOrderEvent[] | Record<string, unknown>[] = [
  { type: "SET_NO_COPAY", checked: true },
  { type: "SET_NO_COPAY", checked: false },
  { type: "CHANGE_COPAY", value: "$12.50" },
  { type: "CHANGE_COPAY", value: "0.50" },
  { type: "CHANGE_COPAY", value: "" },
  { type: "VERIFY" },
  { type: "CANCEL" },
  { type: "CONFIRM_CANCEL" },
  { type: "KEEP_ORDER" },
  { type: "DISMISS_ERROR" },
  { type: "xstate.done.actor.assertCopay" },
  { type: "xstate.error.actor.assertCopay", error: SERVER },
  { type: "xstate.done.actor.pickUpOrder" },
  { type: "xstate.error.actor.pickUpOrder", error: NETWORK },
  { type: "xstate.error.actor.pickUpOrder", error: REFUSED },
  { type: "xstate.done.actor.cancelOrder" },
  { type: "xstate.error.actor.cancelOrder", error: SERVER },
];

const ORDER = makeOrder({ id: 41, copay: "12.50" });
const SCENARIOS: { name: string; input: VerifyOrderInput }[] = [
  { name: "copay section shown", input: { order: ORDER, statuses: STATUSES } },
  {
    name: "copay section hidden",
    input: { order: makeOrder({ id: 42, pharmacy: makePharmacy({ allow_pod_copay_collection: false }) }), statuses: STATUSES },
  },
  { name: "status list missing", input: { order: ORDER, statuses: null } },
  { name: "already picked up", input: { order: makeOrder({ id: 43, status: "picked_up" }), statuses: STATUSES } },
  { name: "already cancelled", input: { order: makeOrder({ id: 44, status: "cancelled" }), statuses: STATUSES } },
];

/**
 * What distinguishes one screen from another: the state, whether 'No copay'
 * is ticked, whether the typed copay is empty, invalid or valid, the alert,
 * and the order's status. Two copays of the same kind are the same screen.
 */
const serializeState = (snapshot: AnyMachineSnapshot) => {
  const { noCopay, copay, error, order } = snapshot.context as { noCopay: boolean; copay: string; error: string | null; order: { status: { name: string } } };
  const copayKind = copay === "" ? "empty" : isValidCopay(copay) ? "valid" : "invalid";
  return JSON.stringify([snapshot.value, snapshot.status, noCopay, copayKind, error, order.status.name]);
};

const pathsOf = (input: VerifyOrderInput) =>
  transitionCoverPaths(verifyOrderMachine, {
    events: possibleEvents(EVENTS),
    input,
    serializeState,
  });

describe("verify-order machine", () => {
  for (const { name, input } of SCENARIOS) {
    const paths = pathsOf(input);
    it.each(paths.map((path) => [pathName(path), path] as const))(`${name}: %s`, async (_title, path) => {
      const { snapshot } = await replayPath(verifyOrderMachine, ACTORS, input, path);
      expect(snapshot.value).toEqual(path.state.value);
      expect(snapshot.context).toEqual(path.state.context);
      expect(snapshot.status).toBe(path.state.status);
    });
  }

  it("covers every state and transition", () => {
    expectFullCoverageAcross(
      verifyOrderMachine,
      SCENARIOS.map(({ input }) => ({ input, paths: pathsOf(input) })),
    );
  });
});

/** One path, written out by hand: the events and what the settled calls return. */
function path(input: VerifyOrderInput, events: Record<string, unknown>[]): ReplayPath {
  return pathOfEvents(events);
}

describe("verify-order behaviour (spec §5, §8)", () => {
  const shown: VerifyOrderInput = { order: ORDER, statuses: STATUSES };

  it("the verify button is disabled until 'No copay' is ticked or the copay is valid", async () => {
    for (const value of ["", "0.50", "12.5", "0.99", "abc"]) {
      const { snapshot } = await replayPath(verifyOrderMachine, ACTORS, shown, path(shown, [{ type: "CHANGE_COPAY", value }]));
      expect(snapshot.can({ type: "VERIFY" }), value).toBe(false);
    }
    for (const value of ["1.00", "$12.50", "$1,234.56"]) {
      const { snapshot } = await replayPath(verifyOrderMachine, ACTORS, shown, path(shown, [{ type: "CHANGE_COPAY", value }]));
      expect(snapshot.can({ type: "VERIFY" }), value).toBe(true);
    }
    const ticked = await replayPath(verifyOrderMachine, ACTORS, shown, path(shown, [{ type: "SET_NO_COPAY", checked: true }]));
    expect(ticked.snapshot.can({ type: "VERIFY" })).toBe(true);
  });

  it("ticking 'No copay' clears the amount; typing an amount unticks it", async () => {
    const ticked = await replayPath(verifyOrderMachine, ACTORS, shown, path(shown, [
      { type: "CHANGE_COPAY", value: "12.50" },
      { type: "SET_NO_COPAY", checked: true },
    ]));
    expect(ticked.snapshot.context).toMatchObject({ noCopay: true, copay: "" });
    const typed = await replayPath(verifyOrderMachine, ACTORS, shown, path(shown, [
      { type: "SET_NO_COPAY", checked: true },
      { type: "CHANGE_COPAY", value: "" },
    ]));
    expect(typed.snapshot.context).toMatchObject({ noCopay: true, copay: "" });
    const untick = await replayPath(verifyOrderMachine, ACTORS, shown, path(shown, [
      { type: "SET_NO_COPAY", checked: true },
      { type: "CHANGE_COPAY", value: "7" },
    ]));
    expect(untick.snapshot.context).toMatchObject({ noCopay: false, copay: "7" });
  });

  it("asserts the typed copay as a decimal string, then picks up, and ends picked_up with it", async () => {
    const { snapshot, calls } = await replayPath(verifyOrderMachine, ACTORS, shown, path(shown, [
      { type: "CHANGE_COPAY", value: "$1,234.50" },
      { type: "VERIFY" },
      { type: "xstate.done.actor.assertCopay" },
      { type: "xstate.done.actor.pickUpOrder" },
    ]));
    expect(calls).toEqual([
      { actor: "assertCopay", input: { orderId: 41, copay: "1234.50" } },
      { actor: "pickUpOrder", input: { orderId: 41 } },
    ]);
    expect(snapshot.status).toBe("done");
    expect(snapshot.output.order.status).toEqual({ id: 3, name: "picked_up" });
    expect(snapshot.output.order.copay).toBe("1234.50");
  });

  it("asserts '0.00' when 'No copay' is ticked", async () => {
    const { calls, snapshot } = await replayPath(verifyOrderMachine, ACTORS, shown, path(shown, [
      { type: "SET_NO_COPAY", checked: true },
      { type: "VERIFY" },
      { type: "xstate.done.actor.assertCopay" },
      { type: "xstate.done.actor.pickUpOrder" },
    ]));
    expect(calls[0]).toEqual({ actor: "assertCopay", input: { orderId: 41, copay: "0.00" } });
    expect(snapshot.output.order.copay).toBe("0.00");
  });

  it("skips the copay assertion when the copay section is hidden", async () => {
    const hidden = SCENARIOS[1]!.input;
    const { calls, snapshot } = await replayPath(verifyOrderMachine, ACTORS, hidden, path(hidden, [
      { type: "VERIFY" },
      { type: "xstate.done.actor.pickUpOrder" },
    ]));
    expect(calls).toEqual([{ actor: "pickUpOrder", input: { orderId: 42 } }]);
    expect(snapshot.output.order.status.name).toBe("picked_up");
  });

  it("disables verify while submitting and re-enables it after a failure, with the spec §8 text", async () => {
    const running = await replayPath(verifyOrderMachine, ACTORS, shown, path(shown, [{ type: "SET_NO_COPAY", checked: true }, { type: "VERIFY" }]));
    expect(running.snapshot.can({ type: "VERIFY" })).toBe(false);
    expect(running.snapshot.can({ type: "CANCEL" })).toBe(false);
    const failed = await replayPath(verifyOrderMachine, ACTORS, shown, path(shown, [
      { type: "SET_NO_COPAY", checked: true },
      { type: "VERIFY" },
      { type: "xstate.error.actor.assertCopay", error: SERVER },
    ]));
    expect(failed.snapshot.context.error).toBe("Error verifying order: 41");
    expect(failed.snapshot.can({ type: "VERIFY" })).toBe(true);
  });

  it("maps every failure kind to the Verify rows of spec §8", () => {
    expect(verifyFailureText(SERVER, 7)).toBe("Error verifying order: 7");
    expect(verifyFailureText(NETWORK, 7)).toBe("No internet connection.  Please connect to the internet to continue");
    for (const kind of ["refused", "unavailable", "forbidden", "unauthenticated", "other"] as const) {
      expect(verifyFailureText(failure(kind, 400), 7)).toBe("Something went wrong. Please try again.");
    }
  });

  it("a plain Error from the adapter is 'something went wrong', not a crash", async () => {
    const { snapshot } = await replayPath(verifyOrderMachine, ACTORS, shown, path(shown, [
      { type: "SET_NO_COPAY", checked: true },
      { type: "VERIFY" },
      { type: "xstate.done.actor.assertCopay" },
      { type: "xstate.error.actor.pickUpOrder", error: new Error("boom") },
    ]));
    expect(snapshot.value).toBe("editing");
    expect(snapshot.context.error).toBe("Something went wrong. Please try again.");
  });

  it("a missing status list stops before any call with 'An error occurred. Please refresh and try again.'", async () => {
    const missing = SCENARIOS[2]!.input;
    for (const events of [[{ type: "SET_NO_COPAY", checked: true }, { type: "VERIFY" }], [{ type: "CANCEL" }, { type: "CONFIRM_CANCEL" }]]) {
      const { snapshot, calls } = await replayPath(verifyOrderMachine, ACTORS, missing, path(missing, events));
      expect(calls).toEqual([]);
      expect(snapshot.value).toBe("editing");
      expect(snapshot.context.error).toBe("An error occurred. Please refresh and try again.");
    }
  });

  it("cancel asks first, then calls the cancellation and ends cancelled", async () => {
    const asking = await replayPath(verifyOrderMachine, ACTORS, shown, path(shown, [{ type: "CANCEL" }]));
    expect(asking.snapshot.value).toBe("confirmingCancel");
    expect(verifyOrderMachine.root.states.confirmingCancel!.description).toBe("Are you sure you want to cancel this order?");
    const { snapshot, calls } = await replayPath(verifyOrderMachine, ACTORS, shown, path(shown, [
      { type: "CANCEL" },
      { type: "CONFIRM_CANCEL" },
      { type: "xstate.done.actor.cancelOrder" },
    ]));
    expect(calls).toEqual([{ actor: "cancelOrder", input: { orderId: 41 } }]);
    expect(snapshot.output.order.status).toEqual({ id: 7, name: "cancelled" });
  });

  it("an order already picked up or cancelled cannot be verified or cancelled", async () => {
    for (const scenario of SCENARIOS.slice(3)) {
      const { snapshot } = await replayPath(verifyOrderMachine, ACTORS, scenario.input, path(scenario.input, []));
      expect(snapshot.value).toBe("alreadyHandled");
      expect(snapshot.can({ type: "VERIFY" })).toBe(false);
      expect(snapshot.can({ type: "CANCEL" })).toBe(false);
    }
  });
});
