import pg from "pg";
import type { PGlite } from "@electric-sql/pglite";

/**
 * LISTEN on a channel (issue 27): `onNotify` is called for every
 * notification, and once more whenever the listening connection is made
 * again after a loss (a notification may have been missed meanwhile, so the
 * listener catches up from the database). Resolves once listening; the
 * returned function stops.
 */
export type Listen = (channel: string, onNotify: () => void) => Promise<() => Promise<void>>;

/** PostgreSQL: one dedicated connection per listener, outside the pool (a pooled one would be handed to queries). */
export function postgresListen(connectionString: string, warn: (message: string) => void = (message) => process.emitWarning(message)): Listen {
  return async (channel, onNotify) => {
    let client: pg.Client | null = null;
    let stopped = false;
    let delay = 250;
    const connect = async (): Promise<void> => {
      const next = new pg.Client({ connectionString });
      next.on("notification", (message) => {
        if (message.channel === channel) onNotify();
      });
      // A lost connection is made again, with back-off; the listener then catches up.
      next.on("error", (error) => warn(`The ${channel} listener lost its connection: ${error.message}`));
      next.on("end", () => {
        if (stopped || client !== next) return;
        client = null;
        const wait = delay;
        delay = Math.min(delay * 2, 10_000);
        setTimeout(() => void reconnect(), wait).unref();
      });
      await next.connect();
      await next.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
      client = next;
      delay = 250;
    };
    const reconnect = async (): Promise<void> => {
      if (stopped) return;
      try {
        await connect();
        onNotify();
      } catch (error) {
        warn(`The ${channel} listener could not connect: ${(error as Error).message}`);
        const wait = delay;
        delay = Math.min(delay * 2, 10_000);
        setTimeout(() => void reconnect(), wait).unref();
      }
    };
    await connect();
    return async () => {
      stopped = true;
      await client?.end().catch(() => undefined);
    };
  };
}

/** PGlite: its own LISTEN, delivered in this process after the notifying transaction commits. */
export function pgliteListen(client: PGlite): Listen {
  return async (channel, onNotify) => {
    const unlisten = await client.listen(channel, () => onNotify());
    return async () => {
      if (!client.closed) await unlisten();
    };
  };
}
