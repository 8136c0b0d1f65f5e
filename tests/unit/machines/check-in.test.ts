import { describe, expect, it } from "vitest";
import { createActor, type AnyActorRef, type AnyMachineSnapshot } from "xstate";
import type { ApiFailure } from "../../../domain/api-failure.ts";
import type { Order } from "../../../domain/contract/entities.ts";
import { SCAN_TEXT } from "../../../domain/label-scan.ts";
import { checkInList } from "../../../domain/pharmacy-progress.ts";
import { checkInMachine, type CheckInEvent, type CheckInInput } from "../../../machines/check-in.machine.ts";
import { itinerary, startAppSystem, type AppSystem } from "../../support/app-system.ts";
import { transitionCoverPaths } from "../../support/model-coverage.ts";
import { scannerOf, testCamera } from "../../support/test-camera.ts";
import { makeOrder, makePharmacy, makeVisit } from "../../support/order-fixtures.ts";
import { expectFullCoverageAcross, pathName, possibleEvents, pathOfEvents, replayPath } from "../../support/replay-paths.ts";

const ACTORS = ["markArrived", "labelScanner"] as const;
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
  { type: "DAY_CHANGED", orders: PENDING },
  { type: "DAY_CHANGED", orders: READY },
  { type: "DAY_CHANGED", orders: CANCELLED_ONLY },
  { type: "CONTINUE" },
  { type: "BACK" },
  { type: "RETRY_ARRIVAL" },
  { type: "START_DELIVERIES" },
  { type: "GO_HOME" },
  { type: "xstate.done.actor.markArrived", output: VISIT },
  { type: "xstate.error.actor.markArrived", error: OFFLINE },
  { type: "SCAN" },
  // The scanner (its own machine, tests/unit/machines/label-scanner.test.ts): order 1's label read, or 'Stop scanning'.
  { type: "LABEL_MATCHED", orderId: 1 },
  { type: "xstate.done.actor.labelScanner" },
];

const SCENARIOS: { name: string; input: CheckInInput }[] = [
  { name: "with a visit", input: { courierId: 7, pharmacyId: RIVERSIDE.id, visitId: VISIT.id, orders: PENDING } },
  { name: "without a visit", input: { courierId: 7, pharmacyId: RIVERSIDE.id, visitId: null, orders: PENDING } },
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
  });

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

const by = (events: Record<string, unknown>[]) => pathOfEvents(events);

