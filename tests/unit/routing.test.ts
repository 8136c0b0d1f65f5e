import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { haversineMatrix, haversineMeters, routeLength, symmetricMatrix, type DistanceMatrix, type LatLng } from "../../server/services/routing/distance.ts";
import { heldKarp } from "../../server/services/routing/held-karp.ts";
import { optimiseTour } from "../../server/services/routing/iterated-local-search.ts";
import { optimisePath } from "../../server/services/routing/open-path.ts";
import { planDrivingOrder } from "../../server/services/routing/plan-route.ts";
import { seededRandom } from "../../server/services/routing/prng.ts";

/** No wall-clock guard in tests: results must not depend on how busy the machine is. */
const untimed = { timeLimitMs: Infinity } as const;

const euclidean = (points: readonly (readonly [number, number])[]): DistanceMatrix =>
  symmetricMatrix(points.length, (i, j) => Math.hypot(points[i]![0] - points[j]![0], points[i]![1] - points[j]![1]));

function randomPoints(seed: number, count: number): [number, number][] {
  const random = seededRandom(seed);
  return Array.from({ length: count }, () => [Math.round(random() * 1000), Math.round(random() * 1000)]);
}

function permutations(items: number[]): number[][] {
  if (items.length <= 1) return [items];
  return items.flatMap((item, i) => permutations([...items.slice(0, i), ...items.slice(i + 1)]).map((rest) => [item, ...rest]));
}

/** The yardstick for the yardstick: every order, tried. */
function bruteForce(matrix: DistanceMatrix, closed: boolean): number {
  const others = Array.from({ length: matrix.size - 1 }, (_, i) => i + 1);
  return Math.min(...permutations(others).map((rest) => routeLength(matrix, [0, ...rest], closed)));
}

function expectPathFromZero(order: number[], size: number): void {
  expect(order).toHaveLength(size);
  expect([...order].sort((a, b) => a - b)).toEqual(Array.from({ length: size }, (_, i) => i));
  if (size > 0) expect(order[0]).toBe(0);
}

const pointsArbitrary = (min: number, max: number) =>
  fc.array(fc.tuple(fc.integer({ min: 0, max: 50 }), fc.integer({ min: 0, max: 50 })), { minLength: min, maxLength: max });

describe("great-circle distances", () => {
  it("measures a degree of latitude as about 111.2 km, a point to itself as 0, and both ways alike", () => {
    const a = { latitude: 0, longitude: 10 };
    const b = { latitude: 1, longitude: 10 };
    expect(haversineMeters(a, b)).toBeCloseTo(111_195, -1);
    expect(haversineMeters(a, a)).toBe(0);
    const matrix = haversineMatrix([a, b, { latitude: 39.95, longitude: -75.17 }]);
    expect(matrix.data[1]).toBe(matrix.data[3]);
    expect(matrix.data[0]).toBe(0);
  });

  it("refuses a distance that is negative or not a number", () => {
    expect(() => symmetricMatrix(2, () => -1)).toThrow(RangeError);
    expect(() => symmetricMatrix(2, () => NaN)).toThrow(RangeError);
  });
});

describe("Held–Karp reference solver", () => {
  it("agrees with trying every order, for open paths and closed tours", () => {
    for (let seed = 1; seed <= 12; seed++) {
      const matrix = euclidean(randomPoints(seed, 2 + (seed % 6)));
      for (const closed of [false, true]) {
        const exact = heldKarp(matrix, { closed });
        expectPathFromZero(exact.order, matrix.size);
        expect(routeLength(matrix, exact.order, closed)).toBeCloseTo(exact.length, 9);
        expect(exact.length).toBeCloseTo(bruteForce(matrix, closed), 9);
      }
    }
  });
});

