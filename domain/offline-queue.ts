/**
 * The device's queue of stored offline orders as data (spec §3 "Stored
 * offline order", §4 "Offline storage", §7 "Offline resubmission"): what an
 * entry holds and the pure rules the offline-queue machine and the app's
 * screens apply to the list.
 */

export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

/** Multipart form fields, the signature SVG included as text: plain JSON, storable as is. */
export type FormFields = Record<string, string | string[]>;

/** unsubmitted: a failed delivery; recipient: the recipient step; signature: the completion. */
type OfflineOrderKind = "unsubmitted" | "recipient" | "signature";

/** Spec §3 "Stored offline order", plus what a safe resubmission needs. */
export interface StoredOfflineOrder {
  kind: OfflineOrderKind;
  /** The order the courier was delivering. */
  id: number;
  /** Every order the call covers (grouped orders travel together); includes id. */
  orderIds: number[];
  /** The status the flow moved the order to locally. */
  status: string;
  /** The form fields (recipient and signature submissions)… */
  delivery: FormFields | null;
  /** …or the JSON payload (a failed delivery). */
  dataToSubmit: JsonValue | null;
  /** Made when the courier acted; every resubmission sends it so the server records the call once. */
  idempotencyKey: string;
  /** Spec §7: the flag saying whether payment is involved. */
  payment: boolean;
  /** The courier's calendar day (YYYY-MM-DD) when stored: entries expire at day end. */
  storedOn: string;
  /** ISO instant: the queue drains in this order. */
  createdAt: string;
}

/** The lists the queue rules read and change (the offline-queue machine's context has them). */
export interface StoredQueue {
  /** The courier's calendar day, YYYY-MM-DD. */
  today: string;
  /** The stored offline orders, oldest first. */
  entries: StoredOfflineOrder[];
  /** Keys stored or removed in memory and not yet saved. */
  unsavedKeys: string[];
  removedKeys: string[];
  /** Entries refused during this pass: kept, and skipped with the later entries of their orders. */
  failedKeys: string[];
}

/** The queue drains oldest first. */
export const byCreatedAt = (a: StoredOfflineOrder, b: StoredOfflineOrder) => (a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : 0);

const ordersOf = (entry: StoredOfflineOrder) => (entry.orderIds.includes(entry.id) ? entry.orderIds : [entry.id, ...entry.orderIds]);

/** The next entry to send: the oldest not refused this pass whose orders have no refused entry before it. */
export function nextEntry(context: Pick<StoredQueue, "entries" | "failedKeys">): StoredOfflineOrder | undefined {
  const blocked = new Set<number>();
  for (const entry of context.entries) {
    if (context.failedKeys.includes(entry.idempotencyKey)) ordersOf(entry).forEach((id) => blocked.add(id));
  }
  return context.entries.find((entry) => !context.failedKeys.includes(entry.idempotencyKey) && !ordersOf(entry).some((id) => blocked.has(id)));
}

/** 'You have an incomplete order.', the Returns alert, and the alert when finishing. */
export function hasIncompleteOrders(context: Pick<StoredQueue, "entries">): boolean {
  return context.entries.length > 0;
}

/** The 'incomplete' row indicator: the order was saved offline. */
export function isIncomplete(context: Pick<StoredQueue, "entries">, orderId: number): boolean {
  return context.entries.some((entry) => ordersOf(entry).includes(orderId));
}

export const without = (list: string[], gone: readonly string[]) => list.filter((key) => !gone.includes(key));
export const withKey = (list: string[], key: string) => (list.includes(key) ? list : [...list, key]);

/** Spec §4: stored orders are cleared when the stored date differs from today (compared by date string). */
export function dropExpired(context: StoredQueue, today: string): Partial<StoredQueue> {
  const expired = context.entries.filter((entry) => entry.storedOn !== today).map((entry) => entry.idempotencyKey);
  if (expired.length === 0) return { today };
  return {
    today,
    entries: context.entries.filter((entry) => !expired.includes(entry.idempotencyKey)),
    unsavedKeys: without(context.unsavedKeys, expired),
    removedKeys: expired.reduce(withKey, context.removedKeys),
  };
}

export function removeEntries(context: StoredQueue, keys: readonly string[]): Partial<StoredQueue> {
  const present = context.entries.filter((entry) => keys.includes(entry.idempotencyKey)).map((entry) => entry.idempotencyKey);
  return {
    entries: context.entries.filter((entry) => !keys.includes(entry.idempotencyKey)),
    unsavedKeys: without(context.unsavedKeys, present),
    removedKeys: present.reduce(withKey, context.removedKeys),
  };
}
