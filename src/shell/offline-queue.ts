import { useSelector } from "@xstate/react";
import { hasIncompleteOrders, type StoredOfflineOrder } from "../../domain/offline-queue.ts";
import type { offlineQueueMachine } from "../../machines/offline-queue.machine.ts";
import type { SnapshotFrom } from "xstate";
import { useOfflineQueueRef } from "./app-actor.ts";

export { deviceToday } from "./offline-queue-logic.ts";

/** The device's queue of stored offline orders: the application's "offlineQueue" actor. */
export function useOfflineQueue<T>(selector: (snapshot: SnapshotFrom<typeof offlineQueueMachine>) => T, compare?: (a: T, b: T) => boolean): T {
  return useSelector(useOfflineQueueRef(), selector, compare);
}

export function useHasIncompleteOrders(): boolean {
  return useOfflineQueue((snapshot) => hasIncompleteOrders(snapshot.context));
}

export type { StoredOfflineOrder };
