import { describe, expect, it } from "vitest";
import { createActor, fromCallback, fromPromise, type EventObject, type SnapshotFrom } from "xstate";
import type { ApiFailure } from "../../../domain/api-failure.ts";
import { TEXT } from "../../../domain/texts.ts";
import { hasIncompleteOrders, isIncomplete, type StoredOfflineOrder } from "../../../domain/offline-queue.ts";
import { offlineQueueMachine, type OfflineQueueEvent, type QueueChange } from "../../../machines/offline-queue.machine.ts";
import { isResubmitting, mustReload, queueMessage } from "../../../src/app/queue-messages.ts";
import { expectFullCoverage, transitionCoverPaths } from "../../support/model-coverage.ts";

const TODAY = "2026-11-21";
const YESTERDAY = "2026-11-20";

function entry(key: string, overrides: Partial<StoredOfflineOrder> = {}): StoredOfflineOrder {
  const id = overrides.id ?? 1;
  return {
    kind: "signature",
    id,
    orderIds: [id],
    status: "delivered",
    delivery: { "delivery[order_ids][]": [String(id)], "delivery[signed_by]": "Ann Lee" },
    dataToSubmit: null,
    idempotencyKey: key,
    payment: false,
    storedOn: TODAY,
    createdAt: `${TODAY}T10:00:00.000Z`,
    ...overrides,
  };
}

const failure = (kind: ApiFailure["kind"], status: number | null): ApiFailure => ({ kind, status, message: kind, code: null });

/* ---------- The model ---------- */

const A = entry("a", { id: 1, createdAt: `${TODAY}T10:00:00.000Z` });
const STORED = entry("s", { id: 3, createdAt: `${TODAY}T09:00:00.000Z` });
const EXPIRED = entry("x", { id: 4, storedOn: YESTERDAY, createdAt: `${YESTERDAY}T18:00:00.000Z` });

type Snapshot = SnapshotFrom<typeof offlineQueueMachine>;
type ModelEvent = OfflineQueueEvent | { type: `xstate.${"done" | "error"}.actor.${string}`; output?: unknown; error?: unknown };

/** PERSIST is raised by the machine after each change; sending it too lets the model take it after a failed save. */
const COURIER_EVENTS: ModelEvent[] = [
  { type: "SESSION_OPENED" },
  { type: "ENQUEUE", entry: A },
  { type: "PERSIST" },
  { type: "TRY_AGAIN", today: TODAY },
  { type: "ONLINE", today: TODAY },
  { type: "LOAD", today: TODAY },
  { type: "DISMISS" },
  { type: "CLEAR" },
];

/** A flow that follows the queue (returns): it hears QUEUE_CHANGED. */
const FOLLOWER = createActor(fromCallback(() => undefined)).start();

/** Settling events only where that actor runs: the live replay has exactly those calls pending. */
function modelEvents(snapshot: Snapshot): ModelEvent[] {
  const events = [...COURIER_EVENTS];
  // Following changes no state the queue acts on (serializeState leaves it out): taken once, from the start.
  if (snapshot.matches({ storage: "closed", drain: { waiting: "idle" } }) && snapshot.context.entries.length === 0) {
    events.push({ type: "FOLLOW", follower: FOLLOWER }, { type: "UNFOLLOW", follower: FOLLOWER });
  }
  if (snapshot.matches({ storage: "loading" })) {
    events.push({ type: "xstate.done.actor.loadQueue", output: [STORED, EXPIRED] }, { type: "xstate.error.actor.loadQueue", error: new Error("storage unavailable") });
  }
  if (snapshot.matches({ storage: "saving" })) {
    events.push({ type: "xstate.done.actor.saveQueue", output: undefined }, { type: "xstate.error.actor.saveQueue", error: new Error("quota exceeded") });
  }
  if (snapshot.matches({ drain: "sending" })) {
    events.push(
      { type: "xstate.done.actor.resubmit", output: { ok: true } },
      { type: "xstate.error.actor.resubmit", error: failure("forbidden", 403) },
      { type: "xstate.error.actor.resubmit", error: failure("network", null) },
      { type: "xstate.error.actor.resubmit", error: failure("refused", 409) },
    );
  }
  return events;
}

