import type { AnyStateMachine } from "xstate";
import { machineModel, type MachineModel } from "./machine-model.ts";

/**
 * Every machine of the courier app in machines/*.machine.ts, found by file at
 * build time (a new machine appears here by itself); the dispatch console's
 * (console-*) are not the courier's to read. Loaded with the /machines page only.
 */

export interface CatalogueEntry {
  /** The file's base name, as in docs/machines/<name>.md. */
  name: string;
  model: MachineModel;
}

const modules = import.meta.glob<Record<string, unknown>>(["../../../machines/*.machine.ts", "!../../../machines/console-*.machine.ts"], { eager: true });

const isStateMachine = (value: unknown): value is AnyStateMachine =>
  typeof value === "object" && value !== null && "root" in value && "config" in value && "implementations" in value;

export const MACHINES: readonly CatalogueEntry[] = Object.entries(modules)
  .sort(([a], [b]) => a.localeCompare(b))
  .flatMap(([file, exports]) => {
    const base = file.replace(/^.*\//, "").replace(/\.machine\.ts$/, "");
    const machines = Object.values(exports).filter(isStateMachine);
    return machines.map((machine) => ({ name: machines.length === 1 ? base : `${base}-${machine.id}`, model: machineModel(machine) }));
  });
