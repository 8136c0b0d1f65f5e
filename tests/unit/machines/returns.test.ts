import { describe, expect, it } from "vitest";
import { createActor, fromPromise, waitFor, type AnyMachineSnapshot } from "xstate";
import type { ApiFailure } from "../../../domain/api-failure.ts";
import type { Order } from "../../../domain/contract/entities.ts";
import type { ReturnResponse } from "../../../domain/contract/returns.ts";
import type { StoredOfflineOrder } from "../../../domain/offline-queue.ts";
import { TEXT } from "../../../domain/texts.ts";
import { returnsMachine, type ReturnsContext, type ReturnsEvent, type ReturnsInput } from "../../../machines/returns.machine.ts";
import { APP_TODAY, itinerary, startAppSystem } from "../../support/app-system.ts";
import { transitionCoverPaths } from "../../support/model-coverage.ts";
import { scannerOf, testCamera } from "../../support/test-camera.ts";
import { makeOrder, makePharmacy, makeStoredDelivery } from "../../support/order-fixtures.ts";
import { expectFullCoverageAcross, pathName, possibleEvents, pathOfEvents, replayPath } from "../../support/replay-paths.ts";

const ACTORS = ["submitReturn", "labelScanner"] as const;
const PHARMACY = makePharmacy({ id: 7, name: "Northside Family Drugs" });
const SVG = '<svg xmlns="http://www.w3.org/2000/svg"><path d="M 1 1 L 9 9" stroke="black"/></svg>';

const DAY: Order[] = [
  makeOrder({ id: 11, pharmacy: PHARMACY, status: "delivery_attempted", copay: "6.50", delivery_fee: null, rx_numbers: ["RX-11"] }),
  makeOrder({ id: 12, pharmacy: PHARMACY, status: "picked_up", copay: "0.00", delivery_fee: "5.00", rx_numbers: ["RX-12"], external_id: "EXT-12" }),
  makeOrder({ id: 30, pharmacy: PHARMACY, rx_numbers: ["RX-30"], status: "delivered", copay: "10.00", delivery_fee: "2.50", payment_collected: true, payment_type: "cash" }),
  makeOrder({ id: 40, pharmacy: PHARMACY, status: "delivered", copay: "20.00", delivery_fee: "3.00", other_items_amount_due: "1.00", payment_collected: true, payment_type: "check" }),
  makeOrder({ id: 50, pharmacy: PHARMACY, status: "delivered", copay: "0.00" }),
  makeOrder({ id: 60, pharmacy: makePharmacy({ id: 8 }), status: "picked_up", copay: "9.00" }),
];
/** The same day once returned elsewhere (another tab): nothing left at pharmacy 7. */
const RETURNED_DAY: Order[] = DAY.map((order) =>
  order.pharmacy.id === 7 && order.id !== 50 ? { ...order, status: { id: 8, name: "returned_to_pharmacy" as const }, item_returned: true } : order,
);
/** Only an attempted order: no cash, no check. */
const ITEMS_ONLY: Order[] = [DAY[0]!];

const NETWORK: ApiFailure = { kind: "network", status: null, message: "Failed to fetch", code: null };
const MISMATCH: ApiFailure = {
  kind: "refused",
  status: 409,
  message: "The cash handed back, $10.00, is not the $12.50 collected in cash for Northside Family Drugs. Please refresh and check the return again.",
  code: "return_mismatch",
};
const RESPONSE: ReturnResponse = { return: { id: 5, order_ids: [11, 12, 30, 40], cash_collected: "12.50", check_collected: "24.00" } };