/** Everything that decides a later transition; lastFailure and storageError only decide words. */
function serializeState(snapshot: Snapshot): string {
  const { entries, unsavedKeys, removedKeys, savingPuts, savingRemovals, sendingKey, failedKeys } = snapshot.context;
  return JSON.stringify([
    snapshot.value,
    entries.map((e) => e.idempotencyKey),
    [...unsavedKeys].sort(),
    [...removedKeys].sort(),
    [...savingPuts].sort(),
    [...savingRemovals].sort(),
    sendingKey,
    [...failedKeys].sort(),
  ]);
}

const input = { today: TODAY };
const paths = transitionCoverPaths(offlineQueueMachine, {
  events: (snapshot) => modelEvents(snapshot as Snapshot),
  input,
  serializeState: (snapshot) => serializeState(snapshot as Snapshot),
});

/* ---------- Replaying on a live actor ---------- */

interface Pending {
  resolve(value: unknown): void;
  reject(error: unknown): void;
}

const flush = () => new Promise((resolve) => setImmediate(resolve));
const SETTLE = /^xstate\.(done|error)\.actor\.(\w+)$/;

async function replay(steps: readonly { event: EventObject }[]) {
  const pending = new Map<string, Pending>();
  const calls: { actor: string; input: unknown }[] = [];
  // Calls neither settled nor abandoned (a stopped invocation aborts its signal), per actor.
  const open = new Map<string, number>();
  const maxOpen = new Map<string, number>();
  /** A stand-in for one of the machine's actors, typed as that actor (its input and output): the test settles it. */
  const deferred = <TOutput, TInput>(name: string) =>
    fromPromise<TOutput, TInput>(({ input: callInput, signal }) => {
      calls.push({ actor: name, input: callInput });
      open.set(name, (open.get(name) ?? 0) + 1);
      maxOpen.set(name, Math.max(maxOpen.get(name) ?? 0, open.get(name)!));
      const close = () => open.set(name, open.get(name)! - 1);
      signal.addEventListener("abort", close, { once: true });
      return new Promise<TOutput>((resolve, reject) => {
        const settle = () => signal.removeEventListener("abort", close);
        pending.set(name, {
          // The value is the model's xstate.done.actor.<name> output, which modelEvents gives as this actor's output.
          resolve: (value) => (settle(), close(), resolve(value as TOutput)),
          reject: (error) => (settle(), close(), reject(error)),
        });
      });
    });
  const actor = createActor(
    offlineQueueMachine.provide({
      actors: {
        loadQueue: deferred<StoredOfflineOrder[], unknown>("loadQueue"),
        saveQueue: deferred<void, QueueChange>("saveQueue"),
        resubmit: deferred<unknown, StoredOfflineOrder>("resubmit"),
      },
    }),
    { input },
  ).start();
  await flush();
  for (const { event } of steps.slice(1)) {
    const settle = SETTLE.exec(event.type);
    if (settle) {
      const call = pending.get(settle[2]!);
      if (!call) throw new Error(`no ${settle[2]} call is running for ${event.type}`);
      pending.delete(settle[2]!);
      if (settle[1] === "done") call.resolve((event as { output?: unknown }).output);
      else call.reject((event as { error?: unknown }).error);
    } else {
      actor.send(event as OfflineQueueEvent);
    }
    await flush();
  }
  const snapshot = actor.getSnapshot();
  actor.stop();
  return { snapshot, calls, maxOpen };
}

/** A step's name; the paths' events are the model's (modelEvents). */
const stepName = (step: EventObject) => {
  const event = step as ModelEvent;
  if (event.type === "ENQUEUE") return `ENQUEUE(${event.entry.idempotencyKey})`;
  const error = (event as { error?: unknown }).error as Partial<ApiFailure> | undefined;
  return error?.kind ? `${event.type}(${error.kind})` : event.type;
};