describe("open path from the pharmacy (node 0)", () => {
  it("is a path through every node that starts at node 0, for any instance", () => {
    fc.assert(
      fc.property(pointsArbitrary(0, 25), (points) => {
        expectPathFromZero(optimisePath(euclidean(points), { ...untimed, iterations: 200 }).order, points.length);
      }),
      { numRuns: 60 },
    );
  });

  it("is never longer than visiting the stops in the order given", () => {
    fc.assert(
      fc.property(pointsArbitrary(1, 30), fc.integer({ min: 0, max: 50 }), (points, iterations) => {
        const matrix = euclidean(points);
        const identity = points.map((_, i) => i);
        expect(optimisePath(matrix, { ...untimed, iterations }).length).toBeLessThanOrEqual(routeLength(matrix, identity, false) + 1e-9);
      }),
      { numRuns: 60 },
    );
  });

  it("returns the input order when the search alone would not have found anything as short", () => {
    // Inputs already in their optimal order, with no rounds of perturbation:
    // construction + local search alone miss the optimum on some of these.
    for (let seed = 1; seed <= 40; seed++) {
      const points = randomPoints(3000 + seed, 13);
      const optimal = heldKarp(euclidean(points), { closed: false });
      const ordered = optimal.order.map((node) => points[node]!);
      const matrix = euclidean(ordered);
      expect(optimisePath(matrix, { ...untimed, iterations: 0 }).length, `seed ${seed}`).toBeCloseTo(optimal.length, 9);
      const tour = heldKarp(matrix, { closed: true });
      const tourMatrix = euclidean(tour.order.map((node) => ordered[node]!));
      expect(optimiseTour(tourMatrix, { ...untimed, iterations: 0 }).length, `seed ${seed}`).toBeCloseTo(tour.length, 9);
    }
  });

  it("keeps the given order when it is already the best one", () => {
    const line = Array.from({ length: 20 }, (_, i) => [i * 10, 0] as const);
    expect(optimisePath(euclidean(line), untimed).order).toEqual(line.map((_, i) => i));
  });

  it("gives the same answer for the same input, and the seed is what varies it", () => {
    const matrix = euclidean(randomPoints(99, 80));
    const first = optimisePath(matrix, { ...untimed, seed: 7 });
    expect(optimisePath(matrix, { ...untimed, seed: 7 })).toEqual(first);
    expect(optimisePath(matrix, untimed)).toEqual(optimisePath(matrix, untimed));
  });

  it("finds the optimum of small instances, as Held–Karp proves", () => {
    for (let seed = 1; seed <= 60; seed++) {
      const matrix = euclidean(randomPoints(1000 + seed, 2 + (seed % 12)));
      const exact = heldKarp(matrix, { closed: false });
      const found = optimisePath(matrix, untimed);
      expectPathFromZero(found.order, matrix.size);
      expect(found.length, `seed ${seed}`).toBeCloseTo(exact.length, 6);
    }
  });

  it("handles stops at the same address, and every stop at the pharmacy's", () => {
    const shared = [[0, 0], [5, 5], [5, 5], [9, 1], [5, 5], [9, 1], [0, 0], [3, 8]] as const;
    const matrix = euclidean(shared);
    const found = optimisePath(matrix, untimed);
    expectPathFromZero(found.order, shared.length);
    expect(found.length).toBeCloseTo(heldKarp(matrix, { closed: false }).length, 9);

    const allHere = euclidean(Array.from({ length: 6 }, () => [4, 4] as const));
    expect(optimisePath(allHere, untimed)).toMatchObject({ order: [0, 1, 2, 3, 4, 5], length: 0 });
  });

  it("sends the courier to the nearer of two stops first", () => {
    const matrix = euclidean([[0, 0], [10, 0], [3, 0]]);
    expect(optimisePath(matrix, untimed).order).toEqual([0, 2, 1]);
  });

  it("may start anywhere when asked, choosing the cheaper way through", () => {
    const matrix = euclidean([[5, 0], [0, 0], [10, 0], [7, 0]]);
    const found = optimisePath(matrix, { ...untimed, start: null });
    expect(found.length).toBe(10);
    expect([found.order[0], found.order[3]].sort()).toEqual([1, 2]);
  });

  it("stops when its time guard runs out and still answers with a valid path no worse than the input", () => {
    let clock = 0;
    const matrix = euclidean(randomPoints(5, 60));
    const found = optimisePath(matrix, { timeLimitMs: 10, now: () => (clock += 100) });
    expect(found.timedOut).toBe(true);
    expect(found.iterations).toBe(0);
    expectPathFromZero(found.order, 60);
    expect(found.length).toBeLessThanOrEqual(routeLength(matrix, found.order.map((_, i) => i), false));
  });

  it("counts the caller's own preparation against the time guard when told when it started", () => {
    const matrix = euclidean(randomPoints(6, 30));
    const fresh = optimiseTour(matrix, { timeLimitMs: 10, now: () => 1000 });
    const late = optimiseTour(matrix, { timeLimitMs: 10, now: () => 1000, startedAt: 900 });
    expect(fresh.timedOut).toBe(false);
    expect(late).toMatchObject({ timedOut: true, iterations: 0 });
  });

  it("refuses a start that is not a node and a starting tour that is not a permutation", () => {
    const matrix = euclidean(randomPoints(3, 5));
    expect(() => optimisePath(matrix, { start: 5 })).toThrow(RangeError);
    expect(() => optimisePath(matrix, { initialOrder: [0, 1, 1, 2, 3] })).toThrow(RangeError);
  });
});

