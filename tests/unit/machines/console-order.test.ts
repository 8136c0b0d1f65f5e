import { describe, expect, it } from "vitest";
import type { ApiFailure } from "../../../domain/api-failure.ts";
import type { OpsOrderDetail } from "../../../domain/contract/ops.ts";
import { consoleOrderMachine, type ConsoleOrderContext, type OrderPageData } from "../../../machines/console-order.machine.ts";
import { expectFullCoverage, transitionCoverPaths } from "../../support/model-coverage.ts";
import { pathName, possibleEvents, replayPath } from "../../support/replay-paths.ts";

const order = (status: OpsOrderDetail["status"]["name"], courierId: number | null) =>
  ({ id: 7, status: { id: 1, name: status }, courier_id: courierId, service_date: "2026-11-26", status_history: [] }) as unknown as OpsOrderDetail;
const page = (status: OpsOrderDetail["status"]["name"], courierId: number | null): OrderPageData => ({
  order: order(status, courierId),
  custody: [],
  proof: null,
  deliveries: [],
  couriers: [
    { id: 3, first_name: "Dana", last_name: "Whitfield" },
    { id: 4, first_name: "Sam", last_name: "Ortiz" },
  ],
});
const UNASSIGNED = page("new", null);
const WITH_DANA = page("submitted_to_courier", 3);
const PICKED_UP = page("picked_up", 3);
const invalid: ApiFailure = { kind: "refused", status: null, message: "The changes were not saved: phone_number must be a US phone number: 10 digits, optionally after a leading 1.", code: "invalid_changes" };
const offline: ApiFailure = { kind: "network", status: null, message: "Failed to fetch", code: null };
const pickedUpMeanwhile: ApiFailure = { kind: "refused", status: 409, message: "Order 7 is picked up: it left the pharmacy and can no longer be cancelled.", code: "conflict" };

const EVENTS = [
  { type: "RETRY" },
  { type: "REFRESH" },
  { type: "ORDER_CHANGED" },
  { type: "EDIT" },
  { type: "SAVE", changes: { phone_number: "215-555-0100" } },
  { type: "SAVE", changes: {} },
  { type: "DISCARD" },
  { type: "CANCEL_ORDER" },
  { type: "CONFIRM_CANCEL" },
  { type: "KEEP_ORDER" },
  { type: "ASSIGN", courierId: 3 },
  { type: "ASSIGN", courierId: 4 },
  { type: "ASSIGN", courierId: 99 },
  { type: "UNASSIGN" },
  { type: "xstate.done.actor.loadOrder", output: UNASSIGNED },
  { type: "xstate.done.actor.loadOrder", output: WITH_DANA },
  { type: "xstate.done.actor.loadOrder", output: PICKED_UP },
  { type: "xstate.error.actor.loadOrder", error: offline },
  { type: "xstate.done.actor.updateOrder" },
  { type: "xstate.error.actor.updateOrder", error: pickedUpMeanwhile },
  { type: "xstate.error.actor.updateOrder", error: invalid },
  { type: "xstate.done.actor.cancelOrder" },
  { type: "xstate.error.actor.cancelOrder", error: pickedUpMeanwhile },
  { type: "xstate.done.actor.assignOrder" },
  { type: "xstate.error.actor.assignOrder", error: offline },
  { type: "xstate.done.actor.unassignOrder" },
  { type: "xstate.error.actor.unassignOrder", error: pickedUpMeanwhile },
];

const ACTORS = ["loadOrder", "updateOrder", "cancelOrder", "assignOrder", "unassignOrder", "orderEvents"] as const;
const INPUT = { orderId: 7, role: "dispatcher" as const, csrfToken: "t" };

