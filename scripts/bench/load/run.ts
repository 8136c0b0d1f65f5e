import { spawn } from "node:child_process";
import http from "node:http";
import path from "node:path";
import { brotliDecompressSync, gunzipSync, inflateSync } from "node:zlib";
import autocannon from "autocannon";
import type { ItineraryResponse } from "../../../domain/contract/itinerary.ts";
import { seededRandom } from "../../../server/services/routing/prng.ts";
import { apiCall, logIn } from "../lib/api.ts";
import { percentile, round } from "../lib/machine.ts";
import { ROOT } from "../lib/report.ts";
import { freePort, stopChildProcess } from "../lib/server.ts";
import { CourierDay, ENDPOINT_LABELS, signatureSvg, type Action, type Endpoint, type RequestSpec } from "./courier-day.ts";

export interface EndpointStats {
  label: string;
  count: number;
  perSecond: number;
  errors: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
}

export interface RunResult {
  mode: "paced" | "saturation";
  couriers: number;
  seconds: number;
  requests: number;
  perSecond: number;
  errors: number;
  /** Non-2xx answers by status, timeouts and connection errors. */
  errorKinds: Record<string, number>;
  errorSamples: string[];
  byEndpoint: Partial<Record<Endpoint, EndpointStats>>;
  /** All requests together (ms). */
  p50: number;
  p99: number;
  /** Planned calls replaced by a day load because the courier had nothing left for them. */
  substitutions: number;
  /** Paced runs: the mean pause between a courier's calls. */
  meanThinkMs?: number;
  /** Calls refused fast for load (503 busy with Retry-After, issue 14 finding 10): the app's queue retries them. */
  shed: number;
  /** Calls answered after more than 10 s (what load shedding is there to prevent). */
  over10s: number;
  /** p99 of the calls refused for load, and of the calls served (2xx), ms; null when there were none. */
  shedP99: number | null;
  servedP99: number | null;
  /** Calls slower than 100 ms, by the second of the run they ended in (where the tail comes from: everywhere, or a few stalls). */
  slowBySecond: Record<number, number>;
  /** Paced runs: the first seconds, while the couriers connect and the server's database pool grows, counted apart. */
  rampUp?: { seconds: number; requests: number; errors: number; p50: number; p99: number; max: number };
  /** Paced runs given a PhaseClock: the calls sent in each phase (by when they were sent), each phase's time summed. */
  phases?: Record<string, RunResult>;
}

/**
 * The phases a paced run goes through, set by whoever drives the run (an import
 * started and stopped in rounds): each call counts in the phase it was sent in,
 * each phase's figures come from all its windows together. A phase named
 * "kind#n" (one window of several) counts its calls under "kind#n" and under
 * "kind", the windows pooled. Phases whose name starts with "-" are not
 * measured (the pause around a change of phase).
 */
export class PhaseClock {
  private phase: string | null = null;
  private since = performance.now();
  private readonly spent = new Map<string, number>();

  set(phase: string | null): void {
    const now = performance.now();
    if (this.phase !== null) this.spent.set(this.phase, (this.spent.get(this.phase) ?? 0) + now - this.since);
    this.phase = phase;
    this.since = now;
  }

  get current(): string | null {
    return this.phase;
  }

  /** Seconds spent in a phase so far, its current window included; "kind" sums its windows "kind#n". */
  seconds(phase: string): number {
    const counts = (name: string | null) => name === phase || (name?.startsWith(`${phase}#`) ?? false);
    let ms = counts(this.phase) ? performance.now() - this.since : 0;
    for (const [name, spent] of this.spent) if (counts(name)) ms += spent;
    return ms / 1000;
  }
}

class Recorder {
  private readonly started = performance.now();
  private readonly slow: Record<number, number> = {};
  private latencies = new Map<Endpoint, number[]>();
  private failures = new Map<Endpoint, number>();
  readonly errorKinds: Record<string, number> = {};
  readonly errorSamples: string[] = [];
  private shed = 0;
  private over10s = 0;
  private readonly shedMs: number[] = [];
  private readonly servedMs: number[] = [];

