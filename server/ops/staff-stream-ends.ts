import type { Listen } from "../db/notifications.ts";
import { STAFF_SESSIONS_CHANNEL, type StaffSessionStore } from "./staff-sessions.ts";

/** A timer's longest delay (about 24.8 days); a later deadline is looked at again then. */
const MAX_TIMER_MS = 2 ** 31 - 1;

interface Watched {
  idHash: string;
  end: () => void;
  timer: NodeJS.Timeout | null;
}

/**
 * Ends a console session's open event streams the moment the session ends
 * (issue 27): deactivation, logout or a new login over the cookie are
 * announced on rxc_staff_sessions by whichever API process made them, and
 * every process then asks the database, in one query, which of its streams'
 * sessions are still live; a session's own end (absolute or idle) is a timer
 * at that time, looked at again then since a call may have kept it alive.
 * A lost listener connection is made again and then checks everything too
 * (server/db/notifications.ts), so no ending is missed.
 */
export class StaffStreamEnds {
  #watched = new Set<Watched>();
  #checking: Promise<void> | null = null;
  #again = false;
  #stop: (() => Promise<void>) | null = null;

  constructor(
    private readonly sessions: Pick<StaffSessionStore, "deadlines">,
    private readonly listen: Listen,
    private readonly onError: (error: unknown) => void,
  ) {}

  async start(): Promise<void> {
    this.#stop = await this.listen(STAFF_SESSIONS_CHANNEL, () => this.check());
  }

  async close(): Promise<void> {
    await this.#stop?.();
    for (const entry of this.#watched) if (entry.timer) clearTimeout(entry.timer);
    this.#watched.clear();
    await this.#checking?.catch(() => undefined);
  }

  /** Calls `end` once the session has ended (at once if it already has); the returned function stops watching. */
  async watch(idHash: string, end: () => void): Promise<() => void> {
    const entry: Watched = { idHash, end, timer: null };
    this.#watched.add(entry);
    const stop = () => {
      if (entry.timer) clearTimeout(entry.timer);
      this.#watched.delete(entry);
    };
    // Checked after it is watched: an ending announced meanwhile is looked at again by that check.
    this.settle([entry], await this.sessions.deadlines([idHash]));
    return stop;
  }

  /** An ending was announced (or the listener reconnected): every watched session is looked at (one check at a time; one more if asked meanwhile). */
  check(): void {
    if (this.#checking) {
      this.#again = true;
      return;
    }
    this.#checking = (async () => {
      do {
        this.#again = false;
        const entries = [...this.#watched];
        this.settle(entries, await this.sessions.deadlines([...new Set(entries.map((entry) => entry.idHash))]));
      } while (this.#again);
    })()
      .catch(this.onError)
      .finally(() => {
        this.#checking = null;
      });
  }

  private settle(entries: readonly Watched[], deadlines: ReadonlyMap<string, Date>): void {
    for (const entry of entries) {
      if (!this.#watched.has(entry)) continue;
      if (entry.timer) clearTimeout(entry.timer);
      entry.timer = null;
      const deadline = deadlines.get(entry.idHash);
      if (!deadline) {
        this.#watched.delete(entry);
        entry.end();
        continue;
      }
      // A few ms past the end, so the database agrees it has passed.
      const wait = Math.min(MAX_TIMER_MS, Math.max(0, deadline.getTime() - Date.now()) + 5);
      entry.timer = setTimeout(() => {
        entry.timer = null;
        this.sessions.deadlines([entry.idHash]).then((next) => this.settle([entry], next), this.onError);
      }, wait);
      entry.timer.unref();
    }
  }
}
