/**
 * Runs `task` once the page is idle (within `timeoutMs` at the latest, or
 * after `fallbackMs` where the browser has no requestIdleCallback). Returns
 * the cancel, for an effect's cleanup.
 */
export function whenIdle(task: () => void, { timeoutMs = 3_000, fallbackMs = 1_000 } = {}): () => void {
  if (typeof window.requestIdleCallback === "function") {
    const id = window.requestIdleCallback(task, { timeout: timeoutMs });
    return () => window.cancelIdleCallback(id);
  }
  const id = setTimeout(task, fallbackMs);
  return () => clearTimeout(id);
}
