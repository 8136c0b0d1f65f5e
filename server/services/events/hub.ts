import { and, asc, eq, gt, lt, max, sql, type SQL } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import type { Listen } from "../../db/notifications.ts";
import { dispatchEvents } from "../../db/schema.ts";

/** One event as the stream sends it: its position is the SSE id, the body the webhook envelope. */
export interface StreamedEvent {
  position: number;
  pharmacyId: number;
  body: string;
}

export const EVENTS_CHANNEL = "rxc_events";
const PAGE = 500;

type EventRow = typeof dispatchEvents.$inferSelect;
const streamed = (row: EventRow): StreamedEvent => ({
  position: row.position!,
  pharmacyId: row.pharmacyId,
  body: JSON.stringify({ type: row.type, timestamp: row.createdAt.toISOString(), data: row.data }),
});

export interface Subscriber {
  /** null: every pharmacy (dispatch); otherwise that pharmacy's events only. */
  scope: number | null;
  send(events: StreamedEvent[]): void;
}

/**
 * The live stream's fan-out in one API process (issue 27). It LISTENs on
 * rxc_events (PostgreSQL NOTIFY from any process's commit; PGlite's own in
 * this one), and on each notification reads the events committed since the
 * last it read, once for every open stream, and hands each stream those of
 * its scope. Positions follow commit order (migration 0013), so reading
 * "after the last position" never skips an event that commits late.
 * No polling: without a notification nothing is read.
 */
export class EventHub {
  #position = 0;
  #subscribers = new Set<{ subscriber: Subscriber; last: number; buffer: StreamedEvent[] | null }>();
  #reading: Promise<void> | null = null;
  #again = false;
  #stop: (() => Promise<void>) | null = null;

  constructor(
    private readonly db: Db,
    private readonly listen: Listen,
    private readonly onError: (error: unknown) => void,
  ) {}

  /** Listens first, then reads where the events are: nothing committed in between is missed. */
  async start(): Promise<void> {
    this.#stop = await this.listen(EVENTS_CHANNEL, () => this.wake());
    const [row] = await this.db.select({ position: max(dispatchEvents.position) }).from(dispatchEvents);
    this.#position = Math.max(this.#position, Number(row?.position ?? 0));
  }

  async close(): Promise<void> {
    await this.#stop?.();
    this.#subscribers.clear();
    await this.#reading?.catch(() => undefined);
  }

  get openStreams(): number {
    return this.#subscribers.size;
  }

  /**
   * Adds a stream. With `after` (Last-Event-ID) it first gets what it missed
   * from the database, in order, then the live events, each once; without,
   * the events committed from now on.
   */
  async subscribe(subscriber: Subscriber, after: number | null): Promise<() => void> {
    const entry = { subscriber, last: this.#position, buffer: [] as StreamedEvent[] | null };
    this.#subscribers.add(entry);
    const remove = () => void this.#subscribers.delete(entry);
    try {
      if (after !== null) {
        // An id from past the end (another database, or one reset since) would hide the next events: resume from the end instead.
        const [end] = await this.db.select({ position: max(dispatchEvents.position) }).from(dispatchEvents);
        after = Math.min(after, Number(end?.position ?? 0));
        entry.last = after;
        for (;;) {
          const page = await this.read(after, subscriber.scope);
          if (page.length === 0) break;
          subscriber.send(page);
          after = page.at(-1)!.position;
          entry.last = after;
          if (page.length < PAGE) break;
        }
      }
      const held = entry.buffer!.filter((event) => event.position > entry.last);
      entry.buffer = null;
      if (held.length) {
        subscriber.send(held);
        entry.last = held.at(-1)!.position;
      }
    } catch (error) {
      remove();
      throw error;
    }
    return remove;
  }

  private read(after: number, scope: number | null): Promise<StreamedEvent[]> {
    const where: SQL[] = [gt(dispatchEvents.position, after)];
    if (scope !== null) where.push(eq(dispatchEvents.pharmacyId, scope));
    return this.db
      .select()
      .from(dispatchEvents)
      .where(and(...where))
      .orderBy(asc(dispatchEvents.position))
      .limit(PAGE)
      .then((rows) => rows.filter((row) => row.position !== null).map(streamed));
  }

  /** A notification: read what committed since (one read at a time; one more if woken meanwhile). */
  wake(): void {
    if (this.#reading) {
      this.#again = true;
      return;
    }
    this.#reading = (async () => {
      do {
        this.#again = false;
        if (await this.skippedUnheard()) continue;
        for (;;) {
          const events = await this.read(this.#position, null);
          if (events.length === 0) break;
          this.#position = events.at(-1)!.position;
          this.fanOut(events);
          if (events.length < PAGE) break;
        }
      } while (this.#again);
    })()
      .catch(this.onError)
      .finally(() => {
        this.#reading = null;
      });
  }

  /**
   * With no stream open nobody hears the events: the hub only moves to the
   * end, one index lookup, instead of reading and serialising every event on
   * the thread that answers couriers (an orders batch commits 1,000 at once;
   * issue 25). A stream opened meanwhile has the events read as usual.
   */
  private async skippedUnheard(): Promise<boolean> {
    if (this.#subscribers.size > 0) return false;
    const [row] = await this.db.select({ position: max(dispatchEvents.position) }).from(dispatchEvents);
    if (this.#subscribers.size > 0) return false;
    this.#position = Math.max(this.#position, Number(row?.position ?? 0));
    return true;
  }

  private fanOut(events: StreamedEvent[]): void {
    for (const entry of this.#subscribers) {
      const mine = events.filter((event) => event.position > entry.last && (entry.subscriber.scope === null || event.pharmacyId === entry.subscriber.scope));
      if (entry.buffer) {
        entry.buffer.push(...mine);
        continue;
      }
      if (mine.length === 0) continue;
      entry.last = mine.at(-1)!.position;
      entry.subscriber.send(mine);
    }
  }
}

/** How long events are kept for a stream to resume from (docs/operations.md "Live events"). */
export const EVENT_RETENTION_DAYS = 7;

/** Called with the hourly session purge. */
export async function purgeDispatchEvents(db: Db): Promise<void> {
  await db.delete(dispatchEvents).where(lt(dispatchEvents.createdAt, sql`now() - make_interval(days => ${EVENT_RETENTION_DAYS})`));
}
