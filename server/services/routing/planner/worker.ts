/** The worker thread's entry: solves the plan it was started with and posts it back. */
import { parentPort, workerData } from "node:worker_threads";
import type { PlanOptions, PlanProblem } from "../../../../domain/planning.ts";
import { solvePlan } from "./index.ts";

const { problem, options } = workerData as { problem: PlanProblem; options: PlanOptions };
try {
  parentPort!.postMessage({ solution: solvePlan(problem, options) });
} catch (error) {
  parentPort!.postMessage({ error: (error as Error).message });
}
