import type { LookupFunction } from "node:net";
import { Agent, buildConnector, type Dispatcher } from "undici";
import type { ResolvedAddress } from "./url-policy.ts";

/**
 * The connection of a webhook send goes to exactly the addresses the URL
 * policy checked (issue 24 §4, DNS rebinding): the HTTP client's own lookup
 * is replaced by one that answers with them, so a second lookup that would
 * answer 127.0.0.1 never happens. Only the address is pinned: the Host header
 * and the TLS server name (SNI, certificate check) stay the URL's host name.
 *
 * undici 7's fetch and Agent are used together (Node 20's global fetch is
 * another undici copy, whose dispatchers are not interchangeable with these).
 */

/** Answers every lookup with the checked addresses, whatever the host name says now. */
export function pinnedLookup(addresses: readonly ResolvedAddress[]): LookupFunction {
  return (hostname, options, callback) => {
    const wanted = options.family === 4 || options.family === "IPv4" ? 4 : options.family === 6 || options.family === "IPv6" ? 6 : 0;
    const usable = addresses.filter((entry) => wanted === 0 || entry.family === wanted);
    if (usable.length === 0) {
      const error = Object.assign(new Error(`${hostname} has no checked IPv${wanted} address`), { code: "ENOTFOUND" });
      callback(error, "", 0);
    } else if (options.all) {
      // Node 20 asks for all of them (autoSelectFamily tries each in turn).
      callback(null, usable);
    } else {
      callback(null, usable[0]!.address, usable[0]!.family);
    }
  };
}

export type Connector = buildConnector.connector;

/** Opens the sockets of sends whose check answered `addresses`; tests wrap it to watch where a send connects. */
export type PinnedConnect = (addresses: readonly ResolvedAddress[]) => Connector;

export const pinnedConnector: PinnedConnect = (addresses) => buildConnector({ lookup: pinnedLookup(addresses) });

/** Agents by the checked answers they connect to: connections are reused only where they go to the same addresses. */
export interface PinnedDispatchers {
  for(addresses: readonly ResolvedAddress[]): Dispatcher;
  close(): Promise<void>;
}

export function pinnedDispatchers(connect: PinnedConnect = pinnedConnector, max = 32): PinnedDispatchers {
  const agents = new Map<string, Agent>();
  return {
    for(addresses) {
      const key = addresses.map((entry) => entry.address).join(" ");
      let agent = agents.get(key);
      if (agent) {
        agents.delete(key); // re-inserted last: the map's order is the least recently used first
      } else {
        agent = new Agent({ connect: connect(addresses) });
        if (agents.size >= max) {
          const [oldestKey, oldest] = agents.entries().next().value!;
          agents.delete(oldestKey);
          void oldest.close(); // finishes what is in flight on it, then closes
        }
      }
      agents.set(key, agent);
      return agent;
    },
    async close() {
      const open = [...agents.values()];
      agents.clear();
      await Promise.all(open.map((agent) => agent.close()));
    },
  };
}
