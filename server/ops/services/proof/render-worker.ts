import { parentPort } from "node:worker_threads";
import { serveRenderJobs } from "./render-jobs.ts";

/** The render pool's worker (server/ops/services/proof/render-pool.ts), loaded through server/workers/ts-boot.mjs. */
if (!parentPort) throw new Error("render-worker.ts runs as a worker thread of the render pool.");
serveRenderJobs(parentPort);
