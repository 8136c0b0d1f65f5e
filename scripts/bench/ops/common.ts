import { fork } from "node:child_process";
import path from "node:path";
import { seededRandom } from "../../../server/services/routing/prng.ts";
import { READS } from "../load/courier-day.ts";
import type { RunResult } from "../load/run.ts";

/**
 * What the operations benchmarks (import, webhooks) share: the first
 * dispatch key the server starts with, the ops API over HTTP, orders as a
 * pharmacy's system sends them, and the courier mix's figures reduced to
 * what is compared against the baseline measured in the same run.
 */

/** OPS_API_KEY for the bench server (at least 32 characters, or the server refuses to start). */
export const BENCH_OPS_KEY = "bench-dispatch-key-0123456789abcdefghijklmnopqrstuvwxyz";

export async function ops<T>(url: string, method: string, path: string, body?: unknown): Promise<{ status: number; json: T; headers: Headers }> {
  const response = await fetch(`${url}${path}`, {
    method,
    headers: { authorization: `Bearer ${BENCH_OPS_KEY}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, json: (text ? JSON.parse(text) : null) as T, headers: response.headers };
}

const FIRST = ["Mary", "James", "Aisha", "Carlos", "Mei", "Kwame", "Olga", "Priya", "Daniel", "Grace"];
const LAST = ["Smith", "Garcia", "Nguyen", "Okafor", "Kowalski", "Haddad", "Patel", "Kim", "O'Brien", "Schaefer"];
const STREETS = ["Pine St", "Spruce St", "Walnut St", "Market St", "Girard Ave", "Baltimore Ave", "Broad St", "South St"];

/** One order as a pharmacy's system sends it to POST /api/ops/v1/orders(/batch): seeded, so every run sends the same. */
export function importedOrder(pharmacyId: number, externalId: string, serviceDate: string, seed: number): Record<string, unknown> {
  const random = seededRandom(seed);
  const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)]!;
  const controlled = random() < 0.05;
  return {
    pharmacy_id: pharmacyId,
    external_id: externalId,
    service_date: serviceDate,
    patient_first_name: pick(FIRST),
    patient_last_name: pick(LAST),
    ...(random() < 0.7 ? { patient_date_of_birth: `19${40 + Math.floor(random() * 60)}-0${1 + Math.floor(random() * 9)}-1${Math.floor(random() * 9)}` } : {}),
    phone_number: `215555${String(Math.floor(random() * 10_000)).padStart(4, "0")}`,
    address: {
      street_address: `${100 + Math.floor(random() * 7900)} ${pick(STREETS)}`,
      ...(random() < 0.25 ? { street_address_2: `Apt ${1 + Math.floor(random() * 30)}B` } : {}),
      city: "Philadelphia",
      state_abbreviation: "PA",
      zipcode: `191${String(2 + Math.floor(random() * 50)).padStart(2, "0")}`,
      latitude: 39.9 + random() * 0.15,
      longitude: -75.25 + random() * 0.15,
    },
    rx_numbers: Array.from({ length: 1 + Math.floor(random() * 3) }, () => `RX-${100000 + Math.floor(random() * 900000)}`),
    copay: random() < 0.6 ? "0.00" : `${1 + Math.floor(random() * 49)}.${String(Math.floor(random() * 100)).padStart(2, "0")}`,
    ...(random() < 0.5 ? { delivery_fee: "4.99" } : {}),
    controlled_substance: controlled,
    collect_identification: controlled,
    signature_required: controlled || random() < 0.3,
    ...(random() < 0.3 ? { delivery_instruction: "Ring twice; side door." } : {}),
  };
}

export interface ImportRun {
  orders: number;
  batchSize: number;
  seconds: number;
  ordersPerSecond: number;
  created: number;
  rejected: number;
  /** Each batch's round trip, ms. */
  batchMs: number[];
  /** Each batch's transaction as the server timed it (its Server-Timing header), ms; absent from runs before 2026-11-27. */
  transactionMs?: number[];
  /** Each batch's round trip as [sent, answered], ms since the epoch (for lining batches up with the couriers' calls). */
  batchSpans?: [number, number][];
  rejections: string[];
}

/** total orders through POST /api/ops/v1/orders/batch, batchSize at a time, one batch after another (as `npm run ops -- orders import` sends them). */
export async function importOrders(
  url: string,
  options: { pharmacyIds: readonly number[]; serviceDate: string; prefix: string; total: number; batchSize: number; seed: number },
): Promise<ImportRun> {
  const started = performance.now();
  const batchMs: number[] = [];
  const transactionMs: number[] = [];
  const batchSpans: [number, number][] = [];
  const rejections: string[] = [];
  let created = 0;
  let rejected = 0;
  for (let first = 0; first < options.total; first += options.batchSize) {
    const orders = Array.from({ length: Math.min(options.batchSize, options.total - first) }, (_, i) => {
      const n = first + i;
      return importedOrder(options.pharmacyIds[n % options.pharmacyIds.length]!, `${options.prefix}-${n}`, options.serviceDate, options.seed + n);
    });
    const sent = performance.now();
    const answer = await ops<{ results: { status: string; errors?: unknown }[] }>(url, "POST", "/api/ops/v1/orders/batch", { orders });
    batchMs.push(Math.round(performance.now() - sent));
    batchSpans.push([Math.round(performance.timeOrigin + sent), Math.round(performance.timeOrigin + performance.now())]);
    const timing = /transaction;dur=([\d.]+)/.exec(answer.headers.get("server-timing") ?? "");
    if (timing) transactionMs.push(Math.round(Number(timing[1])));
    if (answer.status !== 200) throw new Error(`orders/batch answered ${answer.status}: ${JSON.stringify(answer.json).slice(0, 300)}`);
    for (const result of answer.json.results) {
      if (result.status === "created") created++;
      else {
        rejected++;
        if (rejections.length < 3) rejections.push(JSON.stringify(result).slice(0, 200));
      }
    }
  }
  const seconds = (performance.now() - started) / 1000;
  return { orders: options.total, batchSize: options.batchSize, seconds: round1(seconds), ordersPerSecond: round1(options.total / seconds), created, rejected, batchMs, transactionMs, batchSpans, rejections };
}

export interface Importer {
  /** importOrders in the importer's process; one import at a time. */
  run(options: Parameters<typeof importOrders>[1]): Promise<ImportRun>;
  stop(): void;
}

/** A process that runs importOrders (importer-process.ts): its JSON work does not stall the process that times the couriers' calls. */
export function startImporter(url: string): Importer {
  const child = fork(path.join(import.meta.dirname, "importer-process.ts"), [], { execArgv: ["--import", "tsx"], stdio: ["ignore", "inherit", "inherit", "ipc"] });
  let exited: Error | null = null;
  child.once("exit", (code) => (exited = new Error(`the importer exited with ${code} before answering`)));
  return {
    run: (options) =>
      new Promise((resolve, reject) => {
        if (exited) return reject(exited);
        const onExit = () => reject(exited);
        child.once("exit", onExit);
        child.once("message", (message) => {
          child.off("exit", onExit);
          const answer = message as { run?: ImportRun; error?: string };
          if (answer.run) resolve(answer.run);
          else reject(new Error(`the importer failed: ${answer.error}`));
        });
        child.send({ url, options });
      }),
    stop: () => {
      if (child.connected) child.disconnect();
    },
  };
}

/** One import in an importer process of its own, started for it and stopped after. */
export async function importOrdersApart(url: string, options: Parameters<typeof importOrders>[1]): Promise<ImportRun> {
  const importer = startImporter(url);
  try {
    return await importer.run(options);
  } finally {
    importer.stop();
  }
}

const round1 = (value: number) => Number(value.toFixed(1));

/** The courier mix's figures compared between runs. */
export interface MixFigures {
  seconds: number;
  calls: number;
  perSecond: number;
  p50: number;
  p99: number;
  readsP99: number;
  deliveryP99: number;
  max: number;
  errors: number;
  shed: number;
}

export function mixFigures(run: RunResult): MixFigures {
  const stats = Object.values(run.byEndpoint);
  return {
    seconds: run.seconds,
    calls: run.requests,
    perSecond: run.perSecond,
    p50: run.p50,
    p99: run.p99,
    readsP99: Math.max(...READS.map((endpoint) => run.byEndpoint[endpoint]?.p99 ?? 0)),
    deliveryP99: run.byEndpoint.delivery?.p99 ?? 0,
    max: Math.max(0, ...stats.map((s) => s!.max)),
    errors: run.errors,
    shed: run.shed,
  };
}

export const ratio = (value: number, baseline: number): string => (baseline > 0 ? `${(value / baseline).toFixed(2)}×` : "—");

/** A row of the mix table: the run's name, then its figures, each p99 with its ratio to the baseline's. */
export function mixRow(name: string, run: MixFigures, baseline: MixFigures | null): (string | number)[] {
  const withRatio = (value: number, base: number | undefined) => (baseline && run !== baseline ? `${value} (${ratio(value, base!)})` : String(value));
  return [
    name,
    run.seconds,
    run.calls,
    run.perSecond,
    run.p50,
    withRatio(run.p99, baseline?.p99),
    withRatio(run.readsP99, baseline?.readsP99),
    withRatio(run.deliveryP99, baseline?.deliveryP99),
    run.max,
    run.errors,
  ];
}

export const MIX_HEADER = ["Courier mix", "s", "calls", "calls/s", "p50 ms", "p99 ms (× baseline)", "reads p99 ms", "delivery p99 ms", "max ms", "errors"];
