import { nextTask } from "../ui/next-task.ts";
import type { OfflineStore } from "./offline-store.ts";

let instance: Promise<OfflineStore> | null = null;

/**
 * The one localforage-backed store of this page, loaded on first use (out of the first screen's bundle).
 * Its code's evaluation, the database's first open and what the first callers ask of it each come in a
 * task of their own: on a low-tier phone each takes tens of milliseconds, and together they were one or
 * two long tasks just after the first screen (issue 29).
 */
export function deviceStore(): Promise<OfflineStore> {
  instance ??= import("./offline-store.ts").then(async ({ createOfflineStore }) => {
    await nextTask();
    const store = createOfflineStore();
    await store.open();
    await nextTask();
    return store;
  });
  return instance;
}
