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

/**
 * Runs `task` once the page is idle and the frame it painted last is on the
 * screen. The phone is idle as soon as a frame is painted, but the frame is
 * shown a vsync or two later: work started in between (a chunk's download, a
 * store's first open) shares the link and the cores with the frame the
 * courier is waiting to see. Two animation frames after idle, the frame
 * painted before them has been shown. A page in the background paints no
 * frames: `frameTimeoutMs` after idle the task runs anyway.
 */
export function whenIdleAndShown(
  task: () => void,
  { timeoutMs = 3_000, fallbackMs = 1_000, frameTimeoutMs = 250 } = {},
): () => void {
  let cancelled = false;
  let done = false;
  let frame = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const run = () => {
    if (cancelled || done) return;
    done = true;
    clearTimeout(timer);
    if (frame) cancelAnimationFrame(frame);
    task();
  };
  const cancelIdle = whenIdle(
    () => {
      if (cancelled) return;
      timer = setTimeout(run, frameTimeoutMs);
      if (typeof requestAnimationFrame !== "function") return;
      frame = requestAnimationFrame(() => {
        frame = requestAnimationFrame(() => {
          frame = 0;
          clearTimeout(timer);
          // Out of the frame's own callbacks: the task's work is not the next frame's.
          timer = setTimeout(run, 0);
        });
      });
    },
    { timeoutMs, fallbackMs },
  );
  return () => {
    cancelled = true;
    cancelIdle();
    clearTimeout(timer);
    if (frame) cancelAnimationFrame(frame);
  };
}
