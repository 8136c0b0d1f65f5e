import { describe, expect, it } from "vitest";
import type { ApiFailure } from "../../../domain/api-failure.ts";
import type { OpsOrder } from "../../../domain/contract/ops.ts";
import { consoleBoardMachine, type BoardData } from "../../../machines/console-board.machine.ts";
import { expectFullCoverage, transitionCoverPaths } from "../../support/model-coverage.ts";
import { pathName, possibleEvents, replayPath } from "../../support/replay-paths.ts";

const order = { id: 7, status: { id: 2, name: "submitted_to_courier" }, courier_id: 3, service_date: "2026-11-26" } as unknown as OpsOrder;
const DAY: BoardData = { orders: [order], couriers: [{ id: 3, first_name: "Dana", last_name: "Whitfield" }] };
const offline: ApiFailure = { kind: "network", status: null, message: "Failed to fetch", code: null };
const ended: ApiFailure = { kind: "unauthenticated", status: 401, message: "Log in to continue.", code: "unauthenticated" };

const EVENTS = [
  { type: "SET_SERVICE_DATE", serviceDate: "2026-11-27" },
  { type: "SET_SERVICE_DATE", serviceDate: "not a day" },
  { type: "RETRY" },
  { type: "STREAM_OPEN" },
  { type: "STREAM_ERROR" },
  { type: "STREAM_EVENT" },
  { type: "xstate.done.actor.loadBoard", output: DAY },
  { type: "xstate.error.actor.loadBoard", error: offline },
  { type: "xstate.error.actor.loadBoard", error: ended },
];

const ACTORS = ["loadBoard", "eventStream"] as const;
const INPUT = { serviceDate: "2026-11-26" };

describe("console board machine (issue 27)", () => {
  const paths = transitionCoverPaths(consoleBoardMachine, {
    input: INPUT,
    events: possibleEvents(EVENTS),
    // The board's shape, not its every detail: which day, whether it shows orders, a failure, a pending reload.
    serializeState: (s) => JSON.stringify([s.value, s.context.serviceDate, s.context.orders.length > 0, s.context.failure?.kind ?? null, s.context.stale]),
  });

  it.each(paths.map((path) => [pathName(path), path] as const))("replays %s", async (_name, path) => {
    const { snapshot, calls } = await replayPath(consoleBoardMachine, ACTORS, INPUT, path);
    expect(snapshot.value).toEqual(path.state.value);
    expect(snapshot.context).toEqual(path.state.context);
    // Every load asks for the day the board shows.
    const days = calls.filter((c) => c.actor === "loadBoard").map((c) => (c.input as { serviceDate: string }).serviceDate);
    for (const day of days) expect(["2026-11-26", "2026-11-27"]).toContain(day);
  });

  it("covers every state and transition", () => expectFullCoverage(consoleBoardMachine, paths, { input: INPUT }));

  it("loads again after a live event, and once more when the event came during a load", () => {
    const refreshed = paths.find((p) => p.steps.some((s) => s.state.matches({ data: "refreshing" })) && p.state.matches({ data: "ready" }));
    expect(refreshed).toBeDefined();
    const staleDuringLoad = paths.find((p) => p.steps.some((s) => s.state.matches({ data: "loading" }) && s.state.context.stale));
    expect(staleDuringLoad).toBeDefined();
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
