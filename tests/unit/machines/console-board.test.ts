import { describe, expect, it } from "vitest";
import type { ApiFailure } from "../../../domain/api-failure.ts";
import type { OpsOrder } from "../../../domain/contract/ops.ts";
import { applyChangedOrders, boardOrders, consoleBoardMachine, MOST_ORDERS_FETCHED, type BoardData } from "../../../machines/console-board.machine.ts";
import { expectFullCoverage, transitionCoverPaths } from "../../support/model-coverage.ts";
import { pathName, possibleEvents, replayPath } from "../../support/replay-paths.ts";

const DANA = { id: 3, first_name: "Dana", last_name: "Whitfield" };
const SAM = { id: 5, first_name: "Sam", last_name: "Okafor" };
function order(id: number, status: OpsOrder["status"]["name"], courier: typeof DANA | null, patient = "Ada Lovelace"): OpsOrder {
  const [first, last] = patient.split(" ");
  const ids = { new: 1, submitted_to_courier: 2, picked_up: 3 } as Record<string, number>;
  return {
    id,
    status: { id: ids[status] ?? 9, name: status },
    courier_id: courier?.id ?? null,
    courier,
    planned_position: courier ? id : null,
    patient_first_name: first,
    patient_last_name: last,
    external_id: `RX-${id}`,
    service_date: "2026-11-26",
    updated_at: "2026-11-26T12:00:00.000Z",
  } as unknown as OpsOrder;
}
const DAY: BoardData = { orders: [order(7, "submitted_to_courier", DANA)], couriers: [DANA] };
const offline: ApiFailure = { kind: "network", status: null, message: "Failed to fetch", code: null };
const ended: ApiFailure = { kind: "unauthenticated", status: 401, message: "Log in to continue.", code: "unauthenticated" };

const EVENTS = [
  { type: "SET_SERVICE_DATE", serviceDate: "2026-11-27" },
  { type: "SET_SERVICE_DATE", serviceDate: "not a day" },
  { type: "RETRY" },
  { type: "STREAM_OPEN" },
  { type: "STREAM_ERROR" },
  // Order 7 picked up (fetch it); order 8 new to the day; an event it cannot apply; 60 orders at once (the day is cheaper).
  { type: "STREAM_EVENT", orders: [{ id: 7, updated_at: "2026-11-26T14:00:00.000Z" }] },
  { type: "STREAM_EVENT", orders: [{ id: 8, updated_at: "2026-11-26T14:00:00.000Z" }] },
  { type: "STREAM_EVENT", orders: null },
  { type: "STREAM_EVENT", orders: Array.from({ length: MOST_ORDERS_FETCHED + 10 }, (_, i) => ({ id: 100 + i, updated_at: "2026-11-26T14:00:00.000Z" })) },
  { type: "xstate.done.actor.loadBoard", output: DAY },
  { type: "xstate.done.actor.loadOrders", output: { orderIds: [7], orders: [{ ...DAY.orders[0]!, updated_at: "2026-11-26T14:00:00.000Z" }] } },
  { type: "xstate.done.actor.loadOrders", output: { orderIds: [7], orders: [] } },
  { type: "xstate.error.actor.loadOrders", error: offline },
  { type: "xstate.error.actor.loadBoard", error: offline },
  { type: "xstate.error.actor.loadBoard", error: ended },
];

const ACTORS = ["loadBoard", "loadOrders", "eventStream", "assignOrders", "unassignOrder"] as const;
const INPUT = { serviceDate: "2026-11-26", csrfToken: "csrf-1" };

