import { haversineMatrix, routeLength, type DistanceMatrix, type LatLng } from "./distance.ts";
import { heldKarp } from "./held-karp.ts";
import { optimisePath, type PathOptions } from "./open-path.ts";

export interface RouteStop {
  id: number;
  latitude: number | null;
  longitude: number | null;
}

type SearchOptions = Omit<PathOptions, "start" | "initialTour">;

/**
 * A round from the pharmacy with up to 11 stops (most rounds) is solved
 * exactly: Held–Karp takes about a millisecond there, where the search's
 * rounds took 4–10 ms of CPU per request and were a third of the API's CPU
 * under load (docs/benchmarks.md "API under load"). The search takes over
 * from 12 stops, where Held–Karp's 2ⁿ grows out of hand.
 */
const EXACT_MAX_NODES = 12;

/** Held–Karp's path, unless the order given is just as short (the two sums differ only by rounding). */
function exactPath(matrix: DistanceMatrix): { order: number[] } {
  const optimum = heldKarp(matrix, { closed: false });
  const given = Array.from({ length: matrix.size }, (_, i) => i);
  return routeLength(matrix, given, false) <= optimum.length * (1 + 1e-12) ? { order: given } : optimum;
}

const located = (stop: RouteStop): stop is RouteStop & LatLng => stop.latitude !== null && stop.longitude !== null;

/**
 * The driving order of a round: from the pharmacy through every stop, the
 * shortest open path on great-circle distances (see open-path.ts for why
 * the leg back is not counted): exact up to 11 stops, the search beyond.
 * Stops without coordinates cannot be placed, so they go last in the order
 * given. Without the pharmacy's coordinates the path may start at any stop.
 * The order given wins a tie, so asking again with a routed list keeps it.
 * Returns the stop ids.
 */
export function planDrivingOrder(origin: LatLng | null, stops: readonly RouteStop[], options: SearchOptions = {}): number[] {
  // The time guard counts building the distance matrix too.
  const startedAt = options.startedAt ?? (options.now ?? (() => performance.now()))();
  const placed = stops.filter(located);
  const unplaced = stops.filter((stop) => !located(stop)).map((stop) => stop.id);

  const points: LatLng[] = origin ? [origin, ...placed] : placed;
  const offset = origin ? 1 : 0;
  const matrix = haversineMatrix(points);
  const exact = origin !== null && points.length <= EXACT_MAX_NODES;
  const { order } = exact ? exactPath(matrix) : optimisePath(matrix, { ...options, startedAt, start: origin ? 0 : null });
  const routed = order.filter((node) => node >= offset).map((node) => placed[node - offset]!.id);
  return [...routed, ...unplaced];
}
