import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { Simulation } from "lighthouse/core/lib/lantern/lantern.js";

/**
 * What Lantern, Lighthouse's simulation, made of one load: for each metric's simulation (optimistic and
 * pessimistic FCP, LCP, TBT, …) every request and main-thread task it replayed, with its simulated start
 * and end on the emulated phone. A look at why a simulated figure is what it is (which request ended the
 * largest paint, which tasks count as blocking): the observed trace does not say. Decision 0046 came from it.
 */

interface SimulatedNode {
  kind: "network" | "cpu";
  /** A request's path, or a task's heaviest trace events (name[:script] and their real time in ms). */
  what: string;
  transferBytes?: number;
  /** The connection the browser used, which Lantern reuses. */
  connection?: string;
  startMs: number;
  endMs: number;
}

interface LanternNode {
  type: "network" | "cpu";
  request?: { url: string; transferSize: number; connectionId: string | number };
  childEvents?: { name: string; dur?: number; args?: { data?: { url?: string } } }[];
}

const HEAVIEST_EVENTS = 6;

function describe(node: LanternNode): Pick<SimulatedNode, "kind" | "what" | "transferBytes" | "connection"> {
  if (node.type === "network" && node.request) {
    const { pathname, search } = new URL(node.request.url);
    return { kind: "network", what: pathname + search, transferBytes: node.request.transferSize, connection: String(node.request.connectionId) };
  }
  const totals = new Map<string, number>();
  for (const event of node.childEvents ?? []) {
    const script = event.args?.data?.url ? `:${path.basename(event.args.data.url)}` : "";
    totals.set(event.name + script, (totals.get(event.name + script) ?? 0) + (event.dur ?? 0) / 1000);
  }
  const heaviest = [...totals].sort((a, b) => b[1] - a[1]).slice(0, HEAVIEST_EVENTS);
  return { kind: "cpu", what: heaviest.map(([name, ms]) => `${name} ${ms.toFixed(1)}`).join(", ") };
}

/** Writes the simulations of the run Lighthouse just finished to `dir/name.json`, and forgets them (they are kept per process). */
export function saveLanternTimings(dir: string, name: string): void {
  const simulations: Record<string, SimulatedNode[]> = {};
  for (const [label, timings] of Simulation.Simulator.allNodeTimings) {
    simulations[label] = [...(timings as Map<LanternNode, { startTime: number; endTime: number }>)]
      .map(([node, timing]) => ({ ...describe(node), startMs: Math.round(timing.startTime), endMs: Math.round(timing.endTime) }))
      .sort((a, b) => a.startMs - b.startMs);
  }
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, `${name}.lantern.json`), JSON.stringify(simulations, null, 1));
  Simulation.Simulator.allNodeTimings.clear();
}
