/**
 * Resolves in a task of its own, ahead of other queued work where the browser
 * has scheduler.yield(): the phone handles a tap and paints between two pieces
 * of start-up work, instead of one long task (issue 29: on a low-tier phone
 * every task over 50 ms blocks the courier).
 */
export function nextTask(): Promise<void> {
  const scheduler = (globalThis as { scheduler?: { yield?: () => Promise<void> } }).scheduler;
  if (typeof scheduler?.yield === "function") return scheduler.yield();
  return new Promise((resolve) => setTimeout(resolve, 0));
}
