import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { OfflineStore } from "../../src/offline/offline-store.ts";

/**
 * Issue 29: the device's store starts in slices. Its code's evaluation, the
 * database's first open and what its first callers ask of it were one or two
 * tasks of 60–110 ms on a low-tier phone, just after the first screen.
 */

const made = vi.hoisted(() => ({ stores: 0, opens: [] as (() => void)[] }));

vi.mock("../../src/offline/offline-store.ts", () => ({
  createOfflineStore: (): Partial<OfflineStore> => {
    made.stores++;
    return { open: () => new Promise<void>((resolve) => made.opens.push(resolve)) };
  },
}));

beforeEach(() => {
  vi.useFakeTimers();
  vi.resetModules();
  made.stores = 0;
  made.opens = [];
});

afterEach(() => {
  vi.useRealTimers();
});

/** Everything already queued as microtasks (the module's import included), and no task. */
const microtasks = async () => {
  for (let i = 0; i < 20; i++) await Promise.resolve();
};

describe("deviceStore", () => {
  it("makes the store in a task after its code is in, and hands it over opened, a task after the open", async () => {
    const { deviceStore } = await import("../../src/offline/device-store.ts");
    let handed: OfflineStore | null = null;
    void deviceStore().then((store) => (handed = store));

    // The store's code is in (its import settled, over real tasks), and no task of the page's has run since.
    await vi.dynamicImportSettled();
    await microtasks();
    expect(made.stores).toBe(0);

    await vi.advanceTimersToNextTimerAsync();
    expect(made.stores).toBe(1);
    expect(made.opens).toHaveLength(1);

    await microtasks();
    expect(handed).toBeNull();
    made.opens[0]!();
    await microtasks();
    expect(handed).toBeNull();

    await vi.advanceTimersToNextTimerAsync();
    expect(handed).not.toBeNull();
  });

  it("makes one store for the page, whoever asks and however often", async () => {
    const { deviceStore } = await import("../../src/offline/device-store.ts");
    const first = deviceStore();
    const second = deviceStore();
    await vi.advanceTimersToNextTimerAsync();
    made.opens.forEach((open) => open());
    await vi.advanceTimersToNextTimerAsync();
    expect(await first).toBe(await second);
    expect(made.stores).toBe(1);
  });
});
