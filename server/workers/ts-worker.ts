import { Worker } from "node:worker_threads";

const BOOT = new URL("./ts-boot.mjs", import.meta.url);

/**
 * A worker thread running a TypeScript module (ts-boot.mjs registers tsx in the
 * thread, then imports `entry`), unref'd so an idle worker never keeps the
 * process alive. It gets none of the server's node flags: a preload given with
 * --import (a .ts, like the bench's memory probe) would load before tsx is
 * registered and fail the worker.
 */
export function startTsWorker(entry: URL, options: { heapMb: number; workerData?: Record<string, unknown> }): Worker {
  const worker = new Worker(BOOT, {
    workerData: { ...options.workerData, entry: entry.href },
    resourceLimits: { maxOldGenerationSizeMb: options.heapMb },
    execArgv: [],
  });
  worker.unref();
  return worker;
}
