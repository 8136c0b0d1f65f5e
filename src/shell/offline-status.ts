import { useOfflineQueue } from "./offline-queue.ts";

/** The ids of orders stored on this device awaiting resubmission (the 'incomplete' row indicator). */
export function useOfflineOrderIds(): ReadonlySet<number> {
  const entries = useOfflineQueue((snapshot) => snapshot.context.entries);
  return new Set(entries.flatMap((entry) => [entry.id, ...entry.orderIds]));
}
