import { type DistanceMatrix } from "./distance.ts";

export interface ExactResult {
  /** Every node once, starting at node 0. */
  order: number[];
  length: number;
}

/** 2^15 subsets × 15 ends: about 4 MB and a few tens of milliseconds. */
const MAX_NODES = 16;

/**
 * Held–Karp dynamic programming: the exact shortest route from node 0
 * through every node, as a closed tour or as an open path ending anywhere.
 * O(2ⁿ·n²), so only for small instances: the yardstick the tests and
 * scripts/bench/routing.ts measure the heuristic optimiser against, and the
 * server's answer for rounds of up to 11 stops (plan-route.ts).
 */
export function heldKarp(matrix: DistanceMatrix, shape: { closed: boolean }): ExactResult {
  const n = matrix.size;
  if (n > MAX_NODES) throw new RangeError(`Held–Karp is limited to ${MAX_NODES} nodes; got ${n}.`);
  if (n <= 1) return { order: n === 1 ? [0] : [], length: 0 };

  const d = matrix.data;
  // Nodes 1..n-1 are bits 0..m-1; cost[mask*m + j] is the shortest path
  // from 0 through exactly the nodes in mask, ending at node j+1.
  const m = n - 1;
  const subsets = 1 << m;
  const cost = new Float64Array(subsets * m).fill(Infinity);
  const parent = new Int8Array(subsets * m).fill(-1);
  for (let j = 0; j < m; j++) cost[(1 << j) * m + j] = d[j + 1]!;

  for (let mask = 1; mask < subsets; mask++) {
    for (let j = 0; j < m; j++) {
      if (!(mask & (1 << j))) continue;
      const here = cost[mask * m + j]!;
      if (here === Infinity) continue;
      const row = (j + 1) * n;
      for (let k = 0; k < m; k++) {
        if (mask & (1 << k)) continue;
        const next = mask | (1 << k);
        const candidate = here + d[row + k + 1]!;
        if (candidate < cost[next * m + k]!) {
          cost[next * m + k] = candidate;
          parent[next * m + k] = j;
        }
      }
    }
  }

  const full = subsets - 1;
  let last = 0;
  let length = Infinity;
  for (let j = 0; j < m; j++) {
    const total = cost[full * m + j]! + (shape.closed ? d[(j + 1) * n]! : 0);
    if (total < length) {
      length = total;
      last = j;
    }
  }

  const order: number[] = [];
  for (let mask = full, j = last; j !== -1; ) {
    order.push(j + 1);
    const previous = parent[mask * m + j]!;
    mask &= ~(1 << j);
    j = previous;
  }
  order.push(0);
  return { order: order.reverse(), length };
}
