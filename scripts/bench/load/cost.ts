import type { ItineraryResponse } from "../../../domain/contract/itinerary.ts";
import { apiCall, logIn } from "../lib/api.ts";
import { backendPids, cpuOf, processCpuSeconds } from "../lib/cpu.ts";
import { round } from "../lib/machine.ts";
import { CourierDay, signatureSvg, type Action } from "./courier-day.ts";
import { runPaced } from "./run.ts";

/**
 * What one call costs in CPU, endpoint by endpoint: a few hundred calls of
 * one kind from a few couriers with no pause, and the CPU time the
 * server process (and, on PostgreSQL, the backends of its pool) used per
 * call. CPU time is far less disturbed by a busy machine than latency is,
 * which makes it the figure to compare before and after a change.
 */

export interface EndpointCost {
  action: string;
  requests: number;
  serverCpuMs: number;
  postgresCpuMs: number | null;
}

const KINDS: { name: string; round: Action[] }[] = [
  { name: "day (GET itinerary)", round: ["itinerary"] },
  { name: "verify (PUT copay + POST pickup)", round: ["copay", "pickup"] },
  { name: "delivery (POST, signature)", round: ["deliver"] },
  { name: "routing (GET routed_orders)", round: ["routing"] },
];

export async function measureCosts(options: { url: string; serverPid: number; databaseUrl: string | null; emails: readonly string[]; firstCourier: number; couriers: number; callsPerCourier: number }): Promise<EndpointCost[]> {
  const signature = signatureSvg();
  const results: EndpointCost[] = [];
  let next = options.firstCourier;
  for (const kind of KINDS) {
    const days: CourierDay[] = [];
    for (let i = 0; i < options.couriers; i++) {
      const courier = await logIn(options.url, options.emails[next++]!);
      const day = await apiCall<ItineraryResponse>(options.url, courier, "GET", "/api/courier/itinerary");
      days.push(new CourierDay(courier, day, signature, 0, kind.round));
    }
    const pids = options.databaseUrl ? await backendPids(options.databaseUrl) : [];
    const server0 = processCpuSeconds(options.serverPid);
    const pg0 = cpuOf(pids);
    const run = await runPaced(options.url, days, { durationMs: 60_000, meanThinkMs: 0, callsPerCourier: options.callsPerCourier });
    const requests = run.requests;
    // A pause a pool connection opened during the run would miss: count the backends again.
    const pgAfter = options.databaseUrl ? cpuOf(pids) : 0;
    results.push({
      action: kind.name,
      requests,
      serverCpuMs: round(((processCpuSeconds(options.serverPid) - server0) * 1000) / Math.max(1, requests), 2),
      postgresCpuMs: options.databaseUrl ? round(((pgAfter - pg0) * 1000) / Math.max(1, requests), 2) : null,
    });
    if (run.errors) throw new Error(`${kind.name}: ${run.errors} errors: ${run.errorSamples.join("; ")}`);
    if (run.substitutions > requests / 4) throw new Error(`${kind.name}: the couriers ran out of work (${run.substitutions} substitutions)`);
  }
  return results;
}
