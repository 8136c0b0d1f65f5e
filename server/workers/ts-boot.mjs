import { workerData } from "node:worker_threads";
import { register } from "tsx/esm/api";

/**
 * A worker thread does not inherit the TypeScript loader the server runs
 * under (tsx, or Vitest's own), so a worker (PDF renders, order batch checks; ts-worker.ts) starts here, in plain
 * JavaScript: tsx's loader is registered for this thread, then the worker's
 * TypeScript entry (workerData.entry, a file: URL) is imported.
 */
register();
await import(workerData.entry);