const EVENTS: ReturnsEvent[] | Record<string, unknown>[] = [
  { type: "VIEW_DETAILS", kind: "orders" },
  { type: "VIEW_DETAILS", kind: "cash" },
  { type: "VIEW_DETAILS", kind: "check" },
  { type: "SIGN" },
  { type: "BACK" },
  { type: "GO_TO", view: { screen: "summary" } },
  { type: "GO_TO", view: { screen: "details", kind: "check" } },
  { type: "GO_TO", view: { screen: "signature" } },
  { type: "DAY_CHANGED", orders: DAY },
  { type: "DAY_CHANGED", orders: RETURNED_DAY },
  { type: "QUEUE_CHANGED", incompleteOffline: true },
  { type: "QUEUE_CHANGED", incompleteOffline: false },
  { type: "STAFF_CHANGED", changes: { first_name: "Priya", last_name: "Raman" } },
  { type: "SIGNATURE_CHANGED", svg: SVG },
  { type: "SIGNATURE_CHANGED", svg: null },
  { type: "LOCATED", latitude: 39.99, longitude: -75.14 },
  { type: "SUBMIT" },
  { type: "xstate.done.actor.submitReturn", output: RESPONSE },
  { type: "xstate.error.actor.submitReturn", error: NETWORK },
  { type: "SCAN" },
  // The scanner (its own machine, tests/unit/machines/label-scanner.test.ts): a bag's label read, or 'Stop scanning'.
  { type: "LABEL_MATCHED", orderId: 11 },
  { type: "LABEL_MATCHED", orderId: 12 },
  { type: "xstate.done.actor.labelScanner" },
];

const input = (overrides: Partial<ReturnsInput> = {}): ReturnsInput => ({
  courierId: 1,
  pharmacyId: 7,
  orders: DAY,
  incompleteOffline: false,
  ...overrides,
});

/**
 * The starts the model walks from: the summary, a deep link the machine takes
 * and one it refuses. Blocked and nothing-to-return starts are the same
 * transitions DAY_CHANGED and QUEUE_CHANGED take; the behaviour tests below start there too.
 */
const SCENARIOS: { name: string; input: ReturnsInput }[] = [
  { name: "items, cash and check", input: input() },
  { name: "deep link to the cash details", input: input({ view: { screen: "details", kind: "cash" } }) },
  { name: "items only, deep link to the check details", input: input({ orders: ITEMS_ONLY, view: { screen: "details", kind: "check" } }) },
];

/**
 * What tells two snapshots apart for the model: the screen and the screen
 * asked for; on the signature screen also whether the names and signature are
 * there and the alert. What was entered survives leaving the screen (the
 * behaviour tests below check it); counting it on every screen would only
 * multiply paths through the same transitions.
 */
const serializeState = (snapshot: AnyMachineSnapshot) => {
  const c = snapshot.context as ReturnsContext;
  const signing = snapshot.matches("signing") ? [c.staff.first_name !== "" && c.staff.last_name !== "", c.signatureSvg !== null, c.error] : [];
  const scanning = snapshot.matches("scanningBags") ? [c.tickedOrderIds] : [];
  return JSON.stringify([snapshot.value, snapshot.status, c.requested, ...signing, ...scanning]);
};

const pathsOf = (scenarioInput: ReturnsInput) =>
  transitionCoverPaths(returnsMachine, { events: possibleEvents(EVENTS), input: scenarioInput, serializeState });

describe("returns machine (model-based)", () => {
  for (const { name, input: scenarioInput } of SCENARIOS) {
    it.each(pathsOf(scenarioInput).map((path) => [pathName(path), path] as const))(`${name}: %s`, async (_title, path) => {
      const { snapshot } = await replayPath(returnsMachine, ACTORS, scenarioInput, path);
      expect(snapshot.value).toEqual(path.state.value);
      expect(snapshot.context).toEqual(path.state.context);
      expect(snapshot.status).toBe(path.state.status);
    });
  }

  it("covers every state and transition", () => {
    expectFullCoverageAcross(returnsMachine, [
      ...SCENARIOS.map(({ input: scenarioInput }) => ({ input: scenarioInput, paths: pathsOf(scenarioInput) })),
      ...ALL_STARTS.map((start) => ({ input: start, paths: [] })),
    ]);
    // The paths are walked again here: seconds on a shared core.
  }, 60_000);
});

const by = (events: Record<string, unknown>[]) => pathOfEvents(events);
const SIGNED = [
  { type: "SIGN" },
  { type: "STAFF_CHANGED", changes: { first_name: " Priya " } },
  { type: "STAFF_CHANGED", changes: { last_name: "Raman" } },
  { type: "SIGNATURE_CHANGED", svg: SVG },
];
const ALL_STARTS: ReturnsInput[] = [
  input({ incompleteOffline: true }),
  input({ orders: RETURNED_DAY }),
  input({ view: { screen: "signature" } }),
];