describe("console board machine (issue 27)", () => {
  const paths = transitionCoverPaths(consoleBoardMachine, {
    input: INPUT,
    events: possibleEvents(EVENTS),
    // The board's shape, not its every detail: which day, whether it shows orders, a failure, a pending reload.
    serializeState: (s) => JSON.stringify([s.value, s.context.serviceDate, s.context.orders.length > 0, s.context.failure?.kind ?? null, s.context.stale, s.context.dirty.length > 0]),
  });

  it.each(paths.map((path) => [pathName(path), path] as const))("replays %s", async (_name, path) => {
    const { snapshot, calls } = await replayPath(consoleBoardMachine, ACTORS, INPUT, path);
    expect(snapshot.value).toEqual(path.state.value);
    expect(snapshot.context).toEqual(path.state.context);
    // Every load asks for the day the board shows.
    const days = calls.filter((c) => c.actor === "loadBoard").map((c) => (c.input as { serviceDate: string }).serviceDate);
    for (const day of days) expect(["2026-11-26", "2026-11-27"]).toContain(day);
    // A fetch after live events names orders, never more than the limit.
    for (const call of calls.filter((c) => c.actor === "loadOrders")) {
      const ids = (call.input as { orderIds: number[] }).orderIds;
      expect(ids.length).toBeGreaterThan(0);
      expect(ids.length).toBeLessThanOrEqual(MOST_ORDERS_FETCHED);
    }
  });

  it("covers every state and transition, with the assignment paths below", () => expectFullCoverage(consoleBoardMachine, [...paths, ...assignmentPaths], { input: INPUT }));

  it("loads again after a live event, and once more when the event came during a load", () => {
    const refreshed = paths.find((p) => p.steps.some((s) => s.state.matches({ data: "refreshing" })) && p.state.matches({ data: "ready" }));
    expect(refreshed).toBeDefined();
    const staleDuringLoad = paths.find((p) => p.steps.some((s) => s.state.matches({ data: "loading" }) && s.state.context.stale));
    expect(staleDuringLoad).toBeDefined();
  });

  it("fetches only the orders an event names, and loads the whole day for what it cannot apply or after a drop", () => {
    const updated = paths.find((p) => p.steps.some((s) => s.state.matches({ data: "updating" })) && p.state.matches({ data: "ready" }));
    expect(updated).toBeDefined();
    // Never more orders waiting to be fetched than the limit (more: the day instead).
    for (const p of paths) for (const step of p.steps) expect(step.state.context.dirty.length).toBeLessThanOrEqual(MOST_ORDERS_FETCHED);
    const afterDrop = paths.find((p) => p.steps.some((s) => s.state.matches({ connection: "reconnecting", data: "ready" })) && p.state.matches({ connection: "live", data: "refreshing" }));
    expect(afterDrop).toBeDefined();
  });

  it("replaces, adds and drops the fetched orders in the list's order", () => {
    const a = order(9, "new", null);
    const b = order(7, "submitted_to_courier", DANA);
    const c = order(3, "new", null);
    const moved = { ...b, status: { id: 3, name: "picked_up" } } as OpsOrder;
    const added = order(8, "new", null);
    // 7 changed, 8 is new to the board, 3 left the day (named, not returned).
    expect(applyChangedOrders([a, b, c], { orderIds: [7, 8, 3], orders: [moved, added] })).toEqual([a, added, moved]);
    expect(applyChangedOrders([a, b], { orderIds: [], orders: [] })).toEqual([a, b]);
  });

  it("says a failure in words, keeps the board on a failed refresh, and ignores a day that is not a day", () => {
    const failed = paths.find((p) => p.state.matches({ data: "failed" }) && p.state.context.failure?.kind === "network");
    expect(failed?.state.context.error).toBe("The server cannot be reached. Check the connection, then choose 'Try again'.");
    const keptBoard = paths.find((p) => p.state.matches({ data: "ready" }) && p.state.context.error !== null && p.state.context.orders.length > 0);
    expect(keptBoard).toBeDefined();
    expect(paths.every((p) => p.state.context.serviceDate !== "not a day")).toBe(true);
  });

  it("shows the connection: live after the stream opens, reconnecting after it drops", () => {
    expect(paths.some((p) => p.state.matches({ connection: "live" }))).toBe(true);
    expect(paths.some((p) => p.state.matches({ connection: "reconnecting" }))).toBe(true);
  });
});

/*
 * Assigning, on a loaded board (the load and the stream are covered above;
 * walked together the model would be their product): one order new and
 * unassigned (1, Ada), one submitted to Dana (2, Grace), one Dana picked up (4, Alan).
 */
const ASSIGN_DAY: BoardData = {
  orders: [order(1, "new", null, "Ada Lovelace"), order(2, "submitted_to_courier", DANA, "Grace Hopper"), order(4, "picked_up", DANA, "Alan Turing")],
  couriers: [DANA, SAM],
};
const assignedToSam = [order(1, "submitted_to_courier", SAM, "Ada Lovelace"), order(2, "submitted_to_courier", SAM, "Grace Hopper")];
const conflict: ApiFailure = { kind: "refused", status: 409, message: "Order 2 is picked up: only an order not yet picked up can be assigned.", code: "conflict" };

const ASSIGN_EVENTS = [
  { type: "xstate.done.actor.loadBoard", output: ASSIGN_DAY },
  { type: "TOGGLE_ORDER", orderId: 1 },
  { type: "TOGGLE_ORDER", orderId: 4 },
  { type: "TOGGLE_ORDER", orderId: 99 },
  { type: "SELECT_RANGE", orderIds: [1, 2] },
  { type: "SELECT_RANGE", orderIds: [] },
  { type: "CLEAR_SELECTION" },
  { type: "CHOOSE_COURIER", courierId: SAM.id },
  { type: "CHOOSE_COURIER", courierId: 99 },
  { type: "CHOOSE_COURIER", courierId: null },
  { type: "ASSIGN" },
  { type: "UNASSIGN", orderId: 2 },
  { type: "UNASSIGN", orderId: 4 },
  { type: "UNASSIGN", orderId: 1 },
  { type: "DISMISS_NOTICE" },
  { type: "xstate.done.actor.assignOrders", output: assignedToSam },
  { type: "xstate.error.actor.assignOrders", error: conflict },
  { type: "xstate.done.actor.unassignOrder", output: order(2, "new", null, "Grace Hopper") },
  { type: "xstate.error.actor.unassignOrder", error: offline },
];

