import { routeLength, symmetricMatrix, type DistanceMatrix } from "./distance.ts";
import { optimiseTour, type SearchOptions } from "./iterated-local-search.ts";

export interface PathOptions extends Omit<SearchOptions, "initialTour"> {
  /**
   * The node the path must start at (default 0). null lets it start
   * anywhere: a round whose pharmacy has no coordinates.
   */
  start?: number | null;
  /** Start the search from this path instead of farthest insertion (multi-start runs use random ones). */
  initialOrder?: readonly number[];
}

export interface PathResult {
  /** Every node once, `start` first when one is fixed. */
  order: number[];
  length: number;
  iterations: number;
  timedOut: boolean;
}

/**
 * The shortest open path through every node: a courier leaves the pharmacy
 * and the round ends at the last delivery, not back at the pharmacy (the
 * next stop is usually another pharmacy or home, and returns are brought
 * back at the end of the day). So the leg home is not part of the cost.
 *
 * Solved on the closed-tour core by adding one dummy node. With a fixed
 * start s: dummy–s costs 0 and dummy–anything else costs a constant M
 * larger than any path, so every good tour runs s … end → dummy → s and its
 * length is the path's plus M. With a free start every dummy edge costs 0
 * and the tour is cut at the dummy.
 *
 * Never returns a path longer than the input order 0, 1, …, n−1 (which
 * starts at node 0: the start must be 0 for that promise to apply).
 */
export function optimisePath(matrix: DistanceMatrix, options: PathOptions = {}): PathResult {
  const n = matrix.size;
  const start = options.start === undefined ? 0 : options.start;
  if (start !== null && (!Number.isInteger(start) || start < 0 || start >= n) && n > 0) {
    throw new RangeError(`The start node ${start} is not one of the ${n} nodes.`);
  }
  const identity = Array.from({ length: n }, (_, i) => i);
  if (n <= 2) {
    const order = start === null || start === 0 ? identity : identity.reverse();
    return { order, length: routeLength(matrix, order, false), iterations: 0, timedOut: false };
  }

  const dummy = n;
  let largest = 0;
  for (const value of matrix.data) if (value > largest) largest = value;
  const far = start === null ? 0 : largest * n + 1;
  const augmented = symmetricMatrix(n + 1, (i, j) => {
    if (j !== dummy) return matrix.data[i * n + j]!;
    return i === start ? 0 : far;
  });
  const { initialOrder, ...search } = options;
  const initialTour = initialOrder ? [...initialOrder, dummy] : undefined;
  const { tour, iterations, timedOut } = optimiseTour(augmented, { ...search, initialTour });

  // The cycle without the dummy, read from just after it.
  const cut = tour.indexOf(dummy);
  const cycle = [...tour.slice(cut + 1), ...tour.slice(0, cut)];
  const order = start === null ? orientFreePath(cycle) : bestPathFrom(matrix, cycle, start);
  const length = routeLength(matrix, order, false);

  const inputLength = routeLength(matrix, identity, false);
  if ((start === null || start === 0) && inputLength <= length) return { order: identity, length: inputLength, iterations, timedOut };
  return { order, length, iterations, timedOut };
}

/** Either reading direction costs the same; the lower-numbered end goes first so the answer is stable. */
function orientFreePath(path: number[]): number[] {
  return path[0]! <= path[path.length - 1]! ? path : path.reverse();
}

/**
 * The cycle rotated to begin at `start`, in whichever direction is shorter
 * as a path. A searched tour always has the dummy next to the start, so this
 * just undoes the cut; it also keeps any tour a valid answer.
 */
function bestPathFrom(matrix: DistanceMatrix, cycle: number[], start: number): number[] {
  const at = cycle.indexOf(start);
  const forward = [...cycle.slice(at), ...cycle.slice(0, at)];
  const backward = [start, ...forward.slice(1).reverse()];
  return routeLength(matrix, backward, false) < routeLength(matrix, forward, false) ? backward : forward;
}
