import { describe, expect, it } from "vitest";
import type { AnyMachineSnapshot } from "xstate";
import type { ApiFailure } from "../../../domain/api-failure.ts";
import { isValidCopay } from "../../../domain/copay.ts";
import { addonsMachine, type AddonsEvent, type AddonsInput, type ChosenAddon } from "../../../machines/addons.machine.ts";
import { transitionCoverPaths } from "../../support/model-coverage.ts";
import { makeOrder } from "../../support/order-fixtures.ts";
import { expectFullCoverageAcross, pathName, possibleEvents, pathOfEvents, replayPath } from "../../support/replay-paths.ts";

const ACTORS = ["fetchAddons", "submitAddons"] as const;
const OFFERED = [1, 2, 3, 4].map((id) =>
  makeOrder({ id, patient_last_name: `Patient${id}`, copay: "5.00", service_window_instance_id: 9000 }),
);
const failure = (kind: ApiFailure["kind"], status: number | null, message = ""): ApiFailure => ({ kind, status, message, code: null });
const MAX_REFUSED = failure("refused", 409, "Max addon count reached");
const OFFLINE = failure("network", null);

const EVENTS: AddonsEvent[] | Record<string, unknown>[] = [
  { type: "RETRY" },
  ...[1, 2, 3, 4].map((orderId) => ({ type: "CHOOSE", orderId })),
  { type: "UNCHOOSE", orderId: 1 },
  { type: "SET_NO_COPAY", orderId: 1, checked: true },
  { type: "SET_NO_COPAY", orderId: 1, checked: false },
  { type: "CHANGE_COPAY", orderId: 1, value: "$7.25" },
  { type: "CHANGE_COPAY", orderId: 1, value: "0.50" },
  { type: "HELP" },
  { type: "BACK" },
  { type: "REVIEW" },
  { type: "CONFIRM" },
  { type: "DISMISS_ERROR" },
  { type: "xstate.done.actor.fetchAddons", output: OFFERED },
  { type: "xstate.error.actor.fetchAddons", error: OFFLINE },
  { type: "xstate.done.actor.submitAddons", output: { orders: [] } },
  { type: "xstate.error.actor.submitAddons", error: MAX_REFUSED },
];

const SCENARIOS: { name: string; input: AddonsInput }[] = [
  { name: "none taken yet", input: { pharmacyId: 4, serviceWindowInstanceId: 9100, alreadyAdded: 0 } },
  { name: "two taken already", input: { pharmacyId: 4, serviceWindowInstanceId: null, alreadyAdded: 2 } },
];

/**
 * A screen, as far as the guards can tell: its state, how many add-ons are
 * chosen (and whether order 1, the one whose copay the events edit, is among
 * them), whether each copay is ready, and the alert.
 */
const serializeState = (snapshot: AnyMachineSnapshot) => {
  const { chosen, offered, added, error, alreadyAdded } = snapshot.context as {
    chosen: ChosenAddon[];
    offered: unknown[];
    added: unknown[];
    error: string | null;
    alreadyAdded: number;
  };
  const kind = (c: ChosenAddon) => (c.noCopay ? "none" : c.copay === "" ? "empty" : isValidCopay(c.copay) ? "valid" : "invalid");
  const first = chosen.find((c) => c.id === 1);
  const othersReady = chosen.filter((c) => c.id !== 1).every((c) => kind(c) === "none" || kind(c) === "valid");
  return JSON.stringify([snapshot.value, snapshot.status, alreadyAdded, offered.length, added.length, chosen.length, first ? kind(first) : null, othersReady, error]);
};

const pathsOf = (input: AddonsInput) =>
  transitionCoverPaths(addonsMachine, { events: possibleEvents(EVENTS), input, serializeState });

describe("add-ons machine", () => {
  for (const { name, input } of SCENARIOS) {
    it.each(pathsOf(input).map((path) => [pathName(path), path] as const))(`${name}: %s`, async (_title, path) => {
      const { snapshot } = await replayPath(addonsMachine, ACTORS, input, path);
      expect(snapshot.value).toEqual(path.state.value);
      expect(snapshot.context).toEqual(path.state.context);
      expect(snapshot.status).toBe(path.state.status);
    });
  }

  it("covers every state and transition", () => {
    expectFullCoverageAcross(
      addonsMachine,
      SCENARIOS.map(({ input }) => ({ input, paths: pathsOf(input) })),
    );
  });
});

