import { afterEach, describe, expect, it, vi } from "vitest";
import { createActor, createMachine, setup, waitFor } from "xstate";

/**
 * Issue 29 (decision 0040): the offline queue opens the device's store (its
 * chunk, IndexedDB's open) once the courier's day has its answer and the phone
 * is idle, not at the first idle moment while the day's answer is on its way.
 */

const loadQueue = vi.fn(async () => []);
vi.mock("../../src/offline/device-store.ts", () => ({ deviceStore: async () => ({ loadQueue }) }));

const { appOfflineQueueCalls } = await import("../../src/shell/offline-queue-logic.ts");

afterEach(() => {
  loadQueue.mockClear();
  vi.useRealTimers();
});

/** A stand-in day (loading until ANSWERED) and the queue's load, in one actor system as the application runs them. */
function system(withDay: boolean) {
  const day = createMachine({ id: "day", initial: "loading", states: { loading: { on: { ANSWERED: "ready" } }, ready: {} } });
  const app = setup({ actors: { day, loadQueue: appOfflineQueueCalls.loadQueue } }).createMachine({
    initial: "loading",
    invoke: withDay ? [{ src: "day", systemId: "courierDay" }] : [],
    states: { loading: { invoke: { src: "loadQueue", onDone: "loaded" } }, loaded: {} },
  });
  return createActor(app).start();
}

describe("the offline queue's load (appOfflineQueueCalls.loadQueue)", () => {
  it("waits for the day's answer, then for idle, before opening the device's store", async () => {
    vi.useFakeTimers();
    const actor = system(true);
    await vi.advanceTimersByTimeAsync(5_000);
    expect(loadQueue).not.toHaveBeenCalled();

    actor.system.get("courierDay")!.send({ type: "ANSWERED" });
    await vi.advanceTimersByTimeAsync(1_000);
    expect(loadQueue).toHaveBeenCalledOnce();
    expect(actor.getSnapshot().value).toBe("loaded");
  });

  it("waits only for idle when no day runs", async () => {
    const actor = system(false);
    await waitFor(actor, (snapshot) => snapshot.value === "loaded", { timeout: 2_000 });
    expect(loadQueue).toHaveBeenCalledOnce();
  });

  it("does not wait for a day that is already answered", async () => {
    const actor = system(true);
    actor.system.get("courierDay")!.send({ type: "ANSWERED" });
    await waitFor(actor, (snapshot) => snapshot.value === "loaded", { timeout: 2_000 });
    expect(loadQueue).toHaveBeenCalledOnce();
  });
});
