import { useSelector } from "@xstate/react";
import { createActor, fromPromise } from "xstate";
import { localCalendarDate } from "../../domain/dates.ts";
import { hasIncompleteOrders, type StoredOfflineOrder } from "../../domain/offline-queue.ts";
import { offlineQueueMachine } from "../../machines/offline-queue.machine.ts";
import { withQueueLock } from "../offline/queue-lock.ts";
import { whenIdle } from "../ui/when-idle.ts";
import { deviceStore } from "./device-store.ts";

/** The courier's day on this device; the server's zone decides it for the API, the phone's for storage. */
export const deviceToday = () => localCalendarDate(new Date());

// Storage and the delivery client are loaded on first use: they stay out of the first screen's bundle.
const store = deviceStore;

const appOfflineQueueMachine = offlineQueueMachine.provide({
  actors: {
    loadQueue: fromPromise(async () => (await store()).loadQueue()),
    saveQueue: fromPromise(async ({ input }) => (await store()).saveQueue(input)),
    // One entry at a time across every tab and trigger (Web Locks); the Idempotency-Key makes a repeat harmless anyway.
    resubmit: fromPromise(async ({ input }) =>
      withQueueLock(async () => (await import("../api/deliveries.ts")).sendStoredOrder(input)),
    ),
  },
});

/** One queue per page, started with the app. */
export const offlineQueue = createActor(appOfflineQueueMachine, { input: { today: deviceToday() } });

let started = false;

/**
 * Starts the queue once the first screen is up (the phone idle, or after a
 * second at most): reading the device's storage is not what the courier is
 * waiting for. Anything stored is on screen a moment later, and an order
 * stored before then starts the queue itself (enqueueOffline).
 */
export function startOfflineQueueWhenIdle(): void {
  if (typeof window === "undefined") return;
  whenIdle(startOfflineQueue, { timeoutMs: 1_000, fallbackMs: 200 });
}

export function startOfflineQueue(): void {
  if (started || typeof window === "undefined") return;
  started = true;
  offlineQueue.start();
  offlineQueue.send({ type: "LOAD", today: deviceToday() });
  // Spec: resubmission also starts by itself when the browser comes back online.
  window.addEventListener("online", () => offlineQueue.send({ type: "ONLINE", today: deviceToday() }));
}

/** A delivery call failed on the network: keep it on the device; the flow continues as if done. */
export function enqueueOffline(entry: StoredOfflineOrder): void {
  startOfflineQueue();
  offlineQueue.send({ type: "ENQUEUE", entry });
}

export function useOfflineQueue<T>(selector: (snapshot: ReturnType<typeof offlineQueue.getSnapshot>) => T, compare?: (a: T, b: T) => boolean): T {
  return useSelector(offlineQueue, selector, compare);
}

export function useHasIncompleteOrders(): boolean {
  return useOfflineQueue((snapshot) => hasIncompleteOrders(snapshot.context));
}

export type { StoredOfflineOrder };
