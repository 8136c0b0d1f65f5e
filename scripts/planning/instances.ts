/**
 * The public benchmark formats (../shared/benchmarks/README.md) read into a
 * PlanProblem: Solomon's VRPTW (every customer a delivery whose load is on
 * board from the depot) and Li & Lim's PDPTW (pickup and delivery pairs).
 * Distances and travel times are Euclidean in double precision, the
 * literature's convention; node 0 is the depot, where every route starts and
 * ends within the depot's window.
 */
import type { PlanProblem, PlanTask } from "../../domain/planning.ts";

export type InstanceFormat = "solomon" | "lilim";

interface Node {
  number: number;
  x: number;
  y: number;
  demand: number;
  ready: number;
  due: number;
  service: number;
  pickupSibling: number;
  deliverySibling: number;
}

export interface Instance {
  problem: PlanProblem;
  /** The instance's node number at each location index (for the benchmark's output). */
  nodeNumbers: number[];
  /** For each task, the node number of its delivery (Solomon) or its pickup and delivery (Li & Lim). */
  capacity: number;
  fleet: number;
}

function numbers(line: string): number[] {
  return line.trim().split(/\s+/).filter(Boolean).map(Number);
}

export function parseInstance(text: string, format: InstanceFormat, vehicles?: number): Instance {
  const lines = text.split(/\r?\n/);
  let fleet: number;
  let capacity: number;
  const nodes: Node[] = [];
  if (format === "solomon") {
    const header = lines.findIndex((line) => /NUMBER\s+CAPACITY/i.test(line));
    if (header < 0) throw new Error("Not a Solomon instance: no VEHICLE NUMBER CAPACITY header.");
    [fleet, capacity] = numbers(lines[header + 1]!) as [number, number];
    const customers = lines.findIndex((line) => /CUST\s*NO/i.test(line));
    for (const line of lines.slice(customers + 1)) {
      const row = numbers(line);
      if (row.length < 7) continue;
      const [number, x, y, demand, ready, due, service] = row as [number, number, number, number, number, number, number];
      nodes.push({ number, x, y, demand, ready, due, service, pickupSibling: 0, deliverySibling: 0 });
    }
  } else {
    const first = lines.findIndex((line) => line.trim() !== "");
    [fleet, capacity] = numbers(lines[first]!) as [number, number];
    for (const line of lines.slice(first + 1)) {
      const row = numbers(line);
      if (row.length < 9) continue;
      const [number, x, y, demand, ready, due, service, pickupSibling, deliverySibling] = row as [number, number, number, number, number, number, number, number, number];
      nodes.push({ number, x, y, demand, ready, due, service, pickupSibling, deliverySibling });
    }
  }
  if (!Number.isFinite(fleet) || !Number.isFinite(capacity) || nodes.length === 0) throw new Error("The instance has no fleet line or no nodes.");
  const depotIndex = nodes.findIndex((node) => node.number === 0);
  if (depotIndex < 0) throw new Error("The instance has no node 0 (the depot).");
  const indexOf = new Map(nodes.map((node, i) => [node.number, i]));
  const matrix = nodes.map((a) => nodes.map((b) => Math.sqrt((a.x - b.x) * (a.x - b.x) + (a.y - b.y) * (a.y - b.y))));
  const depot = nodes[depotIndex]!;
  const spec = (node: Node) => ({ location: indexOf.get(node.number)!, windowStart: node.ready, windowEnd: node.due, service: node.service });
  const tasks: PlanTask[] = [];
  for (const node of nodes) {
    if (node.number === 0) continue;
    if (format === "solomon") tasks.push({ id: String(node.number), delivery: spec(node), size: node.demand });
    else if (node.pickupSibling === 0) {
      const delivery = nodes[indexOf.get(node.deliverySibling) ?? -1];
      if (!delivery) throw new Error(`Pickup ${node.number} names a delivery ${node.deliverySibling} the instance does not have.`);
      tasks.push({ id: String(node.number), pickup: spec(node), delivery: spec(delivery), size: node.demand });
    }
  }
  const count = vehicles ?? fleet;
  return {
    problem: {
      travel: matrix,
      distance: matrix,
      tasks,
      vehicles: Array.from({ length: count }, (_, v) => ({ id: String(v + 1), start: depotIndex, end: depotIndex, shiftStart: depot.ready, shiftEnd: depot.due, capacity })),
    },
    nodeNumbers: nodes.map((node) => node.number),
    capacity,
    fleet,
  };
}
