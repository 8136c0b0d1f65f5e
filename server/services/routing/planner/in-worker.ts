/**
 * solvePlan in a worker thread: the search is CPU-bound for its whole time
 * limit, and the API must keep answering meanwhile.
 */
import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";
import { Worker } from "node:worker_threads";
import type { PlanOptions, PlanProblem, PlanSolution } from "../../../../domain/planning.ts";

/**
 * The worker's code: the compiled worker.js, or — running from source — a
 * bootstrap that registers tsx's loader inside the worker first (a loader
 * passed with --import in execArgv does not reach workers on Node 20).
 */
function workerSource(): { script: string | URL; eval: boolean } {
  if (!import.meta.url.endsWith(".ts")) return { script: new URL("./worker.js", import.meta.url), eval: false };
  // tsx's ESM API (its CommonJS build cannot register the ESM hooks from an eval'd worker).
  const tsxApi = pathToFileURL(createRequire(import.meta.url).resolve("tsx/esm/api").replace(/\.cjs$/, ".mjs")).href;
  const entry = new URL("./worker.ts", import.meta.url).href;
  return { script: `import(${JSON.stringify(tsxApi)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(entry)}); });`, eval: true };
}

export function solvePlanInWorker(problem: PlanProblem, options: PlanOptions): Promise<PlanSolution> {
  const source = workerSource();
  return new Promise((resolve, reject) => {
    const worker = new Worker(source.script, { workerData: { problem, options }, eval: source.eval, execArgv: [] });
    let settled = false;
    worker.once("message", (message: { solution?: PlanSolution; error?: string }) => {
      settled = true;
      if (message.solution) resolve(message.solution);
      else reject(new Error(message.error ?? "The planner stopped without a plan."));
      void worker.terminate();
    });
    worker.once("error", (error) => {
      settled = true;
      reject(error);
    });
    worker.once("exit", (code) => {
      if (!settled) reject(new Error(`The planner's worker stopped (exit code ${code}) without a plan.`));
    });
  });
}
