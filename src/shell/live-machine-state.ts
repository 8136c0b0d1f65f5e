import { useSyncExternalStore } from "react";

/**
 * The state a running machine is in, as its screen last reported it, for the
 * /machines page to highlight ("during a delivery, the step the courier is
 * on"). A flow calls reportMachineState(machine.id, snapshot.value) when its
 * state changes, and reportMachineState(id, null) when it is over. Kept in
 * sessionStorage so it survives navigating to the page and back, and goes
 * with the tab; state values only (never context: it holds patient data).
 */

const STORAGE_KEY = "rx-courier.live-machine-states";

type LiveStates = Readonly<Record<string, unknown>>;

const listeners = new Set<() => void>();
let cache: LiveStates | null = null;

function storage(): Storage | null {
  try {
    return typeof sessionStorage === "undefined" ? null : sessionStorage;
  } catch {
    // Storage can be refused (privacy settings): the highlight then lasts as long as the page.
    return null;
  }
}

function read(): LiveStates {
  if (cache) return cache;
  try {
    const stored = storage()?.getItem(STORAGE_KEY);
    const parsed: unknown = stored ? JSON.parse(stored) : {};
    cache = parsed && typeof parsed === "object" && !Array.isArray(parsed) ? (parsed as LiveStates) : {};
  } catch {
    cache = {};
  }
  return cache;
}

export function reportMachineState(machineId: string, stateValue: unknown): void {
  const current = read();
  const next: Record<string, unknown> = { ...current };
  if (stateValue === null || stateValue === undefined) delete next[machineId];
  else next[machineId] = JSON.parse(JSON.stringify(stateValue)) as unknown;
  if (JSON.stringify(next) === JSON.stringify(current)) return;
  cache = next;
  try {
    storage()?.setItem(STORAGE_KEY, JSON.stringify(next));
  } catch {
    // Full or refused storage: the in-memory copy still serves this page.
  }
  listeners.forEach((listener) => listener());
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The last reported state value of a machine, or null when none is running. */
export function useLiveMachineState(machineId: string): unknown {
  return useSyncExternalStore(
    subscribe,
    () => read()[machineId] ?? null,
    () => null,
  );
}
