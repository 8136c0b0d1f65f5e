import { readdirSync, readFileSync } from "node:fs";
import { processStat } from "./cpu.ts";

/**
 * Waiting, between two measured loads, until the bench's browser has nothing
 * left to do. A page's work can outlive its measurement: a service worker
 * installing (~60 requests and cache writes), storage being written, a
 * renderer shutting down. Run into the next load, it would be counted as that
 * load's (on a 2-core host a page's task waits for a core), whichever page
 * that is, the bare page included. Linux only, as the benches are (/proc).
 */

/** The CPU time (ms) used so far by a process and each descendant of it still running, by pid. */
export function processTreeCpuMs(rootPid: number): Map<number, number> {
  const stats = readdirSync("/proc")
    .filter((name) => /^\d+$/.test(name))
    .flatMap((name) => {
      const stat = processStat(Number(name));
      return stat ? [{ pid: Number(name), ...stat }] : [];
    });
  type Running = (typeof stats)[number];
  const children = new Map<number, Running[]>();
  for (const stat of stats) children.set(stat.parent, [...(children.get(stat.parent) ?? []), stat]);
  const used = new Map<number, number>();
  const visit = (stat: Running) => {
    used.set(stat.pid, stat.cpuSeconds * 1000);
    for (const child of children.get(stat.pid) ?? []) visit(child);
  };
  const root = stats.find((stat) => stat.pid === rootPid);
  if (root) visit(root);
  return used;
}

/** CPU time used between two readings by the processes running at the second (one started meanwhile counts whole). */
function usedBetween(before: Map<number, number>, after: Map<number, number>): number {
  let ms = 0;
  for (const [pid, total] of after) ms += total - (before.get(pid) ?? 0);
  return ms;
}

/** The browser's own process: the one started with this remote-debugging port. */
export function browserPid(debuggingPort: number): number {
  const flag = `--remote-debugging-port=${debuggingPort}`;
  for (const name of readdirSync("/proc").filter((entry) => /^\d+$/.test(entry))) {
    try {
      if (readFileSync(`/proc/${name}/cmdline`, "utf8").split("\0").includes(flag)) return Number(name);
    } catch {
      // Gone meanwhile.
    }
  }
  throw new Error(`no process started with ${flag}`);
}

export interface QuietOptions {
  /** A quiet window: the browser used less than `maxShare` of one core in it. */
  windowMs?: number;
  maxShare?: number;
  /** Give up after this long (a page that never settles is the next run's problem, and the log says so). */
  maxWaitMs?: number;
}

/** Waits until the process tree used less than `maxShare` of a core over `windowMs`; resolves with how long it waited. */
export async function untilQuiet(rootPid: number, { windowMs = 500, maxShare = 0.05, maxWaitMs = 15_000 }: QuietOptions = {}): Promise<{ waitedMs: number; quiet: boolean }> {
  const startedAt = Date.now();
  let before = processTreeCpuMs(rootPid);
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, windowMs));
    const after = processTreeCpuMs(rootPid);
    const waitedMs = Date.now() - startedAt;
    if (usedBetween(before, after) < windowMs * maxShare) return { waitedMs, quiet: true };
    if (waitedMs >= maxWaitMs) return { waitedMs, quiet: false };
    before = after;
  }
}
