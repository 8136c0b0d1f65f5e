import { randomUUID } from "node:crypto";
import { describe, expect, it, vi } from "vitest";
import { createActor, fromPromise, waitFor } from "xstate";
import { ItineraryResponse } from "../../domain/contract/itinerary.ts";
import { hasIncompleteOrders, type StoredOfflineOrder } from "../../domain/offline-queue.ts";
import { offlineQueueMachine, type QueueChange } from "../../machines/offline-queue.machine.ts";
import { newIdempotencyKey, uuidFromRandomBytes } from "../../src/offline/idempotency.ts";
import { createOfflineStore } from "../../src/offline/offline-store.ts";
import { QUEUE_LOCK_NAME, createQueueLock } from "../../src/offline/queue-lock.ts";

const TODAY = "2026-11-21";
const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** A database of its own per test: jsdom's localStorage lives for the whole file. */
const freshStore = () => createOfflineStore({ name: `rx-courier-test-${randomUUID()}` });

function entry(key: string, overrides: Partial<StoredOfflineOrder> = {}): StoredOfflineOrder {
  return {
    kind: "signature",
    id: 1,
    orderIds: [1],
    status: "delivered",
    delivery: { "delivery[order_ids][]": ["1"], "delivery[signature][attachment][file]": "<svg/>" },
    dataToSubmit: null,
    idempotencyKey: key,
    payment: true,
    storedOn: TODAY,
    createdAt: `${TODAY}T10:00:00.000Z`,
    ...overrides,
  };
}

const itinerary = ItineraryResponse.parse({
  courier: { id: 1, first_name: "Dana", last_name: "Whitfield" },
  service_date: TODAY,
  support_phone: "18005550199",
  feature_flags: { self_service_addons_enabled: false },
  pharmacy_visits: [],
  orders: [],
  statuses: [{ id: 1, name: "picked_up" }],
  relationships: [],
  failure_reasons: [],
});

describe("offline store (localforage)", () => {
  it("opens its database ahead of the first call, and answers as before once open", async () => {
    const store = freshStore();
    await store.open();
    expect(await store.loadQueue()).toEqual([]);
    await store.saveDay({ courierId: 1, savedOn: TODAY, itinerary });
    expect(await store.loadDay(1, TODAY)).toEqual(itinerary);
  });

  it("keeps stored offline orders across a reload, oldest first, exactly as stored", async () => {
    const name = `rx-courier-test-${randomUUID()}`;
    const before = createOfflineStore({ name });
    const late = entry("late", { createdAt: `${TODAY}T11:00:00.000Z` });
    const early = entry("early", { kind: "unsubmitted", delivery: null, dataToSubmit: { delivery: { order_ids: [1], failure_reason: "Patient Not Home" } } });
    await before.saveQueue({ put: [late, early], remove: [] });
    const after = createOfflineStore({ name });
    expect(await after.loadQueue()).toEqual([early, late]);
    expect(await after.hasUnsent()).toBe(true);
  });

  it("keeps a delivery's photo of the drop-off inside its stored order across a reload, byte for byte (issue 19)", async () => {
    const name = `rx-courier-test-${randomUUID()}`;
    // ~300 KB of JPEG as base64: the largest photo the phone stores.
    const photo = `data:image/jpeg;base64,/9j/${"A".repeat(400_000)}`;
    const withPhoto = entry("photo", {
      kind: "recipient",
      payment: false,
      delivery: { "delivery[order_ids][]": ["1"], "delivery[relationship_id]": "4", "delivery[photo][attachment][file]": photo },
    });
    await createOfflineStore({ name }).saveQueue({ put: [withPhoto], remove: [] });
    const [loaded] = await createOfflineStore({ name }).loadQueue();
    expect(loaded).toEqual(withPhoto);
    expect(loaded!.delivery!["delivery[photo][attachment][file]"]).toBe(photo);
  });

  it("removes only what a save names: two tabs' entries live side by side", async () => {
    const name = `rx-courier-test-${randomUUID()}`;
    const tabA = createOfflineStore({ name });
    const tabB = createOfflineStore({ name });
    await tabA.saveQueue({ put: [entry("from-a")], remove: [] });
    await tabB.saveQueue({ put: [entry("from-b", { createdAt: `${TODAY}T12:00:00.000Z` })], remove: [] });
    await tabA.saveQueue({ put: [], remove: ["from-a"] });
    expect((await tabB.loadQueue()).map((e) => e.idempotencyKey)).toEqual(["from-b"]);
    await tabB.saveQueue({ put: [], remove: ["from-b"] });
    expect(await tabA.hasUnsent()).toBe(false);
  });

  it("skips a record it cannot read without deleting it", async () => {
    const name = `rx-courier-test-${randomUUID()}`;
    const store = createOfflineStore({ name });
    const warn = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    await store.saveQueue({ put: [entry("good"), { ...entry("bad"), storedOn: "yesterday" } as StoredOfflineOrder], remove: [] });
    expect((await store.loadQueue()).map((e) => e.idempotencyKey)).toEqual(["good"]);
    expect(warn).toHaveBeenCalledOnce();
    warn.mockRestore();
    await store.saveQueue({ put: [], remove: ["good"] });
    expect(await store.hasUnsent()).toBe(true);
  });

  it("shows the saved day only to the same courier on the same date, and forgets it otherwise", async () => {
    const store = freshStore();
    await store.saveDay({ courierId: 1, savedOn: TODAY, itinerary });
    expect(await store.loadDay(1, TODAY)).toEqual(itinerary);
    expect(await store.loadDay(2, TODAY)).toBeNull();
    // The other courier's look removed it: patient data does not outlive its owner's session here.
    expect(await store.loadDay(1, TODAY)).toBeNull();

    await store.saveDay({ courierId: 1, savedOn: TODAY, itinerary });
    expect(await store.loadDay(1, "2026-11-22")).toBeNull();
    expect(await store.loadDay(1, TODAY)).toBeNull();
  });

  it("clearDay keeps the queue; clearAll (logout) leaves no patient data on the device", async () => {
    const store = freshStore();
    await store.saveDay({ courierId: 1, savedOn: TODAY, itinerary });
    await store.saveQueue({ put: [entry("unsent")], remove: [] });
    await store.clearDay();
    expect(await store.loadDay(1, TODAY)).toBeNull();
    expect(await store.hasUnsent()).toBe(true);
    await store.saveDay({ courierId: 1, savedOn: TODAY, itinerary });
    await store.clearAll();
    expect(await store.hasUnsent()).toBe(false);
    expect(await store.loadDay(1, TODAY)).toBeNull();
  });
});

