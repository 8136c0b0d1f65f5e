import { readdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { AnyStateMachine } from "xstate";

/**
 * The machines, found by file: every machines/*.machine.ts and the state
 * machines it exports. A new machine file is documented without touching
 * this list.
 */

export const ROOT = fileURLToPath(new URL("../..", import.meta.url));

export interface MachineEntry {
  /** The doc name: the file's base name ("delivery-flow"). */
  name: string;
  /** machines/<name>.machine.ts */
  file: string;
  exportName: string;
  machine: AnyStateMachine;
}

export function isStateMachine(value: unknown): value is AnyStateMachine {
  return typeof value === "object" && value !== null && "root" in value && "config" in value && "implementations" in value;
}

export function machineFiles(): string[] {
  return readdirSync(path.join(ROOT, "machines"))
    .filter((file) => file.endsWith(".machine.ts"))
    .sort()
    .map((file) => `machines/${file}`);
}

export async function discoverMachines(): Promise<MachineEntry[]> {
  const entries: MachineEntry[] = [];
  for (const file of machineFiles()) {
    const base = path.basename(file, ".machine.ts");
    const module = (await import(pathToFileURL(path.join(ROOT, file)).href)) as Record<string, unknown>;
    const machines = Object.entries(module).filter((entry): entry is [string, AnyStateMachine] => isStateMachine(entry[1]));
    if (machines.length === 0) throw new Error(`${file} exports no state machine`);
    for (const [exportName, machine] of machines) {
      entries.push({ name: machines.length === 1 ? base : `${base}-${machine.id}`, file, exportName, machine });
    }
  }
  return entries;
}