describe("console order machine (issue 27)", () => {
  const paths = transitionCoverPaths(consoleOrderMachine, {
    input: INPUT,
    events: possibleEvents(EVENTS),
    // The page's shape: where it is, the order's state and courier, whether something is said, a pending reload.
    serializeState: (s) =>
      JSON.stringify([s.value, s.context.data?.order.status.name ?? null, s.context.data?.order.courier_id ?? null, s.context.error !== null, s.context.actionError !== null, s.context.notice, s.context.stale]),
  });

  it.each(paths.map((path) => [pathName(path), path] as const))("replays %s", async (_name, path) => {
    const { snapshot, calls } = await replayPath(consoleOrderMachine, ACTORS, INPUT, path);
    expect(snapshot.value).toEqual(path.state.value);
    expect(snapshot.context).toEqual(path.state.context);
    // Every call is about the page's order; an assignment keeps its service date and names a listed courier.
    for (const call of calls) expect((call.input as { orderId: number }).orderId).toBe(7);
    // Every change carries the session's CSRF token.
    for (const call of calls.filter((c) => c.actor !== "loadOrder" && c.actor !== "orderEvents")) expect(call.input).toMatchObject({ csrfToken: "t" });
    for (const call of calls.filter((c) => c.actor === "assignOrder")) {
      expect(call.input).toMatchObject({ serviceDate: "2026-11-26" });
      expect([3, 4]).toContain((call.input as { courierId: number }).courierId);
    }
    for (const call of calls.filter((c) => c.actor === "updateOrder")) expect(call.input).toEqual({ orderId: 7, changes: { phone_number: "215-555-0100" }, csrfToken: "t" });
  });

  it("covers every state and transition", () => expectFullCoverage(consoleOrderMachine, paths, { input: INPUT }));

  it("offers nothing once the order is picked up", () => {
    const pickedUp = paths.filter((p) => p.state.context.data?.order.status.name === "picked_up" && p.state.matches({ ready: "idle" }));
    expect(pickedUp.length).toBeGreaterThan(0);
    for (const p of pickedUp) for (const type of ["EDIT", "CANCEL_ORDER", "UNASSIGN"] as const) expect(p.state.can({ type })).toBe(false);
    for (const p of pickedUp) expect(p.state.can({ type: "ASSIGN", courierId: 4 })).toBe(false);
  });

  it("assigns an unassigned order, moves an assigned one only to another courier, and never to one not listed", () => {
    const unassigned = paths.find((p) => p.state.context.data?.order.courier_id === null && p.state.matches({ ready: "idle" }))!;
    expect(unassigned.state.can({ type: "ASSIGN", courierId: 3 })).toBe(true);
    expect(unassigned.state.can({ type: "UNASSIGN" })).toBe(false);
    expect(unassigned.state.can({ type: "ASSIGN", courierId: 99 })).toBe(false);
    const withDana = paths.find((p) => p.state.context.data?.order.courier_id === 3 && p.state.context.data.order.status.name === "submitted_to_courier" && p.state.matches({ ready: "idle" }))!;
    expect(withDana.state.can({ type: "ASSIGN", courierId: 3 })).toBe(false);
    expect(withDana.state.can({ type: "ASSIGN", courierId: 4 })).toBe(true);
    expect(withDana.state.can({ type: "UNASSIGN" })).toBe(true);
  });

  it("says a refusal in the server's words, and an edit that changes nothing sends nothing", () => {
    const refused = paths.find((p) => p.steps.at(-1)?.event.type === "xstate.error.actor.cancelOrder");
    expect(refused?.state.context.actionError).toBe(pickedUpMeanwhile.message);
    const invalidEdit = paths.find((p) => p.state.matches({ ready: "editing" }) && p.state.context.actionError === invalid.message);
    expect(invalidEdit).toBeDefined();
    const nothing = paths.find((p) => p.steps.at(-1)?.event.type === "SAVE" && p.state.matches({ ready: "editing" }));
    expect(nothing?.state.context.actionError).toBe("Nothing was changed: change a field, or choose 'Discard changes'.");
  });

  it("a pharmacist may edit and cancel their order but never assign it", () => {
    const context: ConsoleOrderContext = { orderId: 7, role: "pharmacist", csrfToken: "t", data: UNASSIGNED, error: null, failure: null, actionError: null, notice: null, stale: false };
    const snapshot = consoleOrderMachine.resolveState({ value: { ready: "idle" }, context });
    expect(snapshot.can({ type: "EDIT" })).toBe(true);
    expect(snapshot.can({ type: "CANCEL_ORDER" })).toBe(true);
    expect(snapshot.can({ type: "ASSIGN", courierId: 3 })).toBe(false);
  });
});