const assignmentPaths = transitionCoverPaths(consoleBoardMachine, {
  input: INPUT,
  events: possibleEvents(ASSIGN_EVENTS),
  // What assigning turns on: how much is selected (none, one, more), whether a courier is chosen, what is on its way, the last word said.
  serializeState: (s) =>
    JSON.stringify([
      s.value,
      Math.min(s.context.selected.length, 2),
      s.context.selected.includes(4),
      s.context.courierId !== null,
      s.context.pending?.kind ?? null,
      s.context.notice?.tone ?? null,
    ]),
});

describe("console board machine: selecting and assigning (issue 27)", () => {
  it.each(assignmentPaths.map((path) => [pathName(path), path] as const))("replays %s", async (_name, path) => {
    const { snapshot, calls } = await replayPath(consoleBoardMachine, ACTORS, INPUT, path);
    expect(snapshot.value).toEqual(path.state.value);
    expect(snapshot.context).toEqual(path.state.context);
    // Every change carries the session's CSRF token; an assignment names the board's day and a courier one may choose.
    for (const call of calls.filter((c) => c.actor === "assignOrders" || c.actor === "unassignOrder")) {
      expect((call.input as { csrfToken: string }).csrfToken).toBe("csrf-1");
    }
    for (const call of calls.filter((c) => c.actor === "assignOrders")) {
      const input = call.input as { courierId: number; serviceDate: string; orderIds: number[] };
      expect(input.serviceDate).toBe("2026-11-26");
      expect(input.courierId).toBe(SAM.id);
      expect(input.orderIds.length).toBeGreaterThan(0);
      expect(input.orderIds).not.toContain(4);
    }
  });

  it("shows an assignment before the server answers, keeps the server's answer, and rolls back when refused", () => {
    const assigning = assignmentPaths.find((p) => p.state.matches({ assignment: "assigning" }));
    expect(assigning).toBeDefined();
    const shown = boardOrders(assigning!.state.context.orders, assigning!.state.context.pending);
    for (const id of assigning!.state.context.pending!.orderIds) expect(shown.find((o) => o.id === id)?.courier_id).toBe(SAM.id);
    // What the server has is unchanged until it answers.
    expect(assigning!.state.context.orders).toEqual(ASSIGN_DAY.orders);

    const kept = assignmentPaths.find((p) => p.steps.at(-1)?.event.type === "xstate.done.actor.assignOrders");
    expect(kept?.state.context.pending).toBeNull();
    expect(kept?.state.context.notice?.text).toMatch(/^\d orders? assigned to Sam Okafor\.$/);
    expect(kept?.state.context.orders.find((o: OpsOrder) => o.id === 1)?.courier_id).toBe(SAM.id);

    const refused = assignmentPaths.find((p) => p.steps.at(-1)?.event.type === "xstate.error.actor.assignOrders");
    expect(refused?.state.context.pending).toBeNull();
    expect(boardOrders(refused!.state.context.orders, null)).toEqual(ASSIGN_DAY.orders);
    expect(refused?.state.context.notice).toEqual({ tone: "refused", text: `The orders were not assigned: ${conflict.message}` });
    // The selection stays, for another courier or another try.
    expect(refused?.state.context.selected.length).toBeGreaterThan(0);
  });

  it("refuses a picked-up order in words, and sends nothing", () => {
    const pickedUp = assignmentPaths.find((p) => p.steps.at(-1)?.event.type === "ASSIGN" && p.state.context.selected.includes(4) && p.state.context.courierId !== null);
    expect(pickedUp?.state.matches({ assignment: "idle" })).toBe(true);
    expect(pickedUp?.state.context.notice?.text).toContain("Alan Turing (RX-4) is picked up: only an order not yet picked up can move to another courier.");
    const unassignPicked = assignmentPaths.find(
      (p) => p.steps.at(-1)?.event.type === "UNASSIGN" && (p.steps.at(-1)?.event as unknown as { orderId: number }).orderId === 4 && p.state.context.orders.length > 0,
    );
    expect(unassignPicked?.state.context.notice?.text).toBe(
      "Nothing was unassigned: Alan Turing (RX-4) is picked up: only an order not yet picked up can move to another courier.",
    );
  });

  it("selects a range with the anchor's state", () => {
    const ranged = assignmentPaths.find((p) => p.steps.some((s) => s.event.type === "SELECT_RANGE") && p.state.context.selected.length === 2);
    expect(ranged).toBeDefined();
  });
});
