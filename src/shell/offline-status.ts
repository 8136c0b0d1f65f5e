import { useMemo } from "react";
import { useOfflineQueue } from "./offline-queue.ts";

/** The ids of orders stored on this device awaiting resubmission (the 'incomplete' row indicator). */
export function useOfflineOrderIds(): ReadonlySet<number> {
  const entries = useOfflineQueue((snapshot) => snapshot.context.entries);
  // One set per change of the queue, not per render of every row that asks.
  return useMemo(() => new Set(entries.flatMap((entry) => [entry.id, ...entry.orderIds])), [entries]);
}
