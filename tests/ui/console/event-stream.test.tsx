import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createActor, fromPromise } from "xstate";
import { consoleBoardMachine, type BoardData } from "../../../machines/console-board.machine.ts";
import { consoleBoardActors } from "../../../src/console/api/board.ts";

/** A stand-in for the browser's EventSource: the test opens, messages and fails it. */
class FakeEventSource {
  static readonly CONNECTING = 0;
  static readonly OPEN = 1;
  static readonly CLOSED = 2;
  static opened: FakeEventSource[] = [];
  readyState = FakeEventSource.CONNECTING;
  onopen: (() => void) | null = null;
  onmessage: ((message: { lastEventId: string; data: string }) => void) | null = null;
  onerror: (() => void) | null = null;
  constructor(
    readonly url: string,
    readonly init?: { withCredentials?: boolean },
  ) {
    FakeEventSource.opened.push(this);
  }
  close() {
    this.readyState = FakeEventSource.CLOSED;
  }
  open() {
    this.readyState = FakeEventSource.OPEN;
    this.onopen?.();
  }
  message(id: string) {
    this.onmessage?.({ lastEventId: id, data: "{}" });
  }
  /** The browser reconnects by itself (CONNECTING), or gives up (CLOSED: an error status). */
  fail(readyState: number) {
    this.readyState = readyState;
    this.onerror?.();
  }
}

const EMPTY: BoardData = { orders: [], couriers: [] };

describe("the console's event stream (src/console/api/board.ts)", () => {
  beforeEach(() => {
    FakeEventSource.opened = [];
    vi.stubGlobal("EventSource", FakeEventSource);
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  function startBoard() {
    const loads: string[] = [];
    const board = createActor(
      consoleBoardMachine.provide({
        actors: {
          ...consoleBoardActors,
          loadBoard: fromPromise(async ({ input }: { input: { serviceDate: string } }) => {
            loads.push(input.serviceDate);
            return EMPTY;
          }),
        },
      }),
      { input: { serviceDate: "2026-11-26" } },
    ).start();
    return { board, loads };
  }

  it("opens GET /api/ops/v1/events with the session cookie; Live on open; each message reloads the board", async () => {
    const { board, loads } = startBoard();
    const [source] = FakeEventSource.opened;
    expect(source!.url).toBe("/api/ops/v1/events");
    expect(source!.init).toEqual({ withCredentials: true });
    expect(board.getSnapshot().value.connection).toBe("connecting");
    source!.open();
    expect(board.getSnapshot().value.connection).toBe("live");
    await vi.advanceTimersByTimeAsync(0);
    source!.message("41");
    await vi.advanceTimersByTimeAsync(0);
    expect(loads).toEqual(["2026-11-26", "2026-11-26"]);
    board.stop();
    expect(source!.readyState).toBe(FakeEventSource.CLOSED);
  });

  it("while the browser reconnects by itself says Reconnecting… and opens nothing more", () => {
    const { board } = startBoard();
    FakeEventSource.opened[0]!.open();
    FakeEventSource.opened[0]!.fail(FakeEventSource.CONNECTING);
    expect(board.getSnapshot().value.connection).toBe("reconnecting");
    vi.advanceTimersByTime(60_000);
    expect(FakeEventSource.opened).toHaveLength(1);
    FakeEventSource.opened[0]!.open();
    expect(board.getSnapshot().value.connection).toBe("live");
    board.stop();
  });

  it("when the server ends the stream for good, opens it again with back-off, from the last event seen", () => {
    const { board } = startBoard();
    const first = FakeEventSource.opened[0]!;
    first.open();
    first.message("42");
    first.fail(FakeEventSource.CLOSED);
    expect(board.getSnapshot().value.connection).toBe("reconnecting");
    vi.advanceTimersByTime(999);
    expect(FakeEventSource.opened).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(FakeEventSource.opened[1]!.url).toBe("/api/ops/v1/events?last_event_id=42");
    // Refused again: the next try waits twice as long.
    FakeEventSource.opened[1]!.fail(FakeEventSource.CLOSED);
    vi.advanceTimersByTime(1_999);
    expect(FakeEventSource.opened).toHaveLength(2);
    vi.advanceTimersByTime(1);
    expect(FakeEventSource.opened).toHaveLength(3);
    FakeEventSource.opened[2]!.open();
    expect(board.getSnapshot().value.connection).toBe("live");
    board.stop();
    // Stopped: no retry is left pending.
    FakeEventSource.opened[2]!.fail(FakeEventSource.CLOSED);
    vi.advanceTimersByTime(60_000);
    expect(FakeEventSource.opened).toHaveLength(3);
  });
});