  record(endpoint: Endpoint, ms: number, status: number, body: string): void {
    // autocannon gives no body: a 503 there is the shedder's (nothing else in the mix answers 503).
    if (status === 503 && (body === "" || body.includes('"busy"'))) {
      this.shed++;
      this.shedMs.push(ms);
    }
    if (status >= 200 && status < 300) this.servedMs.push(ms);
    if (ms > 10_000) this.over10s++;
    const list = this.latencies.get(endpoint) ?? [];
    list.push(ms);
    this.latencies.set(endpoint, list);
    if (ms > 100) {
      const second = Math.floor((performance.now() - this.started) / 1000);
      this.slow[second] = (this.slow[second] ?? 0) + 1;
    }
    if (status >= 200 && status < 300) return;
    this.fail(endpoint, String(status), body);
  }

  fail(endpoint: Endpoint, kind: string, detail = ""): void {
    this.failures.set(endpoint, (this.failures.get(endpoint) ?? 0) + 1);
    this.errorKinds[kind] = (this.errorKinds[kind] ?? 0) + 1;
    if (this.errorSamples.length < 5) this.errorSamples.push(`${ENDPOINT_LABELS[endpoint]} → ${kind} ${detail.slice(0, 200)}`);
  }

  result(mode: RunResult["mode"], couriers: CourierDay[], seconds: number): RunResult {
    const byEndpoint: Partial<Record<Endpoint, EndpointStats>> = {};
    const all: number[] = [];
    for (const [endpoint, list] of this.latencies) {
      all.push(...list);
      byEndpoint[endpoint] = {
        label: ENDPOINT_LABELS[endpoint],
        count: list.length,
        perSecond: round(list.length / seconds, 1),
        errors: this.failures.get(endpoint) ?? 0,
        p50: round(percentile(list, 50), 1),
        p90: round(percentile(list, 90), 1),
        p99: round(percentile(list, 99), 1),
        max: round(Math.max(...list), 1),
      };
    }
    const errors = Object.values(this.errorKinds).reduce((sum, n) => sum + n, 0);
    return {
      mode,
      couriers: couriers.length,
      seconds: round(seconds, 1),
      requests: all.length,
      perSecond: round(all.length / seconds, 1),
      errors,
      errorKinds: this.errorKinds,
      errorSamples: this.errorSamples,
      byEndpoint,
      p50: round(percentile(all, 50), 1),
      p99: round(percentile(all, 99), 1),
      substitutions: couriers.reduce((sum, day) => sum + day.substitutions, 0),
      shed: this.shed,
      over10s: this.over10s,
      shedP99: this.shedMs.length ? round(percentile(this.shedMs, 99), 1) : null,
      servedP99: this.servedMs.length ? round(percentile(this.servedMs, 99), 1) : null,
      slowBySecond: this.slow,
    };
  }
}

/** Logs the couriers in through the API (each its own session) and loads each one's day, a few at a time. */
export async function courierDays(url: string, emails: readonly string[], count: number, round?: readonly Action[]): Promise<CourierDay[]> {
  const signature = signatureSvg();
  const days: CourierDay[] = new Array(count);
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < count; i = next++) {
      const courier = await logIn(url, emails[i]!);
      const day = await apiCall<ItineraryResponse>(url, courier, "GET", "/api/courier/itinerary");
      days[i] = new CourierDay(courier, day, signature, i, round);
    }
  };
  await Promise.all(Array.from({ length: 4 }, worker));
  return days;
}

/** What the app's browser sends: the server compresses what is worth it, and that work is part of the figures. */
const ACCEPT_ENCODING = "gzip, deflate, br";

function decoded(body: Buffer, encoding: string | undefined): string {
  if (encoding === "br") return brotliDecompressSync(body).toString("utf8");
  if (encoding === "gzip") return gunzipSync(body).toString("utf8");
  if (encoding === "deflate") return inflateSync(body).toString("utf8");
  return body.toString("utf8");
}

function send(url: URL, agent: http.Agent, spec: RequestSpec, timeoutMs: number): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const request = http.request(
      { host: url.hostname, port: url.port, method: spec.method, path: spec.path, headers: { "accept-encoding": ACCEPT_ENCODING, ...spec.headers }, agent, timeout: timeoutMs },
      (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("end", () => {
          try {
            resolve({ status: response.statusCode ?? 0, body: decoded(Buffer.concat(chunks), response.headers["content-encoding"]) });
          } catch (error) {
            reject(error as Error);
          }
        });
        response.on("error", reject);
      },
    );
    request.on("timeout", () => request.destroy(new Error("timeout")));
    request.on("error", reject);
    request.end(spec.body);
  });
}