const by = (events: Record<string, unknown>[]) => pathOfEvents([{ type: "xstate.done.actor.fetchAddons", output: OFFERED }, ...events]);

describe("add-ons behaviour (spec §4, §5)", () => {
  const fresh = SCENARIOS[0]!.input;
  const twoTaken = SCENARIOS[1]!.input;

  it("a fourth choice is refused with 'Max addon count reached'", async () => {
    const { snapshot } = await replayPath(addonsMachine, ACTORS, fresh, by([1, 2, 3, 4].map((orderId) => ({ type: "CHOOSE", orderId }))));
    expect(snapshot.context.chosen.map((c: ChosenAddon) => c.id)).toEqual([1, 2, 3]);
    expect(snapshot.context.error).toBe("Max addon count reached");
  });

  it("add-ons taken earlier today count toward the 3", async () => {
    const { snapshot } = await replayPath(addonsMachine, ACTORS, twoTaken, by([{ type: "CHOOSE", orderId: 1 }, { type: "CHOOSE", orderId: 2 }]));
    expect(snapshot.context.chosen.map((c: ChosenAddon) => c.id)).toEqual([1]);
    expect(snapshot.context.error).toBe("Max addon count reached");
  });

  it("confirm needs every chosen add-on to have 'No copay' ticked or a valid copay", async () => {
    const invalid = await replayPath(addonsMachine, ACTORS, fresh, by([{ type: "CHOOSE", orderId: 1 }, { type: "CHANGE_COPAY", orderId: 1, value: "0.50" }]));
    expect(invalid.snapshot.can({ type: "REVIEW" })).toBe(false);
    const none = await replayPath(addonsMachine, ACTORS, fresh, by([]));
    expect(none.snapshot.can({ type: "REVIEW" })).toBe(false);
  });

  it("posts the choice with decimal copays and adds each locally as picked_up with addedOn", async () => {
    const { snapshot, calls } = await replayPath(addonsMachine, ACTORS, fresh, by([
      { type: "CHOOSE", orderId: 2 },
      { type: "CHOOSE", orderId: 3 },
      { type: "CHANGE_COPAY", orderId: 2, value: "$1,012.50" },
      { type: "SET_NO_COPAY", orderId: 3, checked: true },
      { type: "REVIEW" },
      { type: "CONFIRM" },
      { type: "xstate.done.actor.submitAddons", output: { orders: [] } },
    ]));
    expect(calls).toEqual([
      { actor: "fetchAddons", input: { pharmacyId: 4 } },
      { actor: "submitAddons", input: { pharmacyId: 4, orders: [{ id: 2, copay: "1012.50" }, { id: 3, copay: "0.00" }], service_window_instance_id: 9100 } },
    ]);
    expect(snapshot.status).toBe("done");
    expect(snapshot.output.orders.map((o: { id: number; status: unknown; copay: string; addedOn: boolean }) => [o.id, o.status, o.copay, o.addedOn])).toEqual([
      [2, { id: 3, name: "picked_up" }, "1012.50", true],
      [3, { id: 3, name: "picked_up" }, "0.00", true],
    ]);
  });

  it("a refusal from the server shows its words on the confirm sub-view", async () => {
    const { snapshot } = await replayPath(addonsMachine, ACTORS, fresh, by([
      { type: "CHOOSE", orderId: 1 },
      { type: "SET_NO_COPAY", orderId: 1, checked: true },
      { type: "REVIEW" },
      { type: "CONFIRM" },
      { type: "xstate.error.actor.submitAddons", error: MAX_REFUSED },
    ]));
    expect(snapshot.value).toBe("confirming");
    expect(snapshot.context.error).toBe("Max addon count reached");
  });

  it("the Help sub-view returns to the choice as it was", async () => {
    const { snapshot } = await replayPath(addonsMachine, ACTORS, fresh, by([{ type: "CHOOSE", orderId: 4 }, { type: "HELP" }, { type: "BACK" }]));
    expect(snapshot.value).toBe("choosing");
    expect(snapshot.context.chosen).toEqual([{ id: 4, copay: "", noCopay: false }]);
  });
});
