import { describe, expect, it } from "vitest";
import { createActor, fromCallback, fromPromise, type EventObject } from "xstate";
import type { ItineraryResponse, Order } from "../../../domain/contract/index.ts";
import { courierDayMachine, type DayLoad } from "../../../machines/courier-day.machine.ts";
import { expectFullCoverage, transitionCoverPaths } from "../../support/model-coverage.ts";
import { pathName, possibleEvents, replayPath } from "../../support/replay-paths.ts";

const order = { id: 7, status: { id: 2, name: "submitted_to_courier" } } as unknown as Order;
const day = { orders: [order], pharmacy_visits: [], support_phone: "18005550199" } as unknown as ItineraryResponse;
const pickedUp = { ...order, status: { id: 3, name: "picked_up" }, payment_type: null, payment_collected: false } as unknown as Order;

/** A flow that follows the day (check-in, returns): it hears DAY_CHANGED. */
const heard: EventObject[] = [];
const FOLLOWER = createActor(fromCallback(({ receive }) => receive((event) => heard.push(event)))).start();

const EVENTS = [
  { type: "FOLLOW", follower: FOLLOWER },
  { type: "UNFOLLOW", follower: FOLLOWER },
  { type: "REFRESH" },
  { type: "ORDERS_CHANGED", orders: [pickedUp] },
  { type: "VISITS_CHANGED", visits: [] },
  { type: "DELIVERY_RECORDED", orders: [{ ...order, status: { id: 6, name: "delivery_attempted" } }] },
  { type: "xstate.done.actor.loadDay", output: { itinerary: day, source: "server" } },
  { type: "xstate.done.actor.loadDay", output: { itinerary: day, source: "device" } },
  { type: "xstate.error.actor.loadDay", error: new TypeError("Failed to fetch") },
  { type: "xstate.done.actor.saveDay" },
  { type: "xstate.error.actor.saveDay", error: new Error("quota") },
];

const ACTORS = ["loadDay", "saveDay"] as const;

describe("courier day machine", () => {
  const paths = transitionCoverPaths(courierDayMachine, {
    events: possibleEvents(EVENTS),
    serializeState: (s) => JSON.stringify([s.value, s.context.day !== null, s.context.error !== null, s.context.followers.length]),
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

  it("tells the flows that follow it the orders: at once, after each change of orders, and no more once they unfollow", async () => {
    const day$ = createActor(
      courierDayMachine.provide({
        actors: { loadDay: fromPromise<DayLoad>(async () => ({ itinerary: day, source: "server" })), saveDay: fromPromise<void, { day: ItineraryResponse }>(async () => undefined) },
      }),
    ).start();
    heard.length = 0;
    // Following before the day is loaded: told once it is.
    day$.send({ type: "FOLLOW", follower: FOLLOWER });
    expect(heard).toEqual([]);
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(heard).toEqual([{ type: "DAY_CHANGED", orders: day.orders }]);
    day$.send({ type: "ORDERS_CHANGED", orders: [pickedUp] });
    expect(heard.at(-1)).toEqual({ type: "DAY_CHANGED", orders: [pickedUp] });
    // A visit arrived at: the orders did not change, nothing to tell.
    day$.send({ type: "VISITS_CHANGED", visits: [] });
    expect(heard).toHaveLength(2);
    // A second follow of the same flow is one follower; a follower joining now is told the orders as they are.
    day$.send({ type: "FOLLOW", follower: FOLLOWER });
    expect(day$.getSnapshot().context.followers).toEqual([FOLLOWER]);
    expect(heard.at(-1)).toEqual({ type: "DAY_CHANGED", orders: [pickedUp] });
    day$.send({ type: "UNFOLLOW", follower: FOLLOWER });
    day$.send({ type: "ORDERS_CHANGED", orders: [order] });
    expect(heard).toHaveLength(3);
  });
});
