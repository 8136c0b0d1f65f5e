import { fromPromise } from "xstate";
import { localCalendarDate } from "../../domain/dates.ts";
import type { OfflineQueueCalls } from "../../machines/offline-queue.definition.ts";
import { withQueueLock } from "../offline/queue-lock.ts";
import { whenIdleAndShown } from "../ui/when-idle.ts";
import { deviceStore } from "../offline/device-store.ts";

/** The courier's day on this device; the server's zone decides it for the API, the phone's for storage. */
export const deviceToday = () => localCalendarDate(new Date());

/**
 * Reading the device's storage is not what the courier is waiting for: the
 * queue asks for it only once a session is open (never on the login screen),
 * and it waits until the first screen is up (the phone idle and its frame shown,
 * or a second and a quarter at most).
 * An order stored meanwhile is kept in memory and saved once the load is in.
 */
export const firstScreenUp = () => new Promise<void>((resolve) => whenIdleAndShown(resolve));

/** The offline queue with the device's storage and the delivery client (both loaded on first use: out of the first screen's bundle). */
export const appOfflineQueueCalls: OfflineQueueCalls = {
  loadQueue: fromPromise(async () => {
    await firstScreenUp();
    return (await deviceStore()).loadQueue();
  }),
  saveQueue: fromPromise(async ({ input }) => (await deviceStore()).saveQueue(input)),
  // One entry at a time across every tab and trigger (Web Locks); the Idempotency-Key makes a repeat harmless anyway.
  resubmit: fromPromise(async ({ input }) =>
    withQueueLock(async () => (await import("../api/deliveries.ts")).sendStoredOrder(input)),
  ),
};
