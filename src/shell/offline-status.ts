import { useMemo } from "react";
import { useOfflineQueue } from "./offline-queue.ts";

/** The ids of orders stored on this device awaiting resubmission (the 'incomplete' row indicator). */
export function useOfflineOrderIds(): ReadonlySet<number> {
  // The same orders stored is no change: the queue's first load (an empty list for an empty one) re-renders no row.
  const entries = useOfflineQueue((snapshot) => snapshot.context.entries, sameOrders);
  // One set per change of the queue, not per render of every row that asks.
  return useMemo(() => new Set(entries.flatMap((entry) => [entry.id, ...entry.orderIds])), [entries]);
}

type Entries = readonly { id: number; orderIds: readonly number[] }[];

const sameIds = (a: readonly number[], b: readonly number[]) => a.length === b.length && a.every((id, i) => id === b[i]);

function sameOrders(a: Entries, b: Entries): boolean {
  return a === b || (a.length === b.length && a.every((entry, i) => entry.id === b[i]!.id && sameIds(entry.orderIds, b[i]!.orderIds)));
}
