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
 * frames: `frameTimeoutMs` after idle the task runs anyway. The defaults are
 * the first screen's: what waits for it waits a second and a quarter at most.
 */
export function whenIdleAndShown(task: () => void, { timeoutMs = 1_000, fallbackMs = 200, frameTimeoutMs = 250 } = {}): () => void {
  let frame = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  // The page's own, taken now (bound: called on another object, the browser's throw "Illegal invocation"): the
  // time-out may fire after a test's page has been taken down, its globals with it.
  const frames =
    typeof requestAnimationFrame === "function" ? { request: requestAnimationFrame.bind(globalThis), cancel: cancelAnimationFrame.bind(globalThis) } : undefined;
  const cancelFrame = () => frame && frames?.cancel(frame);
  // Reached once: by the two frames or by the time-out, whichever comes first cancels the other.
  const run = () => {
    cancelFrame();
    task();
  };
  const cancelIdle = whenIdle(
    () => {
      timer = setTimeout(run, frameTimeoutMs);
      if (!frames) return;
      frame = frames.request(() => {
        frame = frames.request(() => {
          clearTimeout(timer);
          // Out of the frame's own callbacks: the task's work is not the next frame's.
          timer = setTimeout(run, 0);
        });
      });
    },
    { timeoutMs, fallbackMs },
  );
  return () => {
    cancelIdle();
    clearTimeout(timer);
    cancelFrame();
  };
}
