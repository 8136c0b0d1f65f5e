import { farthestInsertion } from "./construction.ts";
import { routeLength, type DistanceMatrix } from "./distance.ts";
import { TourImprover } from "./local-search.ts";
import { seededRandom } from "./prng.ts";

export interface SearchOptions {
  /** Seeds the perturbations; the same seed and input give the same tour. */
  seed?: number;
  /** Perturbation rounds after the first local optimum (default: {@link defaultIterations}). */
  iterations?: number;
  /**
   * Wall-clock guard in milliseconds (default 150). The iteration budget is
   * sized to finish well within it; the guard only bites on an overloaded
   * machine, and then, only then, the result may depend on timing.
   * Infinity turns it off.
   */
  timeLimitMs?: number;
  /** Start from this tour instead of farthest insertion (multi-start runs use random ones). */
  initialTour?: readonly number[];
  /** Clock for the time guard, in milliseconds. */
  now?: () => number;
  /**
   * When the guard's time started, on that clock (default: on entry). A
   * caller that prepares the matrix first passes its own start, so the guard
   * bounds the whole call.
   */
  startedAt?: number;
}

export interface TourResult {
  /** Every node once, starting at node 0. */
  tour: number[];
  length: number;
  /** Perturbation rounds actually run. */
  iterations: number;
  /** The time guard stopped the search before its iteration budget. */
  timedOut: boolean;
}

const DEFAULT_SEED = 0x5eed;
const DEFAULT_TIME_LIMIT_MS = 150;
/**
 * Rounds without a new best, per node, before the walk is pushed out of its
 * valley. Tuned on 150-stop rounds: without it about one instance in eight
 * stalled 0.5–0.9% above the multi-start best.
 */
const STALL_ROUNDS_PER_NODE = 10;

/**
 * Enough rounds for the search to settle on instances of a delivery
 * round's size (measured in scripts/bench/routing.ts): linear in the node
 * count, with a small floor for tiny instances. An earlier floor of 3000
 * rounds cost 4–10 ms of CPU on a 4-stop round for nothing: with 64·n rounds
 * the search still matched Held–Karp on 440 random rounds of 5–15 stops.
 */
export function defaultIterations(size: number): number {
  return Math.max(500, 64 * size);
}

/**
 * Iterated local search for the closed tour through every node of a
 * symmetric distance matrix: farthest insertion, then 2-opt + Or-opt to a
 * local optimum, then rounds of "kick with a double bridge, repair locally,
 * keep the result if it is no longer", with a forced step out whenever the
 * walk has gone long without a new best. Never returns a tour longer than
 * the input order 0, 1, …, n−1.
 */
export function optimiseTour(matrix: DistanceMatrix, options: SearchOptions = {}): TourResult {
  const n = matrix.size;
  const identity = Array.from({ length: n }, (_, i) => i);
  if (n <= 3) return { tour: identity, length: routeLength(matrix, identity, true), iterations: 0, timedOut: false };

  const now = options.now ?? (() => performance.now());
  const timeLimit = options.timeLimitMs ?? DEFAULT_TIME_LIMIT_MS;
  const started = options.startedAt ?? now();
  const iterations = options.iterations ?? defaultIterations(n);
  const random = seededRandom(options.seed ?? DEFAULT_SEED);

  const search = new TourImprover(matrix);
  search.load(options.initialTour ?? farthestInsertion(matrix));
  search.improveAll();
  const best = Int32Array.from(search.tour);
  let bestLength = search.length();
  const current = Int32Array.from(search.tour);
  let currentLength = bestLength;
  const stallLimit = STALL_ROUNDS_PER_NODE * n;

  let round = 0;
  let stale = 0;
  let timedOut = false;
  for (; round < iterations; round++) {
    // Checking the clock every few rounds keeps its cost out of the loop.
    if ((round & 15) === 0 && now() - started > timeLimit) {
      timedOut = true;
      break;
    }
    // The kick's running length change is enough to reject it; a tour
    // that is kept is measured exactly, so rounding never counts as progress.
    const estimate = currentLength + search.kickAndRepair(random);
    // After many rounds without a new best the walk is stuck in one valley:
    // take this kick whatever it costs and carry on from there.
    const escape = stale >= stallLimit;
    let improved = false;
    // Accepting equal lengths lets the walk drift across plateaus (e.g. stops at one address).
    if (estimate <= currentLength + search.tolerance || escape) {
      const length = search.length();
      copy(current, search.tour);
      currentLength = length;
      if (length <= bestLength) {
        improved = length < bestLength - search.tolerance;
        copy(best, search.tour);
        bestLength = length;
      }
    } else {
      search.restore(current);
    }
    stale = improved || escape ? 0 : stale + 1;
  }

  const tour = rotateToZero(best);
  const inputLength = routeLength(matrix, identity, true);
  if (inputLength <= bestLength) return { tour: identity, length: inputLength, iterations: round, timedOut };
  return { tour, length: bestLength, iterations: round, timedOut };
}

function copy(target: Int32Array, source: Int32Array): void {
  for (let i = 0; i < target.length; i++) target[i] = source[i]!;
}

function rotateToZero(tour: Int32Array): number[] {
  const start = tour.indexOf(0);
  return [...tour.subarray(start), ...tour.subarray(0, start)];
}