describe("offline queue machine: model paths", () => {
  it("has a bounded model", () => {
    expect(paths.length).toBeGreaterThan(50);
    expect(paths.length).toBeLessThan(10_000);
  });

  // A few seconds on an idle core: thousands of paths, each stepped through microstep by microstep.
  it("covers every state and transition", () => {
    expectFullCoverage(offlineQueueMachine, paths, { input });
  }, 60_000);

  it("replays every path on a live actor: same state, one resubmission at a time, nothing expired sent", async () => {
    for (const path of paths) {
      const { snapshot, calls, maxOpen } = await replay(path.steps);
      const name = path.steps.slice(1).map((step) => stepName(step.event)).join(" → ");
      expect(snapshot.value, name).toEqual(path.state.value);
      expect(serializeState(snapshot), name).toBe(serializeState(path.state));
      expect(maxOpen.get("resubmit") ?? 0, name).toBeLessThanOrEqual(1);
      for (const call of calls.filter((c) => c.actor === "resubmit")) {
        expect((call.input as StoredOfflineOrder).storedOn, name).toBe(TODAY);
      }
    }
  }, 120_000);
});

/* ---------- Scenarios in the spec's words ---------- */

interface Harness {
  /** How many times the device's storage was read. */
  loads: number;
  sent: string[];
  saves: QueueChange[];
  maxInFlight: number;
}

function startQueue(options: {
  stored?: StoredOfflineOrder[];
  loadFails?: boolean;
  /** Per idempotency key, the outcomes of successive attempts (default: success). */
  outcomes?: Record<string, (ApiFailure | "ok")[]>;
  today?: string;
  /** Whether a courier's session opens as the queue starts (the application tells it); default yes. */
  sessionOpen?: boolean;
}) {
  const harness: Harness = { sent: [], saves: [], maxInFlight: 0, loads: 0 };
  let inFlight = 0;
  const actor = createActor(
    offlineQueueMachine.provide({
      actors: {
        loadQueue: fromPromise(async () => {
          harness.loads += 1;
          if (options.loadFails) throw new Error("storage unavailable");
          return options.stored ?? [];
        }),
        saveQueue: fromPromise<void, QueueChange>(async ({ input: change }) => {
          harness.saves.push(change);
        }),
        resubmit: fromPromise<unknown, StoredOfflineOrder>(async ({ input: stored }) => {
          inFlight += 1;
          harness.maxInFlight = Math.max(harness.maxInFlight, inFlight);
          harness.sent.push(stored.idempotencyKey);
          await flush();
          inFlight -= 1;
          const outcome = options.outcomes?.[stored.idempotencyKey]?.shift() ?? "ok";
          if (outcome !== "ok") throw outcome;
          return { ok: true };
        }),
      },
    }),
    { input: { today: options.today ?? TODAY } },
  ).start();
  if (options.sessionOpen ?? true) actor.send({ type: "SESSION_OPENED" });
  const settle = async () => {
    for (let i = 0; i < 30; i++) await flush();
  };
  return { actor, harness, settle };
}

const keys = (snapshot: Snapshot) => snapshot.context.entries.map((e) => e.idempotencyKey);