describe("queue lock", () => {
  const deferred = () => {
    let resolve!: () => void;
    const promise = new Promise<void>((r) => (resolve = r));
    return { promise, resolve };
  };

  it("without the Web Locks API, runs one holder at a time in call order, even after a failure", async () => {
    const lock = createQueueLock(undefined);
    const log: string[] = [];
    const gate = deferred();
    const first = lock(async () => {
      log.push("first:start");
      await gate.promise;
      log.push("first:end");
      throw new Error("offline");
    });
    const second = lock(async () => {
      log.push("second");
      return 2;
    });
    await Promise.resolve();
    expect(log).toEqual(["first:start"]);
    gate.resolve();
    await expect(first).rejects.toThrow("offline");
    expect(await second).toBe(2);
    expect(log).toEqual(["first:start", "first:end", "second"]);
  });

  it("gives up waiting when its signal aborts", async () => {
    const lock = createQueueLock(undefined);
    const gate = deferred();
    const holder = lock(() => gate.promise);
    const controller = new AbortController();
    const run = vi.fn(async () => "sent");
    const waiting = lock(run, { signal: controller.signal });
    controller.abort();
    gate.resolve();
    await holder;
    await expect(waiting).rejects.toMatchObject({ name: "AbortError" });
    expect(run).not.toHaveBeenCalled();
  });

  it("asks navigator.locks for the exclusive 'rxc-offline-queue' lock when the browser has it", async () => {
    const request = vi.fn(async (_name: string, _options: LockOptions, callback: (lock: Lock | null) => Promise<unknown>) => callback(null));
    const lock = createQueueLock({ request } as unknown as LockManager);
    expect(await lock(async () => "done")).toBe("done");
    expect(request).toHaveBeenCalledWith(QUEUE_LOCK_NAME, { mode: "exclusive" }, expect.any(Function));
  });

  it("the app's lock reaches the browser's lock manager on its first use, not when the app loads (issue 29)", async () => {
    const request = vi.fn(async (_name: string, _options: LockOptions, callback: (lock: Lock | null) => Promise<unknown>) => callback(null));
    const locksRead = vi.fn(() => ({ request }) as unknown as LockManager);
    const original = Object.getOwnPropertyDescriptor(navigator, "locks");
    Object.defineProperty(navigator, "locks", { configurable: true, get: locksRead });
    try {
      vi.resetModules();
      const { withQueueLock } = await import("../../src/offline/queue-lock.ts");
      expect(locksRead).not.toHaveBeenCalled();
      expect(await withQueueLock(async () => "sent")).toBe("sent");
      expect(await withQueueLock(async () => "sent again")).toBe("sent again");
      expect(locksRead).toHaveBeenCalledTimes(1);
      expect(request).toHaveBeenCalledTimes(2);
    } finally {
      if (original) Object.defineProperty(navigator, "locks", original);
      else Reflect.deleteProperty(navigator, "locks");
    }
  });
});

