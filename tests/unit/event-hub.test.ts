import { describe, expect, it } from "vitest";
import type { Db } from "../../server/db/client.ts";
import { EventHub, type StreamedEvent } from "../../server/services/events/hub.ts";

/**
 * The live stream's hub reads the committed events only for open streams: an
 * orders batch commits 1,000 events at once, and reading and serialising them
 * on the thread that answers couriers for nobody cost their calls (issue 25).
 * The database is a stand-in that records which reads the hub makes.
 */
function standIn(events: { position: number; pharmacyId: number }[]) {
  const reads: ("end" | "page")[] = [];
  let endGate: Promise<void> = Promise.resolve();
  let served = 0;
  const rows = () => events.map((event) => ({ ...event, id: event.position, type: "order.created", orderId: 1, data: {}, createdAt: new Date(0) }));
  const page = {
    from: () => page,
    where: () => page,
    orderBy: () => page,
    limit: () => {
      reads.push("page");
      // Each event once: the hub reads after the last position it has.
      const unread = rows().slice(served);
      served = events.length;
      return Promise.resolve(unread);
    },
  };
  const db = {
    select: (fields?: unknown) => {
      if (!fields) return page;
      return {
        from: async () => {
          reads.push("end");
          await endGate;
          return [{ position: events.length ? Math.max(...events.map((event) => event.position)) : null }];
        },
      };
    },
  } as unknown as Db;
  let notify = () => {};
  const listen = async (_channel: string, onNotify: () => void) => {
    notify = onNotify;
    return async () => {};
  };
  return {
    db,
    listen,
    reads,
    notify: () => notify(),
    holdEnd: () => {
      let open = () => {};
      endGate = new Promise<void>((resolve) => (open = resolve));
      return () => open();
    },
  };
}

const settle = async () => {
  for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
};

describe("the live events' hub", () => {
  it("with no stream open, only moves to the end on a notification: no event read", async () => {
    const events: { position: number; pharmacyId: number }[] = [];
    const db = standIn(events);
    const hub = new EventHub(db.db, db.listen, (error) => { throw error; });
    await hub.start();
    db.reads.length = 0;
    events.push(...Array.from({ length: 1000 }, (_, i) => ({ position: i + 1, pharmacyId: 1 })));
    db.notify();
    await settle();
    expect(db.reads).toEqual(["end"]);

    // A stream opened afterwards hears what commits from then on, not the 1,000 before it.
    const heard: StreamedEvent[] = [];
    await hub.subscribe({ scope: null, send: (sent) => heard.push(...sent) }, null);
    events.push({ position: 1001, pharmacyId: 1 });
    db.notify();
    await settle();
    expect(heard.map((event) => event.position)).toEqual([1001]);
    await hub.close();
  });

  it("reads the events for a stream opened while it was looking up the end", async () => {
    const events: { position: number; pharmacyId: number }[] = [];
    const db = standIn(events);
    const hub = new EventHub(db.db, db.listen, (error) => { throw error; });
    await hub.start();
    db.reads.length = 0;
    const open = db.holdEnd();
    events.push({ position: 1, pharmacyId: 1 });
    db.notify();
    await settle();
    const heard: StreamedEvent[] = [];
    await hub.subscribe({ scope: null, send: (sent) => heard.push(...sent) }, null);
    open();
    await settle();
    expect(db.reads).toEqual(["end", "page"]);
    expect(heard.map((event) => event.position)).toEqual([1]);
    await hub.close();
  });
});