describe("check-in behaviour (spec §2, §4)", () => {
  const withVisit = SCENARIOS[0]!.input;

  it("Continue is refused while an order is neither picked up nor cancelled", async () => {
    const { snapshot, calls } = await replayPath(checkInMachine, ACTORS, withVisit, by([{ type: "CONTINUE" }]));
    expect(snapshot.value).toBe("checkingIn");
    expect(calls).toEqual([]);
  });

  it("Continue opens confirm_orders and records the arrival at this pharmacy's visit", async () => {
    const { snapshot, calls } = await replayPath(checkInMachine, ACTORS, withVisit, by([
      { type: "DAY_CHANGED", orders: READY },
      { type: "CONTINUE" },
      { type: "xstate.done.actor.markArrived", output: VISIT },
      { type: "START_DELIVERIES" },
    ]));
    expect(calls).toEqual([{ actor: "markArrived", input: { courierId: 7, visitId: 5 } }]);
    expect(snapshot.status).toBe("done");
    expect(snapshot.output).toEqual({ next: "deliveries", visit: VISIT });
  });

  it("with only cancelled orders the review step offers 'Continue' home, not deliveries", async () => {
    const { snapshot } = await replayPath(checkInMachine, ACTORS, withVisit, by([
      { type: "DAY_CHANGED", orders: CANCELLED_ONLY },
      { type: "CONTINUE" },
      { type: "xstate.done.actor.markArrived", output: VISIT },
    ]));
    expect(snapshot.can({ type: "START_DELIVERIES" })).toBe(false);
    expect(snapshot.can({ type: "GO_HOME" })).toBe(true);
  });

  it("a failed arrival shows the catalogue's text and can be retried or skipped", async () => {
    const { snapshot } = await replayPath(checkInMachine, ACTORS, withVisit, by([
      { type: "DAY_CHANGED", orders: READY },
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
    const { snapshot } = await replayPath(checkInMachine, ACTORS, withVisit, by([{ type: "DAY_CHANGED", orders: READY }, { type: "CONTINUE" }]));
    expect(snapshot.value).toEqual({ confirmingOrders: "recordingArrival" });
    expect(snapshot.can({ type: "START_DELIVERIES" })).toBe(false);
  });

  it("the search narrows the list shown, not the Continue rule", async () => {
    const { snapshot } = await replayPath(checkInMachine, ACTORS, withVisit, by([
      { type: "DAY_CHANGED", orders: READY },
      { type: "SEARCH", query: "PATIENT 2" },
    ]));
    const { orders, pharmacyId, search } = snapshot.context;
    expect(checkInList(orders, pharmacyId, search).map((o: Order) => o.id)).toEqual([2]);
    expect(snapshot.can({ type: "CONTINUE" })).toBe(true);
  });
});

describe("scanning a bag's label at check-in", () => {
  const LABELLED = [
    makeOrder({ id: 7, status: "submitted_to_courier", rx_numbers: ["RX-7001", "RX-7002"], external_id: "EXT-55", patient_last_name: "Brennan" }),
    makeOrder({ id: 8, status: "submitted_to_courier", rx_numbers: ["RX-8001"], external_id: null, patient_last_name: "Johnson" }),
    // Another pharmacy's bag is no order here.
    makeOrder({ id: 9, status: "submitted_to_courier", rx_numbers: ["RX-9001"], pharmacy: MARKET }),
  ];

  /** A live check-in with its real scanner and a camera the test drives. */
  function scanningActor() {
    const { camera, labelScanner } = testCamera();
    const actor = createActor(checkInMachine.provide({ actors: { labelScanner } }), { input: { courierId: 7, pharmacyId: RIVERSIDE.id, visitId: null, orders: LABELLED } });
    const scanned: number[] = [];
    actor.on("orderScanned", (event) => scanned.push(event.orderId));
    actor.start();
    return { actor, camera, scanned, scanner: () => scannerOf(actor) };
  }

  it.each([
    ["an RX number", "RX-7002", 7],
    ["an external id, in another case", "ext-55", 7],
    ["an RX number with spaces around", "  RX-8001\n", 8],
  ])("%s opens that order's verify screen and closes the camera", (_what, code, orderId) => {
    const { actor, camera, scanned, scanner } = scanningActor();
    actor.send({ type: "SCAN" });
    expect(camera).toEqual({ opened: 1, closed: 0 });
    scanner()!.send({ type: "CAMERA_READY" });
    scanner()!.send({ type: "LABEL_READ", code });
    expect(scanned).toEqual([orderId]);
    expect(actor.getSnapshot().value).toBe("checkingIn");
    expect(scanner()).toBeUndefined();
    expect(camera).toEqual({ opened: 1, closed: 1 });
  });

  it("a label of no order here says so in words and keeps scanning", () => {
    const { actor, camera, scanned, scanner } = scanningActor();
    actor.send({ type: "SCAN" });
    scanner()!.send({ type: "CAMERA_READY" });
    scanner()!.send({ type: "LABEL_READ", code: "RX-9001" });
    expect(scanned).toEqual([]);
    expect(actor.getSnapshot().value).toBe("scanning");
    expect(SCAN_TEXT.noOrderWithLabel(scanner()!.getSnapshot().context.unknownLabel!)).toBe("No order here has the label RX-9001.");
    expect(camera.closed).toBe(0);
    scanner()!.send({ type: "LABEL_READ", code: "RX-8001" });
    expect(scanned).toEqual([8]);
  });

  it("'Stop scanning' closes the camera; the search box works while it is open", () => {
    const { actor, camera, scanner } = scanningActor();
    actor.send({ type: "SCAN" });
    actor.send({ type: "SEARCH", query: "Brennan" });
    expect(actor.getSnapshot().context.search).toBe("Brennan");
    scanner()!.send({ type: "CLOSE" });
    expect(actor.getSnapshot().value).toBe("checkingIn");
    expect(camera).toEqual({ opened: 1, closed: 1 });
  });

  it("an order added on while scanning is one the camera knows at once", () => {
    const { actor, scanned, scanner } = scanningActor();
    actor.send({ type: "SCAN" });
    scanner()!.send({ type: "CAMERA_READY" });
    const added = makeOrder({ id: 10, status: "submitted_to_courier", rx_numbers: ["RX-1010"] });
    actor.send({ type: "DAY_CHANGED", orders: [...LABELLED, added] });
    scanner()!.send({ type: "LABEL_READ", code: "RX-1010" });
    expect(scanned).toEqual([10]);
  });
});

describe("following the courier's day in the application's actor system", () => {
  /** Counts the DAY_CHANGED the flow receives, from whoever sends them. */
  function ordersChangedOf(system: AppSystem, flow: AnyActorRef) {
    const received: unknown[] = [];
    system.app.system.inspect((inspection) => {
      if (inspection.type === "@xstate.event" && inspection.actorRef === flow && inspection.event.type === "DAY_CHANGED") received.push(inspection.event);
    });
    return received;
  }

  it("an order verified elsewhere reaches the check-in list from the day itself, with no screen relaying it", async () => {
    const system = await startAppSystem({ day: itinerary(PENDING) });
    const flow = system.startFlow(checkInMachine, { courierId: 7, pharmacyId: RIVERSIDE.id, visitId: null, orders: system.day.getSnapshot().context.day!.orders });
    expect(flow.getSnapshot().can({ type: "CONTINUE" })).toBe(false);

    // The verify-order flow reports order 1 picked up to the day (its reportOrder).
    system.day.send({ type: "ORDERS_CHANGED", orders: [READY[0]!] });

    expect(flow.getSnapshot().context.orders).toBe(system.day.getSnapshot().context.day!.orders);
    expect(flow.getSnapshot().context.orders.find((o) => o.id === 1)?.status.name).toBe("picked_up");
    expect(flow.getSnapshot().can({ type: "CONTINUE" })).toBe(true);
  });

  it("starts from the day as it is, if it moved on after the flow's input was read", async () => {
    const system = await startAppSystem({ day: itinerary(READY) });
    const flow = system.startFlow(checkInMachine, { courierId: 7, pharmacyId: RIVERSIDE.id, visitId: null, orders: PENDING });
    expect(flow.getSnapshot().context.orders).toBe(system.day.getSnapshot().context.day!.orders);
  });

  it("says nothing while the orders stay the same, and stops following once the check-in is over", async () => {
    const system = await startAppSystem({ day: itinerary(READY) });
    const flow = system.startFlow(checkInMachine, { courierId: 7, pharmacyId: RIVERSIDE.id, visitId: null, orders: system.day.getSnapshot().context.day!.orders });
    const received = ordersChangedOf(system, flow);

    // A visit arrived at: the day changes, its orders do not.
    system.day.send({ type: "VISITS_CHANGED", visits: [VISIT] });
    expect(received).toEqual([]);

    flow.send({ type: "CONTINUE" });
    flow.send({ type: "START_DELIVERIES" });
    expect(flow.getSnapshot().status).toBe("done");
    system.day.send({ type: "ORDERS_CHANGED", orders: [CANCELLED_ONLY[0]!] });
    expect(received).toEqual([]);
  });

  it("the day keeps it as a follower until the check-in is over", async () => {
    const system = await startAppSystem({ day: itinerary(READY) });
    const flow = system.startFlow(checkInMachine, { courierId: 7, pharmacyId: RIVERSIDE.id, visitId: null, orders: READY });
    expect(system.day.getSnapshot().context.followers).toEqual([flow]);
    flow.send({ type: "CONTINUE" });
    flow.send({ type: "START_DELIVERIES" });
    expect(system.day.getSnapshot().context.followers).toEqual([]);
  });

  it("alone, with no day in its system, it keeps the orders it started with", () => {
    const flow = createActor(checkInMachine, { input: SCENARIOS[1]!.input }).start();
    expect(flow.getSnapshot().value).toBe("checkingIn");
    expect(flow.getSnapshot().context.orders).toBe(PENDING);
  });
});