describe("idempotency keys", () => {
  it("makes a new version 4 UUID for every courier action", () => {
    const keys = new Set(Array.from({ length: 50 }, () => newIdempotencyKey()));
    expect(keys.size).toBe(50);
    for (const key of keys) expect(key).toMatch(UUID_V4);
  });

  it("still makes keys where randomUUID is missing (plain http on the LAN)", () => {
    const original = crypto.randomUUID;
    Object.defineProperty(crypto, "randomUUID", { value: undefined, configurable: true });
    try {
      const key = newIdempotencyKey();
      expect(key).toMatch(UUID_V4);
      expect(newIdempotencyKey()).not.toBe(key);
    } finally {
      Object.defineProperty(crypto, "randomUUID", { value: original, configurable: true });
    }
    expect(uuidFromRandomBytes(new Uint8Array(16).fill(255))).toBe("ffffffff-ffff-4fff-bfff-ffffffffffff");
    expect(() => uuidFromRandomBytes(new Uint8Array(15))).toThrow();
  });
});

describe("two tabs draining one device's queue", () => {
  it("sends each stored order once at a time, and the server records each once", async () => {
    const name = `rx-courier-test-${randomUUID()}`;
    const lock = createQueueLock(undefined); // one lock for both tabs, as navigator.locks is per origin
    const deliveries: string[] = [];
    let inFlight = 0;
    let maxInFlight = 0;
    // A server that records a key's first arrival only and replays later ones, like server/http/idempotency.ts.
    const send = async (stored: StoredOfflineOrder) => {
      inFlight += 1;
      maxInFlight = Math.max(maxInFlight, inFlight);
      await new Promise((resolve) => setTimeout(resolve, 5));
      if (!deliveries.includes(stored.idempotencyKey)) deliveries.push(stored.idempotencyKey);
      inFlight -= 1;
    };

    const first = createOfflineStore({ name });
    const keys = [newIdempotencyKey(), newIdempotencyKey(), newIdempotencyKey()];
    await first.saveQueue({
      put: keys.map((key, i) => entry(key, { id: i + 1, orderIds: [i + 1], createdAt: `${TODAY}T1${i}:00:00.000Z` })),
      remove: [],
    });

    const tab = () => {
      const store = createOfflineStore({ name });
      const actor = createActor(
        offlineQueueMachine.provide({
          actors: {
            loadQueue: fromPromise(() => store.loadQueue()),
            saveQueue: fromPromise<void, QueueChange>(({ input }) => store.saveQueue(input)),
            resubmit: fromPromise<unknown, StoredOfflineOrder>(({ input, signal }) => lock(() => send(input), { signal })),
          },
        }),
        { input: { today: TODAY } },
      ).start();
      actor.send({ type: "SESSION_OPENED" }); // a courier logged in on each tab
      return actor;
    };
    const tabA = tab();
    const tabB = tab();
    await waitFor(tabA, (s) => s.matches({ storage: "saved" }) && hasIncompleteOrders(s.context));
    await waitFor(tabB, (s) => s.matches({ storage: "saved" }) && hasIncompleteOrders(s.context));

    tabA.send({ type: "ONLINE", today: TODAY });
    tabB.send({ type: "ONLINE", today: TODAY });
    for (const actor of [tabA, tabB]) {
      await waitFor(actor, (s) => s.matches({ drain: { waiting: "idle" }, storage: "saved" }) && !hasIncompleteOrders(s.context), { timeout: 5_000 });
    }
    expect(maxInFlight).toBe(1);
    expect(deliveries).toEqual(keys);
    expect(await first.hasUnsent()).toBe(false);
    tabA.stop();
    tabB.stop();
  });
});