/**
 * Couriers at their peak pace: each on its own keep-alive connection, one
 * call at a time, then a pause drawn from an exponential distribution (mean
 * meanThinkMs) before the next, so 200 couriers are 200 independent users,
 * not 200 requests fired in lockstep. Stops by itself after durationMs.
 */
export async function runPaced(
  url: string,
  days: CourierDay[],
  options: {
    durationMs: number;
    meanThinkMs: number;
    timeoutMs?: number;
    callsPerCourier?: number;
    rampUpMs?: number;
    /** Ends the run early once true (checked before each call): a run as long as something else takes. */
    stopWhen?: () => boolean;
    /** Also counts each call in the phase the clock showed when it was sent (RunResult.phases). */
    phases?: PhaseClock;
    /** Told of every call as it ends: when it was sent (ms since the epoch), how long it took, its answer's status (0: none). */
    onCall?: (call: { endpoint: Endpoint; sentAt: number; ms: number; status: number }) => void;
  },
): Promise<RunResult> {
  const target = new URL(url);
  const rampUpMs = options.rampUpMs ?? 0;
  const rampRecorder = new Recorder();
  const steadyRecorder = new Recorder();
  const started = performance.now();
  const measuredFrom = started + rampUpMs;
  const end = measuredFrom + options.durationMs;
  const recorderAt = (time: number) => (time < measuredFrom ? rampRecorder : steadyRecorder);
  const phaseRecorders = new Map<string, Recorder>();
  const recorderOf = (phase: string) => {
    const recorder = phaseRecorders.get(phase) ?? new Recorder();
    phaseRecorders.set(phase, recorder);
    return recorder;
  };
  const recordersFor = (phase: string | null | undefined): Recorder[] => {
    if (!phase || phase.startsWith("-")) return [];
    const kind = phase.split("#")[0]!;
    return kind === phase ? [recorderOf(phase)] : [recorderOf(phase), recorderOf(kind)];
  };
  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
  await Promise.all(
    days.map(async (day, index) => {
      const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
      const random = seededRandom(1000 + index);
      const think = () => Math.min(5 * options.meanThinkMs, -Math.log(1 - random()) * options.meanThinkMs);
      try {
        await sleep(random() * options.meanThinkMs);
        const going = () => performance.now() < end && !options.stopWhen?.();
        for (let calls = 0; going() && calls < (options.callsPerCourier ?? Infinity); calls++) {
          const spec = day.next();
          const sent = performance.now();
          const inPhase = recordersFor(options.phases?.current);
          try {
            const { status, body } = await send(target, agent, spec, options.timeoutMs ?? 10_000);
            const now = performance.now();
            recorderAt(now).record(spec.endpoint, now - sent, status, body);
            for (const recorder of inPhase) recorder.record(spec.endpoint, now - sent, status, body);
            options.onCall?.({ endpoint: spec.endpoint, sentAt: performance.timeOrigin + sent, ms: now - sent, status });
            day.done(spec, status, body);
          } catch (error) {
            const kind = (error as Error).message === "timeout" ? "timeout" : "connection error";
            recorderAt(performance.now()).fail(spec.endpoint, kind, (error as Error).message);
            for (const recorder of inPhase) recorder.fail(spec.endpoint, kind, (error as Error).message);
            day.done(spec, 0, "");
          }
          const pause = think();
          if (performance.now() + pause >= end) break;
          await sleep(pause);
          if (!going()) break;
        }
      } finally {
        agent.destroy();
      }
    }),
  );
  const phases = options.phases
    ? { phases: Object.fromEntries([...phaseRecorders].map(([phase, recorder]) => [phase, recorder.result("paced", days, options.phases!.seconds(phase))])) }
    : {};
  const steady = { ...steadyRecorder.result("paced", days, (performance.now() - measuredFrom) / 1000), ...phases };
  if (!rampUpMs) return { ...steady, meanThinkMs: options.meanThinkMs };
  const ramp = rampRecorder.result("paced", days, rampUpMs / 1000);
  const max = Math.max(0, ...Object.values(ramp.byEndpoint).map((stats) => stats!.max));
  // The errors of the ramp-up count: a refusal is a refusal whenever it happens.
  const errorKinds = { ...steady.errorKinds };
  for (const [kind, n] of Object.entries(ramp.errorKinds)) errorKinds[kind] = (errorKinds[kind] ?? 0) + n;
  return {
    ...steady,
    errors: steady.errors + ramp.errors,
    errorKinds,
    errorSamples: [...ramp.errorSamples, ...steady.errorSamples].slice(0, 5),
    meanThinkMs: options.meanThinkMs,
    rampUp: { seconds: rampUpMs / 1000, requests: ramp.requests, errors: ramp.errors, p50: ramp.p50, p99: ramp.p99, max },
  };
}

