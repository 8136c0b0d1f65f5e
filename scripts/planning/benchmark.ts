/**
 * npm run plan:benchmark -- --format solomon|lilim --vehicles N --seconds S [--seed K] [--iterations I] FILE
 *
 * Solves a Solomon VRPTW or Li & Lim PDPTW instance with the product's own
 * planner (solvePlan, the code the API runs in its worker) given at most N
 * vehicles and S seconds, and prints one JSON object:
 * {"routes": [[node numbers in visiting order, depot left out], ...], "distance", "vehicles", "seconds", "unassigned"}.
 */
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { Command, InvalidArgumentError, Option } from "commander";
import { solvePlan } from "../../server/services/routing/planner/index.ts";
import { parseInstance, type InstanceFormat } from "./instances.ts";

function positiveInteger(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n <= 0) throw new InvalidArgumentError("Not a positive whole number.");
  return n;
}
function positiveNumber(value: string): number {
  const n = Number(value);
  if (!(n > 0)) throw new InvalidArgumentError("Not a positive number.");
  return n;
}
function wholeNumber(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new InvalidArgumentError("Not a whole number.");
  return n;
}

export interface BenchmarkRun {
  routes: number[][];
  distance: number;
  vehicles: number;
  seconds: number;
  unassigned: number[];
}

export function runBenchmark(file: string, options: { format: InstanceFormat; vehicles?: number; seconds: number; seed?: number; iterations?: number }): BenchmarkRun {
  const started = performance.now();
  const instance = parseInstance(readFileSync(file, "utf8"), options.format, options.vehicles);
  const solution = solvePlan(instance.problem, {
    timeLimitMs: options.seconds * 1000 - (performance.now() - started),
    seed: options.seed,
    iterations: options.iterations,
    maxVehicles: options.vehicles,
  });
  const number = (location: number) => instance.nodeNumbers[location]!;
  const routes = solution.routes.map((route) => route.stops.map((stop) => number(stop.location)));
  return {
    routes,
    distance: solution.routes.reduce((sum, route) => sum + route.distance, 0),
    vehicles: routes.length,
    seconds: Math.round(performance.now() - started) / 1000,
    unassigned: solution.unassigned.map((entry) => Number(entry.taskId)),
  };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const program = new Command()
    .name("plan:benchmark")
    .description("Solve a Solomon VRPTW or Li & Lim PDPTW instance with the product's planner; prints one JSON object.")
    .addOption(new Option("--format <format>", "instance format").choices(["solomon", "lilim"]).makeOptionMandatory())
    .option("--vehicles <n>", "at most this many vehicles (default: the instance's fleet)", positiveInteger)
    .option("--seconds <s>", "time limit in seconds", positiveNumber, 10)
    .option("--seed <k>", "random seed", wholeNumber, 1)
    .option("--iterations <i>", "iteration budget (with --seed: a deterministic result)", wholeNumber)
    .argument("<file>", "instance file")
    .action((file: string, options: { format: InstanceFormat; vehicles?: number; seconds: number; seed: number; iterations?: number }) => {
      process.stdout.write(`${JSON.stringify(runBenchmark(file, options))}\n`);
    });
  program.parse();
}
