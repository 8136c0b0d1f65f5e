import { parentPort } from "node:worker_threads";

/** A batch check worker that loads, then dies at its first batch (tests/api/order-batch-worker.test.ts). */
parentPort!.on("message", () => process.exit(3));
parentPort!.postMessage({ ready: true });
