/**
 * Where deliveries in progress are kept on the phone (src/features/delivery/flow-storage.ts):
 * one localStorage key per order. Its own small file: logout clears them from the first
 * screen's code, which must not carry the delivery's rules.
 */
export const PREFIX = "rxc-delivery-flow:";

/** Logout: every delivery in progress leaves the device with the courier. */
export function clearAllFlows(): void {
  const store = deviceStorage();
  if (!store) return;
  for (const key of flowKeys(store)) store.removeItem(key);
}

export function flowKeys(store: Storage): string[] {
  const keys: string[] = [];
  for (let i = 0; i < store.length; i++) {
    const key = store.key(i);
    if (key?.startsWith(PREFIX)) keys.push(key);
  }
  return keys;
}

function deviceStorage(): Storage | null {
  try {
    return typeof window === "undefined" ? null : window.localStorage;
  } catch {
    return null;
  }
}