describe("returns behaviour (spec §2, §4, §5, §7, §8, §9)", () => {
  it("summarises items, cash and checks of this pharmacy in cents", async () => {
    const { snapshot } = await replayPath(returnsMachine, ACTORS, input(), by([]));
    expect(snapshot.value).toBe("summary");
    expect(snapshot.context.summary).toMatchObject({ itemsTotal: 1150, cashCollected: 1250, checkCollected: 2400, orderIds: [11, 12, 30, 40] });
  });

  it("submits the spec §7 form: names, signature, courier, pharmacy, totals, location and the lines", async () => {
    const { snapshot, calls } = await replayPath(returnsMachine, ACTORS, input(), by([
      { type: "LOCATED", latitude: 39.99, longitude: -75.14 },
      ...SIGNED,
      { type: "SUBMIT" },
    ]));
    expect(snapshot.value).toEqual({ signing: "submitting" });
    expect(calls).toEqual([
      {
        actor: "submitReturn",
        input: {
          recipient_first_name: "Priya",
          recipient_last_name: "Raman",
          signature_svg: SVG,
          courier_id: 1,
          pharmacy_id: 7,
          cash_collected: "12.50",
          check_collected: "24.00",
          latitude: 39.99,
          longitude: -75.14,
          returns: [
            { type: "item", amount: "6.50", order_id: 11 },
            { type: "item", amount: "5.00", order_id: 12 },
            { type: "cash", amount: "12.50", order_id: 30 },
            { type: "check", amount: "24.00", order_id: 40 },
          ],
        },
      },
    ]);
  });

  it("first name, last name and signature are all required", async () => {
    for (const skip of [1, 2, 3]) {
      const events = SIGNED.filter((_, index) => index !== skip);
      const { snapshot } = await replayPath(returnsMachine, ACTORS, input(), by([...events, { type: "SUBMIT" }]));
      expect(snapshot.value, `without step ${skip}`).toEqual({ signing: "editing" });
    }
    const blank = await replayPath(returnsMachine, ACTORS, input(), by([...SIGNED, { type: "STAFF_CHANGED", changes: { last_name: "   " } }, { type: "SUBMIT" }]));
    expect(blank.snapshot.value).toEqual({ signing: "editing" });
    const cleared = await replayPath(returnsMachine, ACTORS, input(), by([...SIGNED, { type: "SIGNATURE_CHANGED", svg: null }, { type: "SUBMIT" }]));
    expect(cleared.snapshot.value).toEqual({ signing: "editing" });
    expect(cleared.snapshot.context.signatureSvg).toBeNull();
  });

  it("names hold at most 32 characters", async () => {
    const { snapshot } = await replayPath(returnsMachine, ACTORS, input(), by([{ type: "SIGN" }, { type: "STAFF_CHANGED", changes: { first_name: "x".repeat(40) } }]));
    expect(snapshot.context.staff.first_name).toHaveLength(32);
  });

  it("a network failure shows the no-internet text and keeps everything entered for another try", async () => {
    const { snapshot, calls } = await replayPath(returnsMachine, ACTORS, input(), by([
      ...SIGNED,
      { type: "SUBMIT" },
      { type: "xstate.error.actor.submitReturn", error: NETWORK },
    ]));
    expect(snapshot.value).toEqual({ signing: "editing" });
    expect(snapshot.context.error).toBe(TEXT.noInternet);
    expect(snapshot.context.staff).toEqual({ first_name: " Priya ", last_name: "Raman" });
    expect(snapshot.context.signatureSvg).toBe(SVG);
    expect(snapshot.can({ type: "SUBMIT" })).toBe(true);
    expect(calls).toHaveLength(1);

    const again = await replayPath(returnsMachine, ACTORS, input(), by([
      ...SIGNED,
      { type: "SUBMIT" },
      { type: "xstate.error.actor.submitReturn", error: NETWORK },
      { type: "SUBMIT" },
    ]));
    expect(again.snapshot.context.error).toBeNull();
    expect(again.calls.map((call) => call.input)).toEqual([calls[0]!.input, calls[0]!.input]);
  });

  it("a refusal shows the server's words; a server error the spec's", async () => {
    const refused = await replayPath(returnsMachine, ACTORS, input(), by([...SIGNED, { type: "SUBMIT" }, { type: "xstate.error.actor.submitReturn", error: MISMATCH }]));
    expect(refused.snapshot.context.error).toBe(MISMATCH.message);
    const server: ApiFailure = { kind: "server", status: 500, message: "boom", code: "internal" };
    const failed = await replayPath(returnsMachine, ACTORS, input(), by([...SIGNED, { type: "SUBMIT" }, { type: "xstate.error.actor.submitReturn", error: server }]));
    expect(failed.snapshot.context.error).toBe(TEXT.serverError);
  });

  it("once recorded, the returned orders are returned to the pharmacy or reconciled, with item_returned", async () => {
    const { snapshot } = await replayPath(returnsMachine, ACTORS, input(), by([...SIGNED, { type: "SUBMIT" }, { type: "xstate.done.actor.submitReturn", output: RESPONSE }]));
    expect(snapshot.status).toBe("done");
    expect(snapshot.output.result).toEqual(RESPONSE.return);
    expect(snapshot.output.orders.map((order: Order) => [order.id, order.status.name, order.item_returned])).toEqual([
      [11, "returned_to_pharmacy", true],
      [12, "returned_to_pharmacy", true],
      [30, "reconciled", true],
      [40, "reconciled", true],
    ]);
  });

  it("offline orders on the device block the return until they are resubmitted", async () => {
    const { snapshot } = await replayPath(returnsMachine, ACTORS, input({ incompleteOffline: true, view: { screen: "signature" } }), by([]));
    expect(snapshot.value).toBe("blocked");
    expect(snapshot.can({ type: "SIGN" })).toBe(false);
    const resubmitted = await replayPath(returnsMachine, ACTORS, input({ incompleteOffline: true, view: { screen: "signature" } }), by([
      { type: "QUEUE_CHANGED", incompleteOffline: false },
    ]));
    expect(resubmitted.snapshot.value).toEqual({ signing: "editing" });
  });

  it("deep links: a details page of an empty kind is refused, the signature page is allowed", async () => {
    const refused = await replayPath(returnsMachine, ACTORS, input({ orders: ITEMS_ONLY, view: { screen: "details", kind: "cash" } }), by([]));
    expect(refused.snapshot.value).toBe("summary");
    const stays = await replayPath(returnsMachine, ACTORS, input({ orders: ITEMS_ONLY }), by([
      { type: "SIGN" },
      { type: "GO_TO", view: { screen: "details", kind: "check" } },
    ]));
    expect(stays.snapshot.value).toEqual({ signing: "editing" });
    const details = await replayPath(returnsMachine, ACTORS, input(), by([{ type: "GO_TO", view: { screen: "details", kind: "check" } }]));
    expect(details.snapshot.value).toBe("details");
    expect(details.snapshot.context.requested).toEqual({ screen: "details", kind: "check" });
  });

  it("a day changed under the signature screen keeps the names and signature entered", async () => {
    const { snapshot } = await replayPath(returnsMachine, ACTORS, input(), by([...SIGNED, { type: "DAY_CHANGED", orders: DAY }]));
    expect(snapshot.value).toEqual({ signing: "editing" });
    expect(snapshot.context.signatureSvg).toBe(SVG);
    const emptied = await replayPath(returnsMachine, ACTORS, input(), by([...SIGNED, { type: "DAY_CHANGED", orders: RETURNED_DAY }]));
    expect(emptied.snapshot.value).toBe("nothingToReturn");
  });

  it("ignores the day changing while the pharmacy staff wait for the submission", async () => {
    const { snapshot } = await replayPath(returnsMachine, ACTORS, input(), by([...SIGNED, { type: "SUBMIT" }, { type: "DAY_CHANGED", orders: RETURNED_DAY }]));
    expect(snapshot.value).toEqual({ signing: "submitting" });
  });
});