interface ClientInternals {
  requestIterator: { context: unknown; resetContext: () => void; rebuildRequest: () => void };
}

/**
 * No pauses: every courier sends its next call as soon as the last one is
 * answered (autocannon, one connection per courier, pipelining 1), so 200
 * calls are always in flight. This finds the server's throughput; latency
 * here is mostly queueing (Little's law: about couriers ÷ throughput).
 * autocannon reads answers as text, so these calls ask for them uncompressed.
 */
export async function runSaturation(url: string, days: CourierDay[], options: { durationMs: number }): Promise<RunResult> {
  const recorder = new Recorder();
  let nextCourier = 0;
  interface Context {
    day?: CourierDay;
    spec?: RequestSpec;
  }
  const started = performance.now();
  const instance = autocannon({
    url,
    connections: days.length,
    duration: options.durationMs / 1000,
    pipelining: 1,
    timeout: 10,
    requests: [
      {
        setupRequest: (request, context: Context) => {
          // Built once before setupClient gives the connection its courier; never sent.
          if (!context.day) return request;
          const spec = context.day.next();
          context.spec = spec;
          return { ...request, method: spec.method, path: spec.path, headers: spec.headers, body: spec.body };
        },
        onResponse: (status, body, context: Context) => {
          if (context.day && context.spec) context.day.done(context.spec, status, body);
        },
      },
    ],
    // One courier per connection for the whole run: autocannon would otherwise start each connection's context afresh every round.
    setupClient: (client) => {
      const context: Context = { day: days[nextCourier++] };
      const iterator = (client as unknown as ClientInternals).requestIterator;
      iterator.context = context;
      iterator.resetContext = () => {
        iterator.context = context;
      };
      iterator.rebuildRequest();
      client.on("response", (status: number, _bytes: number, duration: number) => {
        if (context.spec) recorder.record(context.spec.endpoint, duration, status, "");
      });
      (client as unknown as NodeJS.EventEmitter).on("timeout", () => {
        if (context.spec) recorder.fail(context.spec.endpoint, "timeout");
      });
    },
  });
  const result = await instance;
  const run = recorder.result("saturation", days, (performance.now() - started) / 1000);
  // autocannon's errors include its timeouts, which the listener above already counted.
  const connectionErrors = result.errors - result.timeouts;
  if (connectionErrors > 0) run.errorKinds["connection errors"] = connectionErrors;
  run.errors = Object.values(run.errorKinds).reduce((sum, n) => sum + n, 0);
  return run;
}

export interface HelloResult {
  connections: number;
  seconds: number;
  perSecond: number;
  p50: number;
  p99: number;
  errors: number;
}

/** The bare Fastify hello-world (hello-server.ts, its own process like the real server) under the same connections. */
export async function runHello(connections: number, durationMs: number): Promise<HelloResult> {
  const port = await freePort();
  const child = spawn(process.execPath, ["--import", "tsx", path.join(ROOT, "scripts/bench/load/hello-server.ts")], {
    cwd: ROOT,
    env: { ...process.env, PORT: String(port) },
    stdio: ["ignore", "ignore", "inherit"],
  });
  try {
    const deadline = Date.now() + 60_000;
    for (;;) {
      try {
        if ((await fetch(`http://127.0.0.1:${port}/`)).ok) break;
      } catch {
        // starting
      }
      if (child.exitCode !== null || Date.now() > deadline) throw new Error("the hello-world server did not start");
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    const result = await autocannon({ url: `http://127.0.0.1:${port}/`, connections, duration: durationMs / 1000, pipelining: 1, timeout: 10 });
    return {
      connections,
      seconds: result.duration,
      perSecond: round(result.requests.total / result.duration, 1),
      p50: result.latency.p50,
      p99: result.latency.p99,
      errors: result.errors + result.timeouts + result.non2xx,
    };
  } finally {
    await stopChildProcess(child);
  }
}
