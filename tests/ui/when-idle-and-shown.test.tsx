import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { whenIdleAndShown } from "../../src/ui/when-idle.ts";

/**
 * Issue 29: the device's store opens once the first screen is idle and its
 * frame is on the screen, not in the vsync between the paint and its showing
 * (Lighthouse's traces had the store's chunk requested there in 7 of 12 loads).
 */

let idle: (() => void)[];
let frames: FrameRequestCallback[];

beforeEach(() => {
  vi.useFakeTimers();
  idle = [];
  frames = [];
  vi.stubGlobal("requestIdleCallback", (task: () => void) => idle.push(task));
  vi.stubGlobal("cancelIdleCallback", (id: number) => (idle[id - 1] = () => {}));
  // As the browser's: called on any other object than the page's, they throw.
  vi.stubGlobal("requestAnimationFrame", function (this: unknown, callback: FrameRequestCallback) {
    onThePage(this);
    return frames.push(callback);
  });
  vi.stubGlobal("cancelAnimationFrame", function (this: unknown, id: number) {
    onThePage(this);
    frames[id - 1] = () => {};
  });
});

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

function onThePage(self: unknown): void {
  if (self !== undefined && self !== globalThis && self !== window) throw new TypeError("Illegal invocation");
}

const runIdle = () => idle.splice(0).forEach((task) => task());
/** One vsync: the callbacks asked for before it run; those they ask for wait for the next. */
const nextFrame = () => {
  const due = frames.slice();
  frames.fill(() => {});
  due.forEach((callback) => callback(0));
};

/** The page goes idle, two frames are shown, and the task queued after them runs. */
const idleThenShown = () => {
  runIdle();
  nextFrame();
  nextFrame();
  vi.advanceTimersByTime(0);
};

describe("whenIdleAndShown", () => {
  it("waits for idle, then for two frames, then runs out of the frame's callbacks", () => {
    const task = vi.fn();
    whenIdleAndShown(task);
    vi.advanceTimersByTime(0);
    nextFrame();
    expect(task).not.toHaveBeenCalled();

    runIdle();
    nextFrame();
    vi.advanceTimersByTime(0);
    expect(task).not.toHaveBeenCalled();

    nextFrame();
    expect(task).not.toHaveBeenCalled();
    vi.advanceTimersByTime(0);
    expect(task).toHaveBeenCalledTimes(1);

    vi.advanceTimersByTime(1_000);
    expect(task).toHaveBeenCalledTimes(1);
  });

  it("runs anyway where no frame comes (a page in the background)", () => {
    const task = vi.fn();
    whenIdleAndShown(task, { frameTimeoutMs: 250 });
    runIdle();
    vi.advanceTimersByTime(249);
    expect(task).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(task).toHaveBeenCalledTimes(1);

    nextFrame();
    nextFrame();
    vi.advanceTimersByTime(1_000);
    expect(task).toHaveBeenCalledTimes(1);
  });

  it("runs on its time-out, throwing nothing, when the page's globals went before it (a test's page taken down)", () => {
    const task = vi.fn();
    whenIdleAndShown(task, { frameTimeoutMs: 250 });
    runIdle();
    // What a test environment's teardown does to the page's globals while a timer of the app's is still set.
    vi.stubGlobal("requestAnimationFrame", undefined);
    vi.stubGlobal("cancelAnimationFrame", undefined);
    expect(() => vi.advanceTimersByTime(250)).not.toThrow();
    expect(task).toHaveBeenCalledTimes(1);
  });

  it("never runs once cancelled, whatever it was waiting for", () => {
    const beforeIdle = vi.fn();
    whenIdleAndShown(beforeIdle)();
    const betweenFrames = vi.fn();
    const cancel = whenIdleAndShown(betweenFrames);
    runIdle();
    nextFrame();
    cancel();
    nextFrame();
    vi.advanceTimersByTime(1_000);
    expect(beforeIdle).not.toHaveBeenCalled();
    expect(betweenFrames).not.toHaveBeenCalled();
  });

  it("falls back to a timer where the browser has no requestIdleCallback", () => {
    vi.stubGlobal("requestIdleCallback", undefined);
    const task = vi.fn();
    whenIdleAndShown(task, { fallbackMs: 200 });
    vi.advanceTimersByTime(199);
    expect(frames).toHaveLength(0);
    vi.advanceTimersByTime(1);
    nextFrame();
    nextFrame();
    vi.advanceTimersByTime(0);
    expect(task).toHaveBeenCalledTimes(1);
  });

  it("waits once for tasks asked for before the page was idle: one idle callback, one pair of frames, each task once, in order", () => {
    const ran: string[] = [];
    const frameRequests = vi.spyOn(globalThis, "requestAnimationFrame");
    whenIdleAndShown(() => ran.push("offline store"));
    whenIdleAndShown(() => ran.push("HTTP client"));
    whenIdleAndShown(() => ran.push("date mask"));
    expect(idle).toHaveLength(1);

    idleThenShown();
    expect(ran).toEqual(["offline store", "HTTP client", "date mask"]);
    expect(frameRequests).toHaveBeenCalledTimes(2);

    vi.advanceTimersByTime(1_000);
    nextFrame();
    expect(ran).toHaveLength(3);
  });

  it("makes a task asked for after that idle moment wait for an idle moment of its own", () => {
    const first = vi.fn();
    const later = vi.fn();
    whenIdleAndShown(first);
    runIdle();
    whenIdleAndShown(later);
    expect(idle).toHaveLength(1);
    nextFrame();
    nextFrame();
    vi.advanceTimersByTime(0);
    expect(first).toHaveBeenCalledTimes(1);
    expect(later).not.toHaveBeenCalled();

    idleThenShown();
    expect(later).toHaveBeenCalledTimes(1);
  });

  it("keeps the others when one is cancelled, the same function asked twice running twice; asks nothing more once all are", () => {
    const kept = vi.fn();
    const cancelled = vi.fn();
    whenIdleAndShown(kept);
    whenIdleAndShown(kept);
    const cancel = whenIdleAndShown(cancelled);
    cancel();
    idleThenShown();
    expect(kept).toHaveBeenCalledTimes(2);
    expect(cancelled).not.toHaveBeenCalled();

    const cancels = [whenIdleAndShown(vi.fn()), whenIdleAndShown(vi.fn())];
    cancels.forEach((each) => each());
    runIdle();
    expect(frames.length).toBe(2);
  });

  it("runs the others when one throws, and still reports what it threw", () => {
    const reported: unknown[] = [];
    vi.stubGlobal("queueMicrotask", (callback: () => void) => {
      try {
        callback();
      } catch (error) {
        reported.push(error);
      }
    });
    const after = vi.fn();
    whenIdleAndShown(() => {
      throw new Error("the store's chunk failed to load");
    });
    whenIdleAndShown(after);
    idleThenShown();
    expect(after).toHaveBeenCalledTimes(1);
    expect(reported).toEqual([new Error("the store's chunk failed to load")]);
  });
});
