/**
 * Standard TSPLIB instances (Reinelt, 1991) embedded as data so the routing
 * benchmark runs offline. Both are EUC_2D: distances are Euclidean rounded
 * to the nearest integer, the convention the known optima are stated in.
 */
export interface TsplibInstance {
  name: string;
  comment: string;
  /** Proven optimal closed-tour length. */
  optimum: number;
  coordinates: readonly (readonly [number, number])[];
}

const pairs = (flat: readonly number[]) => {
  const out: [number, number][] = [];
  for (let i = 0; i < flat.length; i += 2) out.push([flat[i]!, flat[i + 1]!]);
  return out;
};

export const berlin52: TsplibInstance = {
  name: "berlin52",
  comment: "52 locations in Berlin (Groetschel)",
  optimum: 7542,
  coordinates: pairs([
    565, 575, 25, 185, 345, 750, 945, 685, 845, 655, 880, 660, 25, 230, 525, 1000, 580, 1175, 650, 1130,
    1605, 620, 1220, 580, 1465, 200, 1530, 5, 845, 680, 725, 370, 145, 665, 415, 635, 510, 875, 560, 365,
    300, 465, 520, 585, 480, 415, 835, 625, 975, 580, 1215, 245, 1320, 315, 1250, 400, 660, 180, 410, 250,
    420, 555, 575, 665, 1150, 1160, 700, 580, 685, 595, 685, 610, 770, 610, 795, 645, 720, 635, 760, 650,
    475, 960, 95, 260, 875, 920, 700, 500, 555, 815, 830, 485, 1170, 65, 830, 610, 605, 625, 595, 360,
    1340, 725, 1740, 245,
  ]),
};

/** The published optimal tour of berlin52 (1-based), used to check the embedded coordinates. */
export const berlin52OptimalTour = [
  1, 49, 32, 45, 19, 41, 8, 9, 10, 43, 33, 51, 11, 52, 14, 13, 47, 26, 27, 28, 12, 25, 4, 6, 15, 5, 24, 48, 38, 37,
  40, 39, 36, 35, 34, 44, 46, 16, 29, 50, 20, 23, 30, 2, 7, 42, 21, 17, 3, 18, 31, 22,
];

export const eil51: TsplibInstance = {
  name: "eil51",
  comment: "51-city problem (Christofides/Eilon)",
  optimum: 426,
  coordinates: pairs([
    37, 52, 49, 49, 52, 64, 20, 26, 40, 30, 21, 47, 17, 63, 31, 62, 52, 33, 51, 21,
    42, 41, 31, 32, 5, 25, 12, 42, 36, 16, 52, 41, 27, 23, 17, 33, 13, 13, 57, 58,
    62, 42, 42, 57, 16, 57, 8, 52, 7, 38, 27, 68, 30, 48, 43, 67, 58, 48, 58, 27,
    37, 69, 38, 46, 46, 10, 61, 33, 62, 63, 63, 69, 32, 22, 45, 35, 59, 15, 5, 6,
    10, 17, 21, 10, 5, 64, 30, 15, 39, 10, 32, 39, 25, 32, 25, 55, 48, 28, 56, 37,
    30, 40,
  ]),
};

/** TSPLIB's EUC_2D distance: nint of the Euclidean distance. */
export function euc2d(a: readonly [number, number], b: readonly [number, number]): number {
  return Math.floor(Math.hypot(a[0] - b[0], a[1] - b[1]) + 0.5);
}
