/**
 * A seeded pseudo-random generator (mulberry32). The optimiser draws its
 * perturbations from it so the same input always gives the same route: a
 * courier who refreshes does not see the list reshuffle.
 */
export type Random = () => number;

/** Uniform in [0, 1), fully determined by the 32-bit seed. */
export function seededRandom(seed: number): Random {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** An integer in [0, maxExclusive). */
export function randomInt(random: Random, maxExclusive: number): number {
  return Math.floor(random() * maxExclusive);
}