describe("closed tour core", () => {
  it("traces points on a circle in circle order", () => {
    const circle = Array.from({ length: 40 }, (_, i) => [Math.cos((i * 2 * Math.PI) / 40), Math.sin((i * 2 * Math.PI) / 40)] as const);
    const random = seededRandom(24);
    const shuffled = [...circle];
    for (let i = shuffled.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [shuffled[i], shuffled[j]] = [shuffled[j]!, shuffled[i]!];
    }
    const found = optimiseTour(euclidean(shuffled), untimed);
    expect(found.tour[0]).toBe(0);
    expect(found.length).toBeCloseTo(40 * 2 * Math.sin(Math.PI / 40), 9);
  });

  it("matches Held–Karp on small closed tours", () => {
    for (let seed = 1; seed <= 30; seed++) {
      const matrix = euclidean(randomPoints(2000 + seed, 3 + (seed % 11)));
      expect(optimiseTour(matrix, untimed).length, `seed ${seed}`).toBeCloseTo(heldKarp(matrix, { closed: true }).length, 6);
    }
  });
});

describe("planning a round from the pharmacy's and the orders' coordinates", () => {
  const pharmacy: LatLng = { latitude: 39.9496, longitude: -75.2115 };
  const at = (id: number, latitude: number | null, longitude: number | null) => ({ id, latitude, longitude });

  it("answers nothing for no stops and the one stop for one", () => {
    expect(planDrivingOrder(pharmacy, [])).toEqual([]);
    expect(planDrivingOrder(pharmacy, [at(7, 39.95, -75.2)])).toEqual([7]);
  });

  it("answers rounds of up to 11 stops exactly, and larger ones along a path from the pharmacy", () => {
    for (const count of [5, 11, 12, 20]) {
      const random = seededRandom(count);
      const stops = Array.from({ length: count }, (_, i) => at(100 + i, 39.9 + random() * 0.1, -75.25 + random() * 0.1));
      const order = planDrivingOrder(pharmacy, stops, untimed);
      expect([...order].sort((a, b) => a - b)).toEqual(stops.map((stop) => stop.id));
      const points = [pharmacy, ...order.map((id) => stops.find((stop) => stop.id === id)! as LatLng)];
      const length = routeLength(haversineMatrix(points), points.map((_, i) => i), false);
      if (count <= 11) expect(length).toBeCloseTo(heldKarp(haversineMatrix([pharmacy, ...(stops as LatLng[])]), { closed: false }).length, 6);
    }
  });

  it("keeps the order given when another is no shorter, so asking again does not reshuffle a routed list", () => {
    // Three orders at one address: six equally short rounds.
    const sameDoor = [at(3, 39.9468, -75.1612), at(1, 39.9468, -75.1612), at(2, 39.9468, -75.1612)];
    expect(planDrivingOrder(pharmacy, sameDoor)).toEqual([3, 1, 2]);
    expect(planDrivingOrder(pharmacy, [sameDoor[2]!, sameDoor[0]!, sameDoor[1]!])).toEqual([2, 3, 1]);
  });

  it("puts stops without coordinates last, in the order given", () => {
    const stops = [at(1, null, null), at(2, 39.96, -75.2), at(3, 39.95, null), at(4, 39.9497, -75.2114)];
    expect(planDrivingOrder(pharmacy, stops, untimed)).toEqual([4, 2, 1, 3]);
    expect(planDrivingOrder(pharmacy, [at(5, null, null), at(6, null, null)])).toEqual([5, 6]);
  });

  it("without the pharmacy's coordinates still orders the stops along a shortest path", () => {
    const stops = [at(1, 39.95, -75.2), at(2, 39.95, -75.1), at(3, 39.95, -75.15)];
    const order = planDrivingOrder(null, stops, untimed);
    expect(order[1]).toBe(3);
    expect(new Set(order)).toEqual(new Set([1, 2, 3]));
  });
});
