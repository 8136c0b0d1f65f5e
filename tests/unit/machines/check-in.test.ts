import { describe, expect, it } from "vitest";
import type { AnyMachineSnapshot } from "xstate";
import type { ApiFailure } from "../../../domain/api-failure.ts";
import type { Order } from "../../../domain/contract/entities.ts";
import { checkInList } from "../../../domain/pharmacy-progress.ts";
import { checkInMachine, type CheckInEvent, type CheckInInput } from "../../../machines/check-in.machine.ts";
import { transitionCoverPaths } from "../../support/model-coverage.ts";
import { makeOrder, makePharmacy, makeVisit } from "../../support/order-fixtures.ts";
import { expectFullCoverageAcross, pathName, possibleEvents, replayPath, type ModelPath } from "../../support/replay-paths.ts";

const ACTORS = ["markArrived"] as const;
const RIVERSIDE = makePharmacy({ id: 1 });
const MARKET = makePharmacy({ id: 2 });

const day = (...statuses: Order["status"]["name"][]) => [
  ...statuses.map((status, i) =>
    makeOrder({ id: i + 1, status, patient_last_name: ["Johnson", "Abernathy", "Brennan"][i % 3]!, recipient_description: `Patient ${i + 1}` }),
  ),
  // Another pharmacy's order never holds this check-in back.
  makeOrder({ id: 99, status: "submitted_to_courier", pharmacy: MARKET }),
];

const PENDING = day("submitted_to_courier", "picked_up");
const READY = day("picked_up", "cancelled");
const CANCELLED_ONLY = day("cancelled", "cancelled");
const VISIT = makeVisit({ id: 5, pharmacy: RIVERSIDE, confirmed: true, arrived_at: "2026-11-21T14:00:00.000Z" });
const OFFLINE: ApiFailure = { kind: "network", status: null, message: "offline", code: null };

const EVENTS: CheckInEvent[] | Record<string, unknown>[] = [
  { type: "SEARCH", query: "patient 1" },
  { type: "SEARCH", query: "" },
  { type: "ORDERS_CHANGED", orders: PENDING },
  { type: "ORDERS_CHANGED", orders: READY },
  { type: "ORDERS_CHANGED", orders: CANCELLED_ONLY },
  { type: "CONTINUE" },
  { type: "BACK" },
  { type: "RETRY_ARRIVAL" },
  { type: "START_DELIVERIES" },
  { type: "GO_HOME" },
  { type: "xstate.done.actor.markArrived", output: VISIT },
  { type: "xstate.error.actor.markArrived", error: OFFLINE },
];

const SCENARIOS: { name: string; input: CheckInInput }[] = [
  { name: "with a visit", input: { pharmacyId: RIVERSIDE.id, visitId: VISIT.id, orders: PENDING } },
  { name: "without a visit", input: { pharmacyId: RIVERSIDE.id, visitId: null, orders: PENDING } },
];

/** The search only filters what is shown (no guard reads it), so it does not make a new state here. */
const serializeState = (snapshot: AnyMachineSnapshot) => {
  const { orders, visit, error, next } = snapshot.context as { orders: Order[]; visit: unknown; error: string | null; next: string | null };
  return JSON.stringify([snapshot.value, snapshot.status, orders.map((o) => o.status.name), visit !== null, error, next]);
};

const pathsOf = (input: CheckInInput) =>
  transitionCoverPaths(checkInMachine, {
    events: possibleEvents(EVENTS),
    input,
    serializeState,
  } as never) as unknown as ModelPath[];

describe("check-in machine", () => {
  for (const { name, input } of SCENARIOS) {
    it.each(pathsOf(input).map((path) => [pathName(path), path] as const))(`${name}: %s`, async (_title, path) => {
      const { snapshot } = await replayPath(checkInMachine, ACTORS, input, path);
      expect(snapshot.value).toEqual(path.state.value);
      expect(snapshot.context).toEqual(path.state.context);
      expect(snapshot.status).toBe(path.state.status);
    });
  }

  it("covers every state and transition", () => {
    expectFullCoverageAcross(
      checkInMachine,
      SCENARIOS.map(({ input }) => ({ input, paths: pathsOf(input) })),
    );
  });
});

