import { execFileSync } from "node:child_process";
import os from "node:os";

/** What the figures were measured on: they mean little without it. */
export interface MachineDescription {
  cpu: string;
  cores: number;
  memoryGiB: number;
  node: string;
  os: string;
  /** 1-minute load average when asked: on a shared machine it says how much of the CPU a run really had. */
  loadAverage: number;
}

let release: string | null = null;
function osRelease(): string {
  if (release !== null) return release;
  try {
    const text = execFileSync("sh", ["-c", "cat /etc/os-release 2>/dev/null"], { encoding: "utf8" });
    release = /^PRETTY_NAME="?([^"\n]*)"?/m.exec(text)?.[1] ?? "";
  } catch {
    release = "";
  }
  return release;
}

export function describeMachine(): MachineDescription {
  return {
    cpu: os.cpus()[0]?.model.trim() ?? "unknown",
    cores: os.cpus().length,
    memoryGiB: Math.round((os.totalmem() / 1024 ** 3) * 10) / 10,
    node: process.version,
    os: [`${os.type()} ${os.release()}`, osRelease()].filter(Boolean).join(", "),
    loadAverage: round(os.loadavg()[0] ?? 0, 2),
  };
}

export function machineLine(machine: MachineDescription): string {
  return `${machine.cpu}, ${machine.cores} cores, ${machine.memoryGiB} GiB, Node ${machine.node}, ${machine.os}`;
}

export const round = (value: number, places = 1): number => Number(value.toFixed(places));

export function median(values: readonly number[]): number {
  return percentile(values, 50);
}

/** Nearest-rank percentile (p in 0..100) of unsorted values; NaN when empty. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return sorted[Math.min(sorted.length, rank) - 1]!;
}

export const today = (): string => new Date().toISOString().slice(0, 10);
