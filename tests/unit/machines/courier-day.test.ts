import { describe, expect, it } from "vitest";
import type { ItineraryResponse, Order } from "../../../domain/contract/index.ts";
import { courierDayMachine } from "../../../machines/courier-day.machine.ts";
import { expectFullCoverage, transitionCoverPaths } from "../../support/model-coverage.ts";
import { pathName, possibleEvents, replayPath } from "../../support/replay-paths.ts";

const order = { id: 7, status: { id: 2, name: "submitted_to_courier" } } as unknown as Order;
const day = { orders: [order], pharmacy_visits: [], support_phone: "18005550199" } as unknown as ItineraryResponse;
const pickedUp = { ...order, status: { id: 3, name: "picked_up" }, payment_type: null, payment_collected: false } as unknown as Order;

const EVENTS = [
  { type: "REFRESH" },
  { type: "ORDERS_CHANGED", orders: [pickedUp] },
  { type: "VISITS_CHANGED", visits: [] },
  { type: "DELIVERY_RECORDED", orders: [{ ...order, status: { id: 6, name: "delivery_attempted" } }] },
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
    expect(after.context.day!.orders[0]!.status.name).toBe("delivery_attempted");
    expect(after.matches({ ready: "saving" })).toBe(true);
    const refreshFailed = paths.find((p) => p.state.matches("ready") && p.state.context.error !== null)!;
    expect(refreshFailed).toBeDefined();
  });
});
