import { setImmediate as nextTurn } from "node:timers/promises";
import { PGlite, type QueryOptions, type Results, type Transaction } from "@electric-sql/pglite";

/**
 * The embedded database runs every query on the server's own thread, and a
 * resolved query continues its call in the same turn of the event loop. Calls
 * then chain query after query and never let the loop poll its sockets: under
 * load one turn lasted 0.6 s and accepted one new connection, so a phone that
 * connected then waited 20 s before the server read a byte of its request
 * (docs/benchmarks.md "Load shedding"). Each query here first lets the loop
 * take a turn, so new connections are accepted, waiting requests are read and
 * timed by the load shedder, and a busy server answers 503 fast instead.
 */
export class TurnTakingPGlite extends PGlite {
  override async query<T>(query: string, params?: unknown[], options?: QueryOptions): Promise<Results<T>> {
    await nextTurn();
    return super.query<T>(query, params, options);
  }

  override async transaction<T>(callback: (tx: Transaction) => Promise<T>): Promise<T> {
    await nextTurn();
    return super.transaction((tx) => callback(turnTaking(tx)));
  }
}

function turnTaking(tx: Transaction): Transaction {
  return new Proxy(tx, {
    get(target, property, receiver) {
      if (property !== "query") return Reflect.get(target, property, receiver) as unknown;
      return async <T>(query: string, params?: unknown[], options?: QueryOptions): Promise<Results<T>> => {
        await nextTurn();
        return target.query<T>(query, params, options);
      };
    },
  });
}
