import localforage from "localforage";
import type { ItineraryResponse } from "../../domain/contract/itinerary.ts";
import type { StoredOfflineOrder } from "../../domain/offline-queue.ts";
import type { QueueChange } from "../../machines/offline-queue.machine.ts";

/**
 * What the device keeps (docs/offline.md): the stored offline orders, one
 * record per Idempotency-Key, and the courier's day so a reload without
 * network still shows it. IndexedDB where the browser has it, localStorage
 * otherwise.
 */
export const STORAGE_NAME = "rx-courier";
export const QUEUE_STORE = "offline-orders";
export const DAY_STORE = "courier-day";
const DAY_KEY = "day";

export interface DaySnapshot {
  courierId: number;
  /** The courier's calendar day (YYYY-MM-DD) the itinerary is for. */
  savedOn: string;
  itinerary: ItineraryResponse;
}

export interface OfflineStore {
  /** Opens the device's database (created on the first visit); every other call opens it too, when not yet open. */
  open(): Promise<void>;
  /** Every stored offline order, oldest first; records this version cannot read are left alone. */
  loadQueue(): Promise<StoredOfflineOrder[]>;
  /** Writes what changed: each entry under its own key, so one tab never erases another's. */
  saveQueue(change: QueueChange): Promise<void>;
  /** Whether anything is still unsent (logout warns before discarding it). */
  hasUnsent(): Promise<boolean>;
  saveDay(snapshot: DaySnapshot): Promise<void>;
  /** The day saved for this courier and date; anything else is patient data that no longer belongs here, and is removed. */
  loadDay(courierId: number, today: string): Promise<ItineraryResponse | null>;
  clearDay(): Promise<void>;
  /** Logout: every patient detail on the device, unsent orders included (the app asks first). */
  clearAll(): Promise<void>;
}

export interface OfflineStoreOptions {
  /** Another database name (tests, or a second app on the origin). */
  name?: string;
  /** localforage drivers in order of preference. */
  driver?: string | string[];
}

export function createOfflineStore(options: OfflineStoreOptions = {}): OfflineStore {
  const name = options.name ?? STORAGE_NAME;
  const driver = options.driver ?? [localforage.INDEXEDDB, localforage.LOCALSTORAGE];
  const queue = localforage.createInstance({ name, storeName: QUEUE_STORE, driver });
  const day = localforage.createInstance({ name, storeName: DAY_STORE, driver });

  return {
    async open() {
      await Promise.all([queue.ready(), day.ready()]);
    },

    async loadQueue() {
      const records: [key: string, value: unknown][] = [];
      await queue.iterate<unknown, void>((value, key) => {
        records.push([key, value]);
      });
      if (records.length === 0) return [];
      const { StoredEntry } = await import("./stored-records.ts");
      const entries: StoredOfflineOrder[] = [];
      for (const [key, value] of records) {
        const parsed = StoredEntry.safeParse(value);
        // Kept on disk, never deleted here: an unreadable record may still be someone's delivery.
        if (!parsed.success) console.warn(`offline order ${key} is not readable by this version`, parsed.error.issues);
        else entries.push(parsed.data as StoredOfflineOrder);
      }
      return entries.sort((a, b) => (a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : 0));
    },

    async saveQueue(change) {
      for (const entry of change.put) await queue.setItem(entry.idempotencyKey, entry);
      for (const key of change.remove) await queue.removeItem(key);
    },

    async hasUnsent() {
      return (await queue.length()) > 0;
    },

    async saveDay(snapshot) {
      await day.setItem(DAY_KEY, snapshot);
    },

    async loadDay(courierId, today) {
      const saved = await day.getItem(DAY_KEY);
      if (saved === null) return null;
      const { StoredDay } = await import("./stored-records.ts");
      const parsed = StoredDay.safeParse(saved);
      if (parsed.success && parsed.data.courierId === courierId && parsed.data.savedOn === today) return parsed.data.itinerary;
      await day.removeItem(DAY_KEY);
      return null;
    },

    async clearDay() {
      await day.clear();
    },

    async clearAll() {
      await Promise.all([queue.clear(), day.clear()]);
    },
  };
}
