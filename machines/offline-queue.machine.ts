import { createOfflineQueueMachine } from "./offline-queue.definition.ts";

export * from "./offline-queue.definition.ts";

/**
 * The queue with stand-ins for what the app provides: its tests', the
 * visualizer's and the /machines page's. The app builds its own once with its
 * adapters (createOfflineQueueMachine, from ./offline-queue.definition.ts) and never loads this module,
 * so it does not build this one too.
 */
export const offlineQueueMachine = createOfflineQueueMachine();
