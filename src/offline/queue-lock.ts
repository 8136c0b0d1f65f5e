/**
 * One resubmission at a time across every tab of the app on this device: two
 * tabs, or 'Try again' and the online event together, never send the same
 * stored order at once. The server's Idempotency-Key makes a later duplicate
 * harmless; the lock keeps two copies from being in flight together (which
 * the server would answer with 409 "still being processed").
 */
export const QUEUE_LOCK_NAME = "rxc-offline-queue";

export interface LockOptions {
  /** Stop waiting for the lock (the queue stopped resubmitting). */
  signal?: AbortSignal;
}

export type QueueLock = <T>(run: () => Promise<T>, options?: LockOptions) => Promise<T>;

function abortError(): DOMException {
  return new DOMException("The queue stopped waiting for the lock.", "AbortError");
}

/** Within one tab only: for browsers without the Web Locks API. */
function inTabMutex(): QueueLock {
  let tail: Promise<unknown> = Promise.resolve();
  return <T>(run: () => Promise<T>, options: LockOptions = {}) => {
    const turn = tail.then(() => {
      if (options.signal?.aborted) throw abortError();
      return run();
    });
    // The next caller waits for this one however it ends.
    tail = turn.catch(() => undefined);
    return turn;
  };
}

/** Uses navigator.locks when the browser has it (every current one), else an in-tab mutex. */
export function createQueueLock(locks: LockManager | undefined = globalThis.navigator?.locks): QueueLock {
  if (!locks) return inTabMutex();
  return <T>(run: () => Promise<T>, options: LockOptions = {}) =>
    locks.request(QUEUE_LOCK_NAME, { mode: "exclusive", ...(options.signal ? { signal: options.signal } : {}) }, () => run()) as Promise<T>;
}

let appLock: QueueLock | undefined;

/**
 * The app's one lock: wrap the offline queue's resubmit actor in it. The
 * browser's lock manager is reached on the first resubmission, not when the
 * app starts: most loads resubmit nothing (issue 29).
 */
export const withQueueLock: QueueLock = (run, options) => (appLock ??= createQueueLock())(run, options);
