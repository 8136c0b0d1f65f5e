import { type DistanceMatrix } from "./distance.ts";

/**
 * Farthest insertion: a closed tour built by repeatedly taking the node
 * farthest from the tour so far and inserting it where it costs least.
 * Placing the outliers first fixes the tour's overall shape early, which
 * leaves local search less to repair than nearest neighbour does (typically
 * 10–15% above optimal against nearest neighbour's ~25%). O(n²).
 */
export function farthestInsertion(matrix: DistanceMatrix): number[] {
  const { size: n, data } = matrix;
  if (n <= 3) return Array.from({ length: n }, (_, i) => i);

  // The tour as a successor array; -1 marks a node not yet in it.
  const next = new Int32Array(n).fill(-1);
  // Each outside node's distance to its nearest tour node.
  const gap = new Float64Array(n);

  let farthest = 1;
  for (let j = 1; j < n; j++) if (data[j]! > data[farthest]!) farthest = j;
  next[0] = farthest;
  next[farthest] = 0;
  for (let j = 0; j < n; j++) gap[j] = Math.min(data[j]!, data[farthest * n + j]!);

  for (let added = 2; added < n; added++) {
    let pick = -1;
    for (let j = 0; j < n; j++) {
      if (next[j] === -1 && (pick === -1 || gap[j]! > gap[pick]!)) pick = j;
    }
    const row = pick * n;
    let bestFrom = 0;
    let bestCost = Infinity;
    let from = 0;
    do {
      const to = next[from]!;
      const cost = data[row + from]! + data[row + to]! - data[from * n + to]!;
      if (cost < bestCost) {
        bestCost = cost;
        bestFrom = from;
      }
      from = to;
    } while (from !== 0);
    next[pick] = next[bestFrom]!;
    next[bestFrom] = pick;
    for (let j = 0; j < n; j++) if (next[j] === -1) gap[j] = Math.min(gap[j]!, data[row + j]!);
  }

  const tour: number[] = [0];
  for (let node = next[0]!; node !== 0; node = next[node]!) tour.push(node);
  return tour;
}
