/**
 * Distances for the optimiser. Its core only ever sees a square, symmetric
 * matrix, so the same code runs on great-circle distances between addresses
 * and on standard TSP benchmark instances.
 */

export interface LatLng {
  latitude: number;
  longitude: number;
}

/** A symmetric n×n matrix, row-major. */
export interface DistanceMatrix {
  readonly size: number;
  readonly data: Float64Array;
}

/** Mean Earth radius (IUGG), metres. */
const EARTH_RADIUS_M = 6_371_008.8;
const RADIANS = Math.PI / 180;

/** Great-circle distance in metres (haversine: stable for the short hops of a delivery round). */
export function haversineMeters(a: LatLng, b: LatLng): number {
  const dLat = (b.latitude - a.latitude) * RADIANS;
  const dLng = (b.longitude - a.longitude) * RADIANS;
  const h =
    Math.sin(dLat / 2) ** 2 + Math.cos(a.latitude * RADIANS) * Math.cos(b.latitude * RADIANS) * Math.sin(dLng / 2) ** 2;
  return 2 * EARTH_RADIUS_M * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** Builds a symmetric matrix from a distance function, computing each pair once. */
export function symmetricMatrix(size: number, distance: (i: number, j: number) => number): DistanceMatrix {
  const data = new Float64Array(size * size);
  for (let i = 0; i < size; i++) {
    for (let j = i + 1; j < size; j++) {
      const d = distance(i, j);
      if (!Number.isFinite(d) || d < 0) throw new RangeError(`Distance ${i}→${j} is ${d}; distances must be finite and non-negative.`);
      data[i * size + j] = d;
      data[j * size + i] = d;
    }
  }
  return { size, data };
}

export function haversineMatrix(points: readonly LatLng[]): DistanceMatrix {
  return symmetricMatrix(points.length, (i, j) => haversineMeters(points[i]!, points[j]!));
}

export function distanceAt(matrix: DistanceMatrix, i: number, j: number): number {
  return matrix.data[i * matrix.size + j]!;
}

/** Length of visiting `order` in sequence; `closed` adds the edge back to the first node. */
export function routeLength(matrix: DistanceMatrix, order: ArrayLike<number>, closed: boolean): number {
  const n = order.length;
  let total = 0;
  for (let k = 0; k + 1 < n; k++) total += distanceAt(matrix, order[k]!, order[k + 1]!);
  if (closed && n > 1) total += distanceAt(matrix, order[n - 1]!, order[0]!);
  return total;
}
