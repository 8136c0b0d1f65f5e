import { assign, fromPromise, raise, setup, type AnyActorRef } from "xstate";
import { toApiFailure, type ApiFailure } from "../domain/api-failure.ts";
import {
  byCreatedAt,
  dropExpired,
  hasIncompleteOrders,
  nextEntry,
  removeEntries,
  withKey,
  without,
  type StoredOfflineOrder,
  type StoredQueue,
} from "../domain/offline-queue.ts";
import { followersAfter, tell, type FollowEvent } from "./following.ts";

/**
 * The device's queue of stored offline orders (spec §4 "Offline storage", §7
 * "Offline resubmission", §8 retry rows). A delivery call that fails on the
 * network is ENQUEUEd and the flow carries on as if it had been sent; the
 * queue sends it again later, in order and one at a time, each with the
 * Idempotency-Key made when the courier acted, so a retry the server already
 * has is answered with the stored response and never recorded twice.
 *
 * The flows that follow the queue (FOLLOW: returns) are told whether orders
 * wait each time that changes (QUEUE_CHANGED).
 *
 * The device's storage is read only once a courier's session is open
 * (SESSION_OPENED, from the application): the login screen neither loads the
 * store nor opens it. The flows that enqueue run under a session; an order
 * enqueued before storage is read is kept in memory and saved once it is.
 *
 * Storage and HTTP are actors the app provides: loadQueue, saveQueue, resubmit.
 */

/** What one save writes: entries to store (by key) and keys to delete. Never the whole list, so two tabs cannot erase each other's entries. */
export interface QueueChange {
  put: StoredOfflineOrder[];
  remove: string[];
}

/** The stored queue (domain/offline-queue.ts) and the machine's saving and sending state. */
export interface OfflineQueueContext extends StoredQueue {
  /** What the running save carries; forgotten from the lists above once it succeeds. */
  savingPuts: string[];
  savingRemovals: string[];
  /** The entry being resubmitted. */
  sendingKey: string | null;
  lastFailure: ApiFailure | null;
  storageError: string | null;
  /** The flows to tell when the answer to "do orders wait?" changes, from their FOLLOW until their UNFOLLOW. */
  followers: AnyActorRef[];
  /** That answer as the followers were last told it. */
  incompleteOffline: boolean;
}

export type OfflineQueueEvent =
  /** A courier's session is open (logged in, or known from the device after a reload): read the device's storage. */
  | { type: "SESSION_OPENED" }
  | { type: "LOAD"; today: string }
  | { type: "ENQUEUE"; entry: StoredOfflineOrder }
  | { type: "TRY_AGAIN"; today: string }
  | { type: "ONLINE"; today: string }
  | { type: "DISMISS" }
  | { type: "CLEAR" }
  /** Raised by the machine after every change: after a failed save, the next change tries storage again. */
  | { type: "PERSIST" }
  | FollowEvent;

export interface OfflineQueueInput {
  today: string;
}

/** The device's storage and the resubmission, as stand-ins that fail until the app (or a test) provides its own. */
const queueCalls = {
  loadQueue: fromPromise<StoredOfflineOrder[]>(async () => {
    throw new Error("provide loadQueue");
  }),
  saveQueue: fromPromise<void, QueueChange>(async () => {
    throw new Error("provide saveQueue");
  }),
  /** Sends one stored entry with its Idempotency-Key; rejects with an ApiFailure. */
  resubmit: fromPromise<unknown, StoredOfflineOrder>(async () => {
    throw new Error("provide resubmit");
  }),
};
export type OfflineQueueCalls = typeof queueCalls;