describe("offline queue machine: behaviour", () => {
  it("reads the device's storage only once a courier's session is open, and once", async () => {
    const { actor, harness, settle } = startQueue({ stored: [entry("on-disk", { createdAt: `${TODAY}T07:00:00.000Z` })], sessionOpen: false });
    await settle();
    // The login screen: nothing loaded, nothing read, nothing saved.
    expect(harness.loads).toBe(0);
    expect(actor.getSnapshot().matches({ storage: "closed" })).toBe(true);
    actor.send({ type: "LOAD", today: TODAY });
    actor.send({ type: "ONLINE", today: TODAY });
    await settle();
    expect(harness.loads).toBe(0);
    expect(harness.sent).toEqual([]);

    actor.send({ type: "SESSION_OPENED" });
    await settle();
    expect(harness.loads).toBe(1);
    expect(keys(actor.getSnapshot())).toEqual(["on-disk"]);
    // Logged out and in again: the queue already holds what the device has.
    actor.send({ type: "SESSION_OPENED" });
    await settle();
    expect(harness.loads).toBe(1);
  });

  it("keeps an order enqueued before storage is read, and saves it once the session opens", async () => {
    const { actor, harness, settle } = startQueue({ stored: [entry("on-disk", { createdAt: `${TODAY}T07:00:00.000Z` })], sessionOpen: false });
    actor.send({ type: "ENQUEUE", entry: entry("early", { id: 9 }) });
    await settle();
    expect(harness.saves).toEqual([]);
    expect(hasIncompleteOrders(actor.getSnapshot().context)).toBe(true);
    actor.send({ type: "SESSION_OPENED" });
    await settle();
    expect(keys(actor.getSnapshot())).toEqual(["on-disk", "early"]);
    expect(harness.saves).toEqual([{ put: [entry("early", { id: 9 })], remove: [] }]);
    actor.send({ type: "TRY_AGAIN", today: TODAY });
    await settle();
    expect(harness.sent).toEqual(["on-disk", "early"]);
  });

  it("drains in the order the courier acted, one at a time, and saves each removal", async () => {
    const stored = [entry("third", { id: 3, createdAt: `${TODAY}T12:00:00.000Z` }), entry("first", { id: 1, createdAt: `${TODAY}T08:00:00.000Z` })];
    const { actor, harness, settle } = startQueue({ stored });
    await settle();
    actor.send({ type: "ENQUEUE", entry: entry("second", { id: 2, createdAt: `${TODAY}T09:00:00.000Z` }) });
    await settle();
    expect(keys(actor.getSnapshot())).toEqual(["first", "second", "third"]);
    expect(hasIncompleteOrders(actor.getSnapshot().context)).toBe(true);

    actor.send({ type: "TRY_AGAIN", today: TODAY });
    await settle();
    expect(harness.sent).toEqual(["first", "second", "third"]);
    expect(harness.maxInFlight).toBe(1);
    expect(actor.getSnapshot().value).toEqual({ storage: "saved", drain: { waiting: "idle" } });
    expect(hasIncompleteOrders(actor.getSnapshot().context)).toBe(false);
    expect(harness.saves.flatMap((save) => save.remove).sort()).toEqual(["first", "second", "third"]);
    expect(harness.saves.flatMap((save) => save.put.map((e) => e.idempotencyKey))).toEqual(["second"]);
  });

  it("sends one copy when 'Try again' and the online event come together", async () => {
    const { actor, harness, settle } = startQueue({ stored: [entry("one")] });
    await settle();
    actor.send({ type: "TRY_AGAIN", today: TODAY });
    actor.send({ type: "ONLINE", today: TODAY });
    actor.send({ type: "TRY_AGAIN", today: TODAY });
    await settle();
    expect(harness.sent).toEqual(["one"]);
  });

  it("takes an order stored while resubmitting after the ones before it", async () => {
    const { actor, harness, settle } = startQueue({ stored: [entry("one", { createdAt: `${TODAY}T08:00:00.000Z` })] });
    await settle();
    actor.send({ type: "TRY_AGAIN", today: TODAY });
    expect(isResubmitting(actor.getSnapshot())).toBe(true);
    actor.send({ type: "ENQUEUE", entry: entry("two", { id: 2, createdAt: `${TODAY}T08:30:00.000Z` }) });
    await settle();
    expect(harness.sent).toEqual(["one", "two"]);
    expect(keys(actor.getSnapshot())).toEqual([]);
  });

  it("still offline: stops at the first failure, keeps everything and shows the notice; coming online drains", async () => {
    const { actor, harness, settle } = startQueue({
      stored: [entry("one", { id: 1 }), entry("two", { id: 2, createdAt: `${TODAY}T11:00:00.000Z` })],
      outcomes: { one: [failure("network", null)] },
    });
    await settle();
    actor.send({ type: "TRY_AGAIN", today: TODAY });
    await settle();
    expect(harness.sent).toEqual(["one"]);
    expect(actor.getSnapshot().matches({ drain: { waiting: "offline" } })).toBe(true);
    expect(queueMessage(actor.getSnapshot())).toEqual({ tone: "notice", text: TEXT.gatewayUnreachable });
    expect(keys(actor.getSnapshot())).toEqual(["one", "two"]);

    actor.send({ type: "ONLINE", today: TODAY });
    await settle();
    expect(harness.sent).toEqual(["one", "one", "two"]);
    expect(queueMessage(actor.getSnapshot())).toBeNull();
    expect(hasIncompleteOrders(actor.getSnapshot().context)).toBe(false);
  });

  it("treats a 503 like no internet", async () => {
    const { actor, settle } = startQueue({ stored: [entry("one")], outcomes: { one: [failure("unavailable", 503)] } });
    await settle();
    actor.send({ type: "TRY_AGAIN", today: TODAY });
    await settle();
    expect(actor.getSnapshot().matches({ drain: { waiting: "offline" } })).toBe(true);
  });

  it("any 403: asks for a reload once storage is saved, keeping the entry", async () => {
    const { actor, harness, settle } = startQueue({
      stored: [entry("one", { id: 1 }), entry("two", { id: 2, createdAt: `${TODAY}T11:00:00.000Z` })],
      outcomes: { one: [failure("forbidden", 403)] },
    });
    await settle();
    actor.send({ type: "ENQUEUE", entry: entry("three", { id: 3, createdAt: `${TODAY}T12:00:00.000Z` }) });
    actor.send({ type: "TRY_AGAIN", today: TODAY });
    await settle();
    expect(harness.sent).toEqual(["one"]);
    expect(actor.getSnapshot().matches({ drain: "reloadRequired" })).toBe(true);
    expect(mustReload(actor.getSnapshot())).toBe(true);
    expect(keys(actor.getSnapshot())).toEqual(["one", "two", "three"]);
    expect(harness.saves.flatMap((save) => save.put.map((e) => e.idempotencyKey))).toContain("three");
  });

  it("a 401 (session ended) reloads too, to reach the login screen with the queue intact", async () => {
    const { actor, settle } = startQueue({ stored: [entry("one")], outcomes: { one: [failure("unauthenticated", 401)] } });
    await settle();
    actor.send({ type: "TRY_AGAIN", today: TODAY });
    await settle();
    expect(mustReload(actor.getSnapshot())).toBe(true);
  });

  it("another failure: keeps the entry, skips that order's later entries, sends other orders, then reports", async () => {
    const { actor, harness, settle } = startQueue({
      stored: [
        entry("recipient-1", { id: 1, kind: "recipient", createdAt: `${TODAY}T08:00:00.000Z` }),
        entry("signature-1", { id: 1, kind: "signature", createdAt: `${TODAY}T08:01:00.000Z` }),
        entry("failed-2", { id: 2, kind: "unsubmitted", createdAt: `${TODAY}T08:02:00.000Z` }),
      ],
      outcomes: { "recipient-1": [failure("refused", 409)] },
    });
    await settle();
    actor.send({ type: "TRY_AGAIN", today: TODAY });
    await settle();
    expect(harness.sent).toEqual(["recipient-1", "failed-2"]);
    expect(keys(actor.getSnapshot())).toEqual(["recipient-1", "signature-1"]);
    expect(queueMessage(actor.getSnapshot())).toEqual({ tone: "error", text: TEXT.resubmitError });
    expect(actor.getSnapshot().context.lastFailure).toMatchObject({ kind: "refused", status: 409 });

    actor.send({ type: "TRY_AGAIN", today: TODAY });
    await settle();
    expect(harness.sent).toEqual(["recipient-1", "failed-2", "recipient-1", "signature-1"]);
    expect(hasIncompleteOrders(actor.getSnapshot().context)).toBe(false);
  });

  it("skips grouped orders behind a refused entry that covers one of them", async () => {
    const { actor, harness, settle } = startQueue({
      stored: [
        entry("group", { id: 5, orderIds: [5, 6], createdAt: `${TODAY}T08:00:00.000Z` }),
        entry("six", { id: 6, createdAt: `${TODAY}T08:01:00.000Z` }),
      ],
      outcomes: { group: [failure("server", 500)] },
    });
    await settle();
    actor.send({ type: "TRY_AGAIN", today: TODAY });
    await settle();
    expect(harness.sent).toEqual(["group"]);
    expect(actor.getSnapshot().matches({ drain: { waiting: "refused" } })).toBe(true);
    actor.send({ type: "DISMISS" });
    expect(queueMessage(actor.getSnapshot())).toBeNull();
    expect(hasIncompleteOrders(actor.getSnapshot().context)).toBe(true);
  });

  it("clears entries stored on an earlier day when loading, and saves their removal", async () => {
    const { actor, harness, settle } = startQueue({
      stored: [entry("old", { storedOn: YESTERDAY, createdAt: `${YESTERDAY}T20:00:00.000Z` }), entry("new", { id: 2 })],
    });
    await settle();
    expect(keys(actor.getSnapshot())).toEqual(["new"]);
    expect(harness.saves).toEqual([{ put: [], remove: ["old"] }]);
  });

  it("clears at day end: a Try again on the next day sends nothing from yesterday", async () => {
    const { actor, harness, settle } = startQueue({ stored: [entry("late")] });
    await settle();
    actor.send({ type: "TRY_AGAIN", today: "2026-11-22" });
    await settle();
    expect(harness.sent).toEqual([]);
    expect(hasIncompleteOrders(actor.getSnapshot().context)).toBe(false);
    expect(harness.saves.at(-1)).toEqual({ put: [], remove: ["late"] });
  });

  it("keeps the first of two entries with one Idempotency-Key (the same courier action)", async () => {
    const { actor, settle } = startQueue({});
    await settle();
    actor.send({ type: "ENQUEUE", entry: entry("same", { status: "delivered" }) });
    actor.send({ type: "ENQUEUE", entry: entry("same", { status: "delivery_attempted" }) });
    await settle();
    expect(actor.getSnapshot().context.entries).toHaveLength(1);
    expect(actor.getSnapshot().context.entries[0]!.status).toBe("delivered");
  });

  it("keeps what is enqueued while storage is read, and saves only that", async () => {
    const { actor, harness, settle } = startQueue({ stored: [entry("on-disk", { createdAt: `${TODAY}T07:00:00.000Z` })] });
    actor.send({ type: "ENQUEUE", entry: entry("fresh", { id: 9 }) });
    await settle();
    expect(keys(actor.getSnapshot())).toEqual(["on-disk", "fresh"]);
    expect(harness.saves).toEqual([{ put: [entry("fresh", { id: 9 })], remove: [] }]);
  });

  it("works from memory when storage cannot be read, and saves new entries without erasing others", async () => {
    const { actor, harness, settle } = startQueue({ loadFails: true });
    await settle();
    expect(actor.getSnapshot().matches({ storage: "failed" })).toBe(true);
    expect(actor.getSnapshot().context.storageError).toBe("storage unavailable");
    actor.send({ type: "ENQUEUE", entry: entry("kept") });
    await settle();
    expect(harness.saves).toEqual([{ put: [entry("kept")], remove: [] }]);
    expect(actor.getSnapshot().matches({ storage: "saved" })).toBe(true);
  });

  it("CLEAR (logout, after the courier agreed) removes every entry from the device", async () => {
    const { actor, harness, settle } = startQueue({ stored: [entry("one"), entry("two", { id: 2 })] });
    await settle();
    actor.send({ type: "CLEAR" });
    await settle();
    expect(hasIncompleteOrders(actor.getSnapshot().context)).toBe(false);
    expect(harness.saves.at(-1)!.remove.sort()).toEqual(["one", "two"]);
  });

  it("tells the flows that follow it whether orders wait: at once, when that changes, and no more once they unfollow", async () => {
    const { actor, settle } = startQueue({ stored: [entry("one")] });
    const heard: unknown[] = [];
    const follower = createActor(fromCallback(({ receive }) => receive((event) => heard.push(event)))).start();
    actor.send({ type: "FOLLOW", follower });
    // Told how it is before storage is read, then again once it is.
    await settle();
    expect(heard).toEqual([
      { type: "QUEUE_CHANGED", incompleteOffline: false },
      { type: "QUEUE_CHANGED", incompleteOffline: true },
    ]);
    heard.length = 0;
    // Another order stored: orders still wait, nothing new to tell.
    actor.send({ type: "ENQUEUE", entry: entry("more", { id: 5 }) });
    await settle();
    expect(heard).toEqual([]);
    actor.send({ type: "TRY_AGAIN", today: TODAY });
    await settle();
    expect(heard).toEqual([{ type: "QUEUE_CHANGED", incompleteOffline: false }]);
    heard.length = 0;
    actor.send({ type: "UNFOLLOW", follower });
    actor.send({ type: "ENQUEUE", entry: entry("two", { id: 2 }) });
    await settle();
    expect(heard).toEqual([]);
  });

  it("marks every order a stored entry covers as incomplete", () => {
    const context = { entries: [entry("group", { id: 5, orderIds: [5, 6] }), entry("solo", { id: 8, orderIds: [] })] };
    expect(isIncomplete(context, 5)).toBe(true);
    expect(isIncomplete(context, 6)).toBe(true);
    expect(isIncomplete(context, 8)).toBe(true);
    expect(isIncomplete(context, 7)).toBe(false);
    expect(hasIncompleteOrders({ entries: [] })).toBe(false);
  });
});