const by = (events: Record<string, unknown>[]): ModelPath => ({
  state: null as never,
  steps: [{ event: { type: "xstate.init" } }, ...events.map((event) => ({ event }))] as never,
});

describe("check-in behaviour (spec §2, §4)", () => {
  const withVisit = SCENARIOS[0]!.input;

  it("Continue is refused while an order is neither picked up nor cancelled", async () => {
    const { snapshot, calls } = await replayPath(checkInMachine, ACTORS, withVisit, by([{ type: "CONTINUE" }]));
    expect(snapshot.value).toBe("checkingIn");
    expect(calls).toEqual([]);
  });

  it("Continue opens confirm_orders and records the arrival at this pharmacy's visit", async () => {
    const { snapshot, calls } = await replayPath(checkInMachine, ACTORS, withVisit, by([
      { type: "ORDERS_CHANGED", orders: READY },
      { type: "CONTINUE" },
      { type: "xstate.done.actor.markArrived", output: VISIT },
      { type: "START_DELIVERIES" },
    ]));
    expect(calls).toEqual([{ actor: "markArrived", input: { visitId: 5 } }]);
    expect(snapshot.status).toBe("done");
    expect(snapshot.output).toEqual({ next: "deliveries", visit: VISIT });
  });

  it("with only cancelled orders the review step offers 'Continue' home, not deliveries", async () => {
    const { snapshot } = await replayPath(checkInMachine, ACTORS, withVisit, by([
      { type: "ORDERS_CHANGED", orders: CANCELLED_ONLY },
      { type: "CONTINUE" },
      { type: "xstate.done.actor.markArrived", output: VISIT },
    ]));
    expect(snapshot.can({ type: "START_DELIVERIES" })).toBe(false);
    expect(snapshot.can({ type: "GO_HOME" })).toBe(true);
  });

  it("a failed arrival shows the catalogue's text and can be retried or skipped", async () => {
    const { snapshot } = await replayPath(checkInMachine, ACTORS, withVisit, by([
      { type: "ORDERS_CHANGED", orders: READY },
      { type: "CONTINUE" },
      { type: "xstate.error.actor.markArrived", error: OFFLINE },
    ]));
    expect(snapshot.value).toEqual({ confirmingOrders: "arrivalFailed" });
    expect(snapshot.context.error).toBe(
      'Your device does not currently have internet access. Please select "try again" on the next page once you have internet access.',
    );
    expect(snapshot.can({ type: "RETRY_ARRIVAL" })).toBe(true);
    expect(snapshot.can({ type: "START_DELIVERIES" })).toBe(true);
  });

  it("the buttons wait while the arrival is being recorded", async () => {
    const { snapshot } = await replayPath(checkInMachine, ACTORS, withVisit, by([{ type: "ORDERS_CHANGED", orders: READY }, { type: "CONTINUE" }]));
    expect(snapshot.value).toEqual({ confirmingOrders: "recordingArrival" });
    expect(snapshot.can({ type: "START_DELIVERIES" })).toBe(false);
  });

  it("the search narrows the list shown, not the Continue rule", async () => {
    const { snapshot } = await replayPath(checkInMachine, ACTORS, withVisit, by([
      { type: "ORDERS_CHANGED", orders: READY },
      { type: "SEARCH", query: "PATIENT 2" },
    ]));
    const { orders, pharmacyId, search } = snapshot.context;
    expect(checkInList(orders, pharmacyId, search).map((o: Order) => o.id)).toEqual([2]);
    expect(snapshot.can({ type: "CONTINUE" })).toBe(true);
  });
});
