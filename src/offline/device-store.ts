import type { OfflineStore } from "./offline-store.ts";

let instance: Promise<OfflineStore> | null = null;

/** The one localforage-backed store of this page, loaded on first use (out of the first screen's bundle). */
export function deviceStore(): Promise<OfflineStore> {
  instance ??= import("./offline-store.ts").then(({ createOfflineStore }) => createOfflineStore());
  return instance;
}