describe("ticking bags off by their labels on the summary", () => {
  /** The returns machine with its real scanner and a camera the test drives, scanning with the picture shown. */
  function scanningReturns(startInput = input()) {
    const { camera, labelScanner } = testCamera();
    const actor = createActor(returnsMachine.provide({ actors: { labelScanner } }), { input: startInput }).start();
    const scanner = () => scannerOf(actor)!;
    actor.send({ type: "SCAN" });
    scanner().send({ type: "CAMERA_READY" });
    return { actor, camera, scanner, read: (code: string) => scanner().send({ type: "LABEL_READ", code }) };
  }

  it("each bag's label ticks it off once; a label of no bag here says so and scanning goes on", () => {
    const { actor, scanner, read } = scanningReturns();
    read("rx-11");
    read("RX-11");
    // Order 30 went back as cash: its label is no bag.
    read("RX-30");
    expect(actor.getSnapshot().value).toBe("scanningBags");
    expect(actor.getSnapshot().context.tickedOrderIds).toEqual([11]);
    expect(scanner().getSnapshot().context.unknownLabel).toBe("RX-30");
    read("EXT-12");
    expect(actor.getSnapshot().context.tickedOrderIds).toEqual([11, 12]);
    expect(scanner().getSnapshot().context.unknownLabel).toBeNull();
  });

  it("the ticks are extra: closing the camera keeps them, and Continue and the submission are as before", async () => {
    const { snapshot, calls } = await replayPath(returnsMachine, ACTORS, input(), by([
      { type: "SCAN" },
      { type: "LABEL_MATCHED", orderId: 12 },
      { type: "xstate.done.actor.labelScanner" },
      ...SIGNED,
      { type: "SUBMIT" },
    ]));
    expect(snapshot.context.tickedOrderIds).toEqual([12]);
    const plain = await replayPath(returnsMachine, ACTORS, input(), by([...SIGNED, { type: "SUBMIT" }]));
    expect(calls.find((call) => call.actor === "submitReturn")).toEqual(plain.calls.find((call) => call.actor === "submitReturn"));
    expect(calls.filter((call) => call.actor === "labelScanner")).toEqual([{ actor: "labelScanner", input: { bags: [DAY[0], DAY[1]], reportTo: expect.anything() } }]);
  });

  it("'Stop scanning' closes the camera and goes back to the summary", () => {
    const { actor, camera, scanner } = scanningReturns();
    scanner().send({ type: "CLOSE" });
    expect(actor.getSnapshot().value).toBe("summary");
    expect(camera).toEqual({ opened: 1, closed: 1 });
  });

  it("continuing while the camera is open goes on to the signature and closes the camera", () => {
    const { actor, camera } = scanningReturns();
    actor.send({ type: "SIGN" });
    expect(actor.getSnapshot().value).toEqual({ signing: "editing" });
    expect(camera.closed).toBe(1);
  });

  it("a day that changes under the camera keeps it open, drops ticks of bags no longer going back, and the camera looks for the bags left", () => {
    const gone = DAY.map((order) => (order.id === 11 ? { ...order, status: { id: 8, name: "returned_to_pharmacy" as const }, item_returned: true } : order));
    const { actor, camera, scanner, read } = scanningReturns();
    read("RX-11");
    read("RX-12");
    actor.send({ type: "DAY_CHANGED", orders: gone });
    expect(actor.getSnapshot().value).toBe("scanningBags");
    expect(actor.getSnapshot().context.tickedOrderIds).toEqual([12]);
    expect(scanner().getSnapshot().context.bags.map((bag) => bag.id)).toEqual([12]);
    expect(camera.closed).toBe(0);
    // Nothing waits on the device still: the camera stays; orders stored again: the alert.
    actor.send({ type: "QUEUE_CHANGED", incompleteOffline: false });
    expect(actor.getSnapshot().value).toBe("scanningBags");
    actor.send({ type: "QUEUE_CHANGED", incompleteOffline: true });
    expect(actor.getSnapshot().value).toBe("blocked");
    expect(camera.closed).toBe(1);
  });

  it("a day that leaves nothing to return closes the camera", () => {
    const { actor, camera } = scanningReturns();
    actor.send({ type: "DAY_CHANGED", orders: RETURNED_DAY });
    expect(actor.getSnapshot().value).toBe("nothingToReturn");
    expect(camera.closed).toBe(1);
  });
});

