import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TurnTakingPGlite } from "../../server/db/turn-taking-pglite.ts";

/**
 * Issue 14 finding 10, second cause: on the embedded database a call's queries
 * ran back to back in one turn of the event loop, so under load the server
 * accepted one new connection per 0.6 s turn and a phone that had just
 * connected waited 20 s before its request was read. Every query must let the
 * loop take a turn (accept, read) first, inside transactions too.
 */
describe("the embedded database lets the server take in connections between queries", () => {
  let database: TurnTakingPGlite;
  let server: net.Server;
  let port: number;
  let accepted = 0;

  beforeAll(async () => {
    database = new TurnTakingPGlite();
    await database.query("select 1");
    server = net.createServer((socket) => {
      accepted++;
      socket.destroy();
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    port = (server.address() as net.AddressInfo).port;
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    await database.close();
  });

  /** Connects a phone, runs 200 queries, and says after how many of them the server had accepted it. */
  const queriesBeforeAccepting = async (run: (afterEachQuery: () => void) => Promise<void>) => {
    const before = accepted;
    const phone = net.connect(port, "127.0.0.1");
    phone.on("error", () => undefined);
    let done = 0;
    let firstSeenAt = -1;
    await run(() => {
      done++;
      if (firstSeenAt === -1 && accepted > before) firstSeenAt = done;
    });
    phone.destroy();
    expect(done).toBe(200);
    return firstSeenAt;
  };

  it("a chain of 200 queries: the new connection is accepted within its first queries, not after the chain", async () => {
    const seenAt = await queriesBeforeAccepting(async (afterEachQuery) => {
      for (let i = 0; i < 200; i++) {
        await database.query("select 1");
        afterEachQuery();
      }
    });
    expect(seenAt).toBeGreaterThan(0);
    expect(seenAt).toBeLessThan(10);
  });

  it("inside a transaction, each query lets the loop turn too", async () => {
    const seenAt = await queriesBeforeAccepting((afterEachQuery) =>
      database.transaction(async (tx) => {
        for (let i = 0; i < 200; i++) {
          await tx.query("select 1");
          afterEachQuery();
        }
      }),
    );
    expect(seenAt).toBeGreaterThan(0);
    expect(seenAt).toBeLessThan(10);
  });
});
