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

/** Tasks waiting for the same moment: the page idle, then its frame shown. */
interface Waiters {
  tasks: Set<() => void>;
  cancel: () => void;
  /** The clock they wait on: a test that swaps the page's timers (fake ones, then real ones again) drops theirs. */
  clock: readonly unknown[];
}

const currentClock = () => [globalThis.setTimeout, globalThis.requestIdleCallback, globalThis.requestAnimationFrame] as const;
const sameClock = (a: readonly unknown[], b: readonly unknown[]) => a.every((each, index) => each === b[index]);

/** Waiters still waiting for idle, by their options: one asked for meanwhile joins them. */
const waitingForIdle = new Map<string, Waiters>();

/**
 * Runs `task` once the page is idle and the frame it painted last is on the
 * screen. The phone is idle as soon as a frame is painted, but the frame is
 * shown a vsync or two later: work started in between (a chunk's download, a
 * store's first open) shares the link and the cores with the frame the
 * courier is waiting to see. Two animation frames after idle, the frame
 * painted before them has been shown. A page in the background paints no
 * frames: `frameTimeoutMs` after idle the task runs anyway. The defaults are
 * the first screen's: what waits for it waits a second and a quarter at most.
 *
 * Tasks asked for before that idle moment wait together (the first screen's
 * four: the offline store, the HTTP client, the date mask, the starting
 * screen's turn): one idle callback, one pair of frames, one timer between
 * them, not one of each per task (issue 29: each is a task and a wake-up on
 * the phone). Each runs once, in the order asked; one that throws leaves the
 * others to run.
 */
export function whenIdleAndShown(task: () => void, { timeoutMs = 1_000, fallbackMs = 200, frameTimeoutMs = 250 } = {}): () => void {
  const key = `${timeoutMs}/${fallbackMs}/${frameTimeoutMs}`;
  const waiting = waitingForIdle.get(key);
  const waiters = waiting && sameClock(waiting.clock, currentClock()) ? waiting : waitTogether(key, { timeoutMs, fallbackMs, frameTimeoutMs });
  // Its own entry: the same function asked for twice runs twice, and each cancel takes away its own.
  const entry = () => task();
  waiters.tasks.add(entry);
  return () => {
    waiters.tasks.delete(entry);
    if (waiters.tasks.size === 0) waiters.cancel();
  };
}

function waitTogether(key: string, { timeoutMs, fallbackMs, frameTimeoutMs }: { timeoutMs: number; fallbackMs: number; frameTimeoutMs: number }): Waiters {
  const tasks = new Set<() => void>();
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
    for (const each of tasks) {
      try {
        each();
      } catch (error) {
        // Still reported (src/app/error-reporting.ts hears it), without keeping the others from running.
        queueMicrotask(() => {
          throw error;
        });
      }
    }
    tasks.clear();
  };
  const cancelIdle = whenIdle(
    () => {
      // From now on a task asked for waits for an idle moment of its own.
      waitingForIdle.delete(key);
      timer = setTimeout(run, frameTimeoutMs);
      if (!frames) return;
      frame = frames.request(() => {
        frame = frames.request(() => {
          clearTimeout(timer);
          // Out of the frame's own callbacks: the tasks' work is not the next frame's.
          timer = setTimeout(run, 0);
        });
      });
    },
    { timeoutMs, fallbackMs },
  );
  const waiters: Waiters = {
    tasks,
    clock: currentClock(),
    cancel: () => {
      if (waitingForIdle.get(key) === waiters) waitingForIdle.delete(key);
      cancelIdle();
      clearTimeout(timer);
      cancelFrame();
    },
  };
  waitingForIdle.set(key, waiters);
  return waiters;
}