describe("following the courier's day and the offline queue in the application's actor system", () => {
  const STORED = makeStoredDelivery(30, APP_TODAY);

  async function returnsIn(stored: StoredOfflineOrder[] = []) {
    const system = await startAppSystem({ day: itinerary(DAY), stored });
    const incompleteOffline = system.queue.getSnapshot().context.entries.length > 0;
    const recorded = returnsMachine.provide({ actors: { submitReturn: fromPromise(async () => RESPONSE) } });
    const flow = system.startFlow(recorded, input({ orders: system.day.getSnapshot().context.day!.orders, incompleteOffline }));
    const received: unknown[] = [];
    system.app.system.inspect((inspection) => {
      const news = ["DAY_CHANGED", "QUEUE_CHANGED"];
      if (inspection.type === "@xstate.event" && inspection.actorRef === flow && news.includes(inspection.event.type)) received.push(inspection.event);
    });
    return { ...system, flow, received };
  }

  it("a day refreshed under the summary is returned again, told by the day itself", async () => {
    const { day, flow } = await returnsIn();
    expect(flow.getSnapshot().value).toBe("summary");
    // Returned from another tab: the refreshed day has nothing left at pharmacy 7.
    day.send({ type: "ORDERS_CHANGED", orders: RETURNED_DAY });
    expect(flow.getSnapshot().value).toBe("nothingToReturn");
    expect(flow.getSnapshot().context.orders).toBe(day.getSnapshot().context.day!.orders);
  });

  it("the stored orders resubmitted open the return; an order stored meanwhile blocks it again", async () => {
    const { queue, flow } = await returnsIn([STORED]);
    expect(flow.getSnapshot().value).toBe("blocked");
    queue.send({ type: "TRY_AGAIN", today: APP_TODAY });
    await waitFor(flow, (snapshot) => snapshot.value === "summary");
    expect(flow.getSnapshot().context.incompleteOffline).toBe(false);

    queue.send({ type: "ENQUEUE", entry: { ...STORED, idempotencyKey: "00000000-0000-4000-8000-000000000031" } });
    expect(flow.getSnapshot().value).toBe("blocked");
  });

  it("says nothing while neither changes, and stops following once the return is recorded", async () => {
    const { app, day, queue, flow, received } = await returnsIn();
    day.send({ type: "VISITS_CHANGED", visits: [] });
    queue.send({ type: "TRY_AGAIN", today: APP_TODAY });
    expect(received).toEqual([]);

    for (const event of [...SIGNED, { type: "SUBMIT" }]) flow.send(event as ReturnsEvent);
    await waitFor(flow, (snapshot) => snapshot.status === "done");
    // reportReturned told the day (its own change may still reach the flow as it finishes: a finished flow takes nothing).
    expect(day.getSnapshot().context.day!.orders.find((order) => order.id === 11)?.status.name).toBe("returned_to_pharmacy");
    const output = flow.getSnapshot().output;
    const heard = received.length;
    day.send({ type: "ORDERS_CHANGED", orders: DAY });
    queue.send({ type: "ENQUEUE", entry: STORED });
    expect(received).toHaveLength(heard);
    expect(flow.getSnapshot().output).toBe(output);
    expect(app.getSnapshot().status).toBe("active");
  });

  it("starts from the day and the queue as they are, if they moved on after the flow's input was read", async () => {
    const system = await startAppSystem({ day: itinerary(RETURNED_DAY), stored: [STORED] });
    const flow = system.startFlow(returnsMachine, input({ orders: DAY, incompleteOffline: false }));
    expect(flow.getSnapshot().context.orders).toBe(system.day.getSnapshot().context.day!.orders);
    expect(flow.getSnapshot().value).toBe("blocked");
  });

  it("follows by asking, and stops when done: the day and the queue keep no finished flow", async () => {
    const { day, queue, flow } = await returnsIn();
    expect(day.getSnapshot().context.followers).toEqual([flow]);
    expect(queue.getSnapshot().context.followers).toEqual([flow]);
    for (const event of [...SIGNED, { type: "SUBMIT" }]) flow.send(event as ReturnsEvent);
    await waitFor(flow, (snapshot) => snapshot.status === "done");
    expect(day.getSnapshot().context.followers).toEqual([]);
    expect(queue.getSnapshot().context.followers).toEqual([]);
  });

  it("alone, with neither in its system, it keeps what it started with", () => {
    const flow = createActor(returnsMachine, { input: input({ incompleteOffline: true }) }).start();
    expect(flow.getSnapshot().value).toBe("blocked");
    expect(flow.getSnapshot().context.orders).toBe(DAY);
  });
});
