import { parentPort, workerData } from "node:worker_threads";
import { serveRenderJobs } from "../../server/ops/services/proof/render-jobs.ts";

/**
 * The render pool's worker with a latch (issue 24): before each render it
 * counts itself in (slot 1) and blocks its own thread until the test opens
 * the latch (slot 0). Had the render run on the event loop, this would block
 * the whole API; in the pool, the API answers while it waits.
 */
const latch = new Int32Array(workerData.latch as SharedArrayBuffer);
if (!parentPort) throw new Error("a worker thread only");
serveRenderJobs(parentPort, () => {
  Atomics.add(latch, 1, 1);
  Atomics.notify(latch, 1);
  Atomics.wait(latch, 0, 0);
});
