import { describe, expect, it } from "vitest";
import { createActor, fromPromise, waitFor } from "xstate";
import type { ItineraryResponse, Order } from "../../../domain/contract/index.ts";
import { courierDayMachine, type DayLoad } from "../../../machines/courier-day.machine.ts";
import { expectFullCoverage, transitionCoverPaths } from "../../support/model-coverage.ts";
import { pathName, possibleEvents, replayPath } from "../../support/replay-paths.ts";

const order = { id: 7, status: { id: 2, name: "submitted_to_courier" } } as unknown as Order;
const day = { orders: [order], pharmacy_visits: [], support_phone: "18005550199" } as unknown as ItineraryResponse;
const pickedUp = { ...order, status: { id: 3, name: "picked_up" }, payment_type: null, payment_collected: false } as unknown as Order;

const EVENTS = [
  { type: "REFRESH" },
  { type: "ORDERS_CHANGED", orders: [pickedUp] },
  { type: "VISITS_CHANGED", visits: [] },
  { type: "DELIVERY_RECORDED", order: pickedUp, delivery: { outcome: "attempted", orderIds: [7] } },
  { type: "xstate.done.actor.loadDay", output: { itinerary: day, source: "server" } },
  { type: "xstate.error.actor.loadDay", error: new TypeError("Failed to fetch") },
  { type: "xstate.done.actor.saveDay" },
  { type: "xstate.error.actor.saveDay", error: new Error("quota") },
];

const ACTORS = ["loadDay", "saveDay"] as const;

describe("courier day machine", () => {
  const paths = transitionCoverPaths(courierDayMachine, {
    events: possibleEvents(EVENTS),
    serializeState: (s) => JSON.stringify([s.value, s.context.day !== null, s.context.error !== null]),
  });

  it.each(paths.map((path) => [pathName(path), path] as const))("replays %s", async (_name, path) => {
    const { snapshot } = await replayPath(courierDayMachine, ACTORS, undefined, path);
    expect(snapshot.value).toEqual(path.state.value);
    expect(snapshot.context).toEqual(path.state.context);
  });

  it("covers every state and transition", () => expectFullCoverage(courierDayMachine, paths));

  it("merges a changed order into the day, and keeps the day on screen when a refresh fails", async () => {
    const path = paths.find((p) => p.steps.some((s) => s.event.type === "ORDERS_CHANGED"))!;
    const { snapshot } = await replayPath(courierDayMachine, ACTORS, undefined, path);
    expect(snapshot.context.day!.orders[0]!.status.name).toBe("picked_up");
    const reported = paths.find((p) => p.steps.at(-1)!.event.type === "DELIVERY_RECORDED")!;
    const { snapshot: after } = await replayPath(courierDayMachine, ACTORS, undefined, reported);
    // The day's copy is submitted_to_courier: the lifecycle lets no delivery move it, so the day leaves it as it is.
    expect(after.context.day!.orders[0]!.status.name).toBe("submitted_to_courier");
    expect(after.matches({ ready: "saving" })).toBe(true);
    const refreshFailed = paths.find((p) => p.state.matches("ready") && p.state.context.error !== null)!;
    expect(refreshFailed).toBeDefined();
  });

  it("applies a delivery's outcome itself, with the domain's rule: delivered takes the recipient, attempted only the status", async () => {
    for (const [delivery, status] of [
      [{ outcome: "delivered", orderIds: [7], recipient: { relationship_id: 1, first_name: "Eleanor", last_name: "Abernathy", other_description: null, called_at: null }, identification: null, payment: null }, "delivered"],
      [{ outcome: "attempted", orderIds: [7] }, "delivery_attempted"],
    ] as const) {
      const machine = courierDayMachine.provide({
        actors: {
          loadDay: fromPromise<DayLoad>(async () => ({ itinerary: { ...day, orders: [pickedUp], statuses: [] }, source: "server" })),
          saveDay: fromPromise<void, { day: ItineraryResponse }>(async () => {}),
        },
      });
      const actor = createActor(machine).start();
      await waitFor(actor, (s) => s.matches("ready"));
      actor.send({ type: "DELIVERY_RECORDED", order: pickedUp, delivery });
      const [after] = actor.getSnapshot().context.day!.orders;
      expect(after!.status.name).toBe(status);
      expect(after!.recipient_first_name ?? null).toBe(delivery.outcome === "delivered" ? "Eleanor" : null);
      actor.stop();
    }
  });
});