/** The queue's machine with these calls, built once by whoever runs it (the app with its own; see session.definition.ts). */
export const createOfflineQueueMachine = (calls: Partial<OfflineQueueCalls> = {}) =>
  setup({
    types: {
      context: {} as OfflineQueueContext,
      events: {} as OfflineQueueEvent,
      input: {} as OfflineQueueInput,
    },
    actors: { ...queueCalls, ...calls },
    guards: {
      hasNext: ({ context }) => nextEntry(context) !== undefined,
      anyRefused: ({ context }) => context.failedKeys.length > 0,
      hasUnsavedChanges: ({ context }) => context.unsavedKeys.length > 0 || context.removedKeys.length > 0,
      /** 403 (and 401: the session ended): the page reloads, spec §8 "Retry, any result 403". */
      needsReload: (_, failure: ApiFailure) => failure.kind === "forbidden" || failure.kind === "unauthenticated",
      /** Still offline: stop and say so; the entry waits for the next trigger. */
      stillOffline: (_, failure: ApiFailure) => failure.kind === "network" || failure.kind === "unavailable",
    },
    actions: {
      setToday: assign((_, today: string) => ({ today })),
      store: assign(({ context }, entry: StoredOfflineOrder) => {
        // The same key twice is the same courier action (a double tap, another tab): keep the first.
        if (context.entries.some((existing) => existing.idempotencyKey === entry.idempotencyKey)) return {};
        return {
          entries: [...context.entries, entry].sort(byCreatedAt),
          unsavedKeys: withKey(context.unsavedKeys, entry.idempotencyKey),
          removedKeys: without(context.removedKeys, [entry.idempotencyKey]),
        };
      }),
      dropExpired: assign(({ context }) => dropExpired(context, context.today)),
      mergeLoaded: assign(({ context }, loaded: StoredOfflineOrder[]) => {
        // Storage is the truth for what was saved; memory adds what is not saved yet, minus what was sent meanwhile.
        const known = new Set(context.entries.map((entry) => entry.idempotencyKey));
        const fromStorage = loaded.filter((entry) => !known.has(entry.idempotencyKey) && !context.removedKeys.includes(entry.idempotencyKey));
        return { entries: [...context.entries, ...fromStorage].sort(byCreatedAt), storageError: null };
      }),
      clearAll: assign(({ context }) => removeEntries(context, context.entries.map((entry) => entry.idempotencyKey))),
      beginSave: assign(({ context }) => ({ savingPuts: context.unsavedKeys, savingRemovals: context.removedKeys })),
      saved: assign(({ context }) => ({
        unsavedKeys: without(context.unsavedKeys, context.savingPuts),
        removedKeys: without(context.removedKeys, context.savingRemovals),
        savingPuts: [],
        savingRemovals: [],
        storageError: null,
      })),
      storageFailed: assign((_, message: string) => ({ storageError: message, savingPuts: [], savingRemovals: [] })),
      abandonSave: assign({ savingPuts: [], savingRemovals: [] }),
      persist: raise({ type: "PERSIST" }),
      /** 'Try again' or back online: the device's day now, expired entries dropped, a new pass from the first entry. */
      startPass: assign(({ context }, today: string) => ({ ...dropExpired(context, today), failedKeys: [], lastFailure: null })),
      pickNext: assign(({ context }) => ({ sendingKey: nextEntry(context)?.idempotencyKey ?? null })),
      forgetSent: assign(({ context }) => ({ ...removeEntries(context, context.sendingKey ? [context.sendingKey] : []), sendingKey: null })),
      rememberFailure: assign((_, failure: ApiFailure) => ({ lastFailure: failure })),
      markRefused: assign(({ context }) => ({
        failedKeys: context.sendingKey ? withKey(context.failedKeys, context.sendingKey) : context.failedKeys,
        sendingKey: null,
      })),
      stopSending: assign({ sendingKey: null }),
      updateFollowers: assign(({ context, event }) => ({ followers: followersAfter(context.followers, event as FollowEvent) })),
      /** After a FOLLOW, to the new follower; after a change to the entries, to every follower if it is not what they were last told. */
      tellFollowers: ({ context, event }) => {
        const incompleteOffline = event.type === "FOLLOW" ? context.incompleteOffline : hasIncompleteOrders(context);
        if (event.type === "FOLLOW" || incompleteOffline !== context.incompleteOffline) tell(context.followers, event, { type: "QUEUE_CHANGED", incompleteOffline });
      },
      /** What the followers were just told (after tellFollowers). */
      rememberTold: assign(({ context }) => ({ incompleteOffline: hasIncompleteOrders(context) })),
    },
  }).createMachine({
    id: "offlineQueue",
    description:
      "Calls that failed on the network, kept on the device and resubmitted in order, one at a time.",
    type: "parallel",
    context: ({ input }) => ({
      today: input.today,
      entries: [],
      unsavedKeys: [],
      removedKeys: [],
      savingPuts: [],
      savingRemovals: [],
      sendingKey: null,
      failedKeys: [],
      lastFailure: null,
      storageError: null,
      followers: [],
      incompleteOffline: false,
    }),
    on: {
      ENQUEUE: {
        description: "A delivery call failed on the network: store it.",
        actions: [{ type: "store", params: ({ event }) => event.entry }, "persist", "tellFollowers", "rememberTold"],
      },
      FOLLOW: { actions: ["updateFollowers", "tellFollowers"], description: "A flow (returns) follows whether orders wait." },
      UNFOLLOW: { actions: "updateFollowers" },
    },
    states: {
      storage: {
        description: "The queue on the device.",
        initial: "closed",
        states: {
          closed: {
            description: "No courier's session yet (the login screen): the device's storage is neither loaded nor read.",
            on: {
              SESSION_OPENED: { target: "loading", description: "A courier's session is open: read the stored offline orders." },
              LOAD: { actions: { type: "setToday", params: ({ event }) => event.today } },
            },
          },
          loading: {
            description: "Reading the stored offline orders.",
            invoke: {
              id: "loadQueue",
              src: "loadQueue",
              // Entries enqueued while loading, or expired ones found in storage, are saved next.
              onDone: {
                target: "saved",
                actions: [{ type: "mergeLoaded", params: ({ event }) => event.output }, "dropExpired", "tellFollowers", "rememberTold"],
              },
              onError: { target: "failed", actions: { type: "storageFailed", params: ({ event }) => toApiFailure(event.error).message } },
            },
            on: { LOAD: { actions: { type: "setToday", params: ({ event }) => event.today } } },
          },
          saving: {
            description: "Saving what changed since the last save.",
            entry: "beginSave",
            invoke: {
              id: "saveQueue",
              src: "saveQueue",
              input: ({ context }) => ({
                put: context.entries.filter((entry) => context.savingPuts.includes(entry.idempotencyKey)),
                remove: context.savingRemovals,
              }),
              onDone: { target: "saved", actions: "saved" },
              onError: { target: "failed", actions: { type: "storageFailed", params: ({ event }) => toApiFailure(event.error).message } },
            },
            on: {
              LOAD: {
                target: "loading",
                // What this save carried is saved again after.
                description: "Read storage again (another tab, the app resumed).",
                actions: [{ type: "setToday", params: ({ event }) => event.today }, "abandonSave"],
              },
            },
          },
          saved: {
            description: "Memory and storage agree; any change is saved at once.",
            always: { guard: "hasUnsavedChanges", target: "saving" },
            on: {
              LOAD: { target: "loading", actions: { type: "setToday", params: ({ event }) => event.today } },
            },
          },
          failed: {
            // Not at once: a full disk would loop.
            description: "Storage refused: the entries stay in memory; the next change or LOAD tries again.",
            on: {
              PERSIST: { guard: "hasUnsavedChanges", target: "saving" },
              LOAD: { target: "loading", actions: { type: "setToday", params: ({ event }) => event.today } },
            },
          },
        },
      },
      drain: {
        description: "Resubmission: on 'Try again' or when the browser comes back online.",
        initial: "waiting",
        on: {
          CLEAR: {
            target: ".waiting",
            description: "Logout, after the courier agreed to discard anything unsent.",
            actions: ["clearAll", "stopSending", "persist", "tellFollowers", "rememberTold"],
          },
        },
        states: {
          waiting: {
            description: "Nothing being sent.",
            initial: "idle",
            on: {
              TRY_AGAIN: {
                target: "choosing",
                description: "The banner's 'Try again'.",
                actions: [{ type: "startPass", params: ({ event }) => event.today }, "persist", "tellFollowers", "rememberTold"],
              },
              ONLINE: {
                target: "choosing",
                description: "The browser came back online: drain by itself.",
                actions: [{ type: "startPass", params: ({ event }) => event.today }, "persist", "tellFollowers", "rememberTold"],
              },
            },
            states: {
              idle: {
                description: "With entries, the banner 'You have an incomplete order.' shows.",
              },
              offline: {
                description: "Retry, any failure offline: a notice is shown; the entries wait.",
                on: { DISMISS: { target: "idle" } },
              },
              refused: {
                description: "Retry, other failure: 'There is a problem re-submitting orders'; the refused entries are kept.",
                on: { DISMISS: { target: "idle" } },
              },
            },
          },
          choosing: {
            always: [
              { guard: "hasNext", target: "sending", actions: "pickNext" },
              { guard: "anyRefused", target: "waiting.refused" },
              { target: "waiting.idle" },
            ],
          },
          sending: {
            description: "Resubmitting one stored order, with its Idempotency-Key.",
            invoke: {
              id: "resubmit",
              src: "resubmit",
              input: ({ context }) => {
                const entry = context.entries.find((candidate) => candidate.idempotencyKey === context.sendingKey);
                if (!entry) throw new Error("resubmit: no entry picked");
                return entry;
              },
              onDone: { target: "choosing", actions: ["forgetSent", "persist", "tellFollowers", "rememberTold"] },
              onError: [
                {
                  guard: { type: "needsReload", params: ({ event }) => toApiFailure(event.error) },
                  target: "reloadRequired",
                  actions: [{ type: "rememberFailure", params: ({ event }) => toApiFailure(event.error) }, "stopSending"],
                },
                {
                  guard: { type: "stillOffline", params: ({ event }) => toApiFailure(event.error) },
                  target: "waiting.offline",
                  actions: [{ type: "rememberFailure", params: ({ event }) => toApiFailure(event.error) }, "stopSending"],
                },
                {
                  target: "choosing",
                  description: "Any other failure: keep the entry, go on with other orders, then report.",
                  actions: [{ type: "rememberFailure", params: ({ event }) => toApiFailure(event.error) }, "markRefused"],
                },
              ],
            },
          },
          reloadRequired: {
            description: "Retry, any result 403: the page reloads once storage is saved.",
          },
        },
      },
    },
  });
