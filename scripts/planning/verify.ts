/**
 * An outside check of a benchmark answer, written from the instance file
 * alone (not with domain/planning.ts): every customer visited once, pickups
 * before their deliveries on the same route, capacity, windows with waiting,
 * return to the depot by its due date; the distance recomputed in double
 * precision. The bench trusts this, not the planner's own figures.
 */
import type { InstanceFormat } from "./instances.ts";

export interface Verdict {
  feasible: boolean;
  problems: string[];
  distance: number;
  vehicles: number;
  served: number;
}

export function verifyRoutes(text: string, format: InstanceFormat, routes: number[][]): Verdict {
  const rows = text.split(/\r?\n/).map((line) => line.trim().split(/\s+/).map(Number)).filter((row) => row.length >= (format === "solomon" ? 7 : 9) && row.every(Number.isFinite));
  const capacity = format === "solomon"
    ? (() => { const lines = text.split(/\r?\n/); const at = lines.findIndex((l) => /NUMBER\s+CAPACITY/i.test(l)); return Number(lines[at + 1]!.trim().split(/\s+/)[1]); })()
    : Number(text.trim().split(/\s+/)[1]);
  const nodes = new Map<number, number[]>();
  for (const row of rows) nodes.set(row[0]!, row);
  const depot = nodes.get(0)!;
  const problems: string[] = [];
  const visits = new Map<number, number>();
  const d = (a: number[], b: number[]) => Math.sqrt((a[1]! - b[1]!) ** 2 + (a[2]! - b[2]!) ** 2);
  let distance = 0;
  routes.forEach((route, r) => {
    let place = depot;
    let time = depot[4]!;
    let load = format === "solomon" ? route.reduce((sum, n) => sum + (nodes.get(n)?.[3] ?? 0), 0) : 0;
    if (load > capacity) problems.push(`route ${r}: load ${load} over ${capacity}`);
    const position = new Map<number, number>();
    route.forEach((number, i) => {
      const node = nodes.get(number);
      if (!node || number === 0) return void problems.push(`route ${r}: no customer ${number}`);
      visits.set(number, (visits.get(number) ?? 0) + 1);
      position.set(number, i);
      distance += d(place, node);
      time = Math.max(time + d(place, node), node[4]!);
      if (time > node[5]!) problems.push(`route ${r}: ${number} served at ${time}, due ${node[5]}`);
      time += node[6]!;
      load += format === "solomon" ? -node[3]! : node[3]!;
      if (load > capacity) problems.push(`route ${r}: load ${load} over ${capacity} at ${number}`);
      place = node;
    });
    distance += d(place, depot);
    time += d(place, depot);
    if (time > depot[5]!) problems.push(`route ${r}: back at ${time}, depot closes ${depot[5]}`);
    if (format === "lilim") {
      for (const [number, i] of position) {
        const pickup = nodes.get(number)![7]!;
        if (pickup !== 0 && !((position.get(pickup) ?? Infinity) < i)) problems.push(`route ${r}: delivery ${number} before or without its pickup ${pickup}`);
      }
    }
  });
  for (const number of nodes.keys()) if (number !== 0 && visits.get(number) !== 1) problems.push(`customer ${number} visited ${visits.get(number) ?? 0} times`);
  return { feasible: problems.length === 0, problems, distance, vehicles: routes.filter((route) => route.length > 0).length, served: visits.size };
}
