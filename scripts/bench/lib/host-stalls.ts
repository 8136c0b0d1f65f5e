import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import os from "node:os";
import { promisify } from "node:util";
import { TICKS_PER_SECOND } from "./cpu.ts";

/**
 * Whether the host stopped this guest's virtual CPUs while the bench measured. A guest whose CPU the hypervisor
 * holds now and then stretches whichever task it lands in: Lighthouse's main-thread work runs 1.5–1.7× the page's
 * thread time on such a guest, and a slice of the app's start that would have ended under Lantern's 10 ms line
 * counts whole in TBT (scripts/bench/notes.ts). The same build's low-tier scores and TBT missed their budgets on a
 * guest that stalled and met them with room on one that did not, so a record says which kind of guest it came from.
 */

export interface CpuStalls {
  cpu: number;
  /** Wakes that came more than LATE_MS after the 1 ms sleep asked for. */
  lateWakes: number;
  /** The time lost in them, beyond the 1 ms asked for. */
  lostMs: number;
  worstMs: number;
}

export interface HostStalls {
  probeSeconds: number;
  /** Whether the probe ran at real-time priority (root): then only the hypervisor, or the kernel, can make it late. */
  realTime: boolean;
  perCpu: CpuStalls[];
}

/** The probe before the runs, with the steal time over them. */
export type HostStallsRecord = HostStalls & { stealDuringRunsMs: number | null };

/** Later than this beyond the 1 ms asked for is a stall, not timer slack. */
export const LATE_MS = 2;

/**
 * A guest that stalls loses at least this much per second of probing on some CPU (1 ms/s, 0.1%).
 * The guest the first-screen bench ran on at 2026-12-06 14:44 UTC lost 4.8 ms/s on its CPU 0; a quiet one loses nothing, or a single wake of a few ms now and then.
 */
const STALLED_MS_PER_SECOND = 1;

export function guestStalls(stalls: HostStalls): boolean {
  return stalls.perCpu.some((cpu) => cpu.lostMs >= STALLED_MS_PER_SECOND * stalls.probeSeconds);
}

/**
 * One CPU's probe: sleeps 1 ms at a time (Atomics.wait, not the event loop's timers) and sums how late it wakes.
 * Prints its CpuStalls fields as JSON.
 */
const PROBE = `
const [seconds, late] = process.argv.slice(1).map(Number);
const cell = new Int32Array(new SharedArrayBuffer(4));
const end = performance.now() + seconds * 1000;
let lateWakes = 0, lostMs = 0, worstMs = 0;
while (performance.now() < end) {
  const asked = performance.now();
  Atomics.wait(cell, 0, 0, 1);
  const beyond = performance.now() - asked - 1;
  if (beyond > late) { lateWakes++; lostMs += beyond; worstMs = Math.max(worstMs, beyond); }
}
console.log(JSON.stringify({ lateWakes, lostMs: Math.round(lostMs), worstMs: Math.round(worstMs * 10) / 10 }));
`;

const run = promisify(execFile);

async function probeCpu(cpu: number, seconds: number, realTime: boolean): Promise<CpuStalls> {
  const node = [process.execPath, "-e", PROBE, String(seconds), String(LATE_MS)];
  const command = realTime ? ["chrt", "--fifo", "50", ...node] : node;
  const { stdout } = await run("taskset", ["--cpu-list", String(cpu), ...command]);
  return { cpu, ...(JSON.parse(stdout) as Omit<CpuStalls, "cpu">) };
}

/** Probes every CPU at once for `seconds`, pinned one probe per CPU; at real-time priority where permitted. */
export async function probeHostStalls(seconds: number): Promise<HostStalls> {
  const cpus = os.cpus().map((_, cpu) => cpu);
  const probeAll = (realTime: boolean) => Promise.all(cpus.map((cpu) => probeCpu(cpu, seconds, realTime)));
  try {
    return { probeSeconds: seconds, realTime: true, perCpu: await probeAll(true) };
  } catch {
    // Not root, or a container without CAP_SYS_NICE: the probe then also counts waits behind the guest's own processes.
    return { probeSeconds: seconds, realTime: false, perCpu: await probeAll(false) };
  }
}

/** CPU time the hypervisor gave to others while this guest wanted it (steal, /proc/stat), all CPUs, in ms; null where not reported. */
export function stealMs(): number | null {
  try {
    const fields = /^cpu\s+(.*)$/m.exec(readFileSync("/proc/stat", "utf8"))?.[1]?.trim().split(/\s+/).map(Number);
    const steal = fields?.[7];
    return steal === undefined || Number.isNaN(steal) ? null : (steal * 1000) / TICKS_PER_SECOND;
  } catch {
    return null;
  }
}

/** The report's sentence. */
export function hostStallsText(stalls: HostStallsRecord): string {
  const cpus = stalls.perCpu
    .map((cpu) => (cpu.lateWakes === 0 ? `CPU ${cpu.cpu} none` : `CPU ${cpu.cpu} ${cpu.lateWakes} (${cpu.lostMs} ms, up to ${cpu.worstMs} ms at once)`))
    .join(", ");
  const steal = stalls.stealDuringRunsMs === null ? "" : `; the hypervisor's steal time over the measured runs ${stalls.stealDuringRunsMs} ms on all CPUs (/proc/stat)`;
  return `Host stalls, probed before the runs for ${stalls.probeSeconds} s by a process pinned to each CPU${stalls.realTime ? " at real-time priority" : ""} waking every millisecond (a wake more than ${LATE_MS} ms late counts): ${cpus}${steal}.${guestStalls(stalls) ? " **This guest stops its virtual CPUs now and then**: a task a stall lands in runs longer on the wall clock, so the low-tier TBT and scores of every page scatter more (scripts/bench/notes.ts)." : ""}`;
}
