import { createHmac } from "node:crypto";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { calendarDate } from "../../../domain/dates.ts";
import { WEBHOOK_EVENT_TYPES } from "../../../domain/webhook-events.ts";
import { describeMachine, machineLine, percentile, round, today, type MachineDescription } from "../lib/machine.ts";
import { table } from "../lib/report.ts";
import { startBenchServer } from "../lib/server.ts";
import { prepareDatabase } from "../load/databases.ts";
import { FLEET } from "../load/dataset.ts";
import { courierDays, runPaced } from "../load/run.ts";
import { BENCH_OPS_KEY, importOrders, MIX_HEADER, mixFigures, mixRow, ops, type ImportRun, type MixFigures } from "./common.ts";

/**
 * Issue 16's webhook figures: a receiver on 127.0.0.1 subscribed to every
 * event, the courier mix with webhooks off (the baseline) and on, on the
 * fleet's PostgreSQL database; then a backlog (orders imported through
 * orders/batch, one order.created each) to see how fast the sender drains.
 * Lag is from the event's timestamp (written in the transaction of the
 * change, just before its commit) to the receipt, on the same clock.
 */

export interface WebhookOptions {
  couriers: number;
  meanThinkMs: number;
  rampUpMs: number;
  runMs: number;
  /** order.created events made at once by an import, to measure the sender's throughput. */
  backlog: number;
  log?: (line: string) => void;
}

export const FULL_WEBHOOKS: WebhookOptions = { couriers: 50, meanThinkMs: 1000, rampUpMs: 5_000, runMs: 20_000, backlog: 5_000 };

interface Receipt {
  id: string;
  type: string;
  /** ms since the epoch: the event's timestamp, and when the receiver had the whole body. */
  at: number;
  receivedAt: number;
  verified: boolean;
}

function startReceiver(secret: () => string | null) {
  const receipts: Receipt[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const receivedAt = Date.now();
      const body = Buffer.concat(chunks).toString("utf8");
      const id = String(request.headers["webhook-id"]);
      const timestamp = String(request.headers["webhook-timestamp"]);
      const key = secret();
      const expected = key ? `v1,${createHmac("sha256", Buffer.from(key.slice("whsec_".length), "base64")).update(`${id}.${timestamp}.${body}`).digest("base64")}` : "";
      const event = JSON.parse(body) as { type: string; timestamp: string };
      receipts.push({ id, type: event.type, at: Date.parse(event.timestamp), receivedAt, verified: String(request.headers["webhook-signature"]).split(" ").includes(expected) });
      response.writeHead(204).end();
    });
  });
  return new Promise<{ url: string; receipts: Receipt[]; close(): Promise<void> }>((resolve) => {
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as AddressInfo;
      resolve({ url: `http://127.0.0.1:${port}/hooks`, receipts, close: () => new Promise((done) => server.close(() => done())) });
    });
  });
}

export interface Delivered {
  events: number;
  seconds: number;
  perSecond: number;
  lagP50: number;
  lagP99: number;
  lagMax: number;
  byType: Record<string, number>;
  duplicates: number;
  unverified: number;
}

function delivered(receipts: readonly Receipt[], seconds: number): Delivered {
  const lags = receipts.map((r) => r.receivedAt - r.at);
  const byType: Record<string, number> = {};
  for (const r of receipts) byType[r.type] = (byType[r.type] ?? 0) + 1;
  return {
    events: receipts.length,
    seconds: round(seconds, 1),
    perSecond: round(receipts.length / seconds, 1),
    lagP50: percentile(lags, 50),
    lagP99: percentile(lags, 99),
    lagMax: Math.max(0, ...lags),
    byType,
    duplicates: receipts.length - new Set(receipts.map((r) => r.id)).size,
    unverified: receipts.filter((r) => !r.verified).length,
  };
}

async function settle(count: () => number, expected: number | null, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last = -1;
  let quietSince = Date.now();
  while (Date.now() < deadline) {
    const now = count();
    if (expected !== null && now >= expected) return;
    if (now !== last) {
      last = now;
      quietSince = Date.now();
    } else if (expected === null && Date.now() - quietSince > 3000) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

export interface WebhookResult {
  date: string;
  machine: MachineDescription;
  loadAverageEnd: number;
  options: Omit<WebhookOptions, "log">;
  off: MixFigures;
  on: MixFigures;
  /** Events the courier mix made while webhooks were on. */
  mixEvents: Delivered;
  import: ImportRun;
  backlog: Delivered;
  /** The last batch's events, all committed at once: from the import's end to the last received, the sender alone. */
  drain: { events: number; seconds: number; perSecond: number };
}

export async function runWebhookBench(options: WebhookOptions): Promise<WebhookResult> {
  const log = options.log ?? console.log;
  const machine = describeMachine();
  const serviceDate = calendarDate(new Date(), "America/New_York");
  let secret: string | null = null;
  const receiver = await startReceiver(() => secret);
  log("  postgres: generating the fleet's database…");
  const database = await prepareDatabase("postgres", serviceDate, FLEET);
  const server = await startBenchServer({ ...database.server, env: { OPS_API_KEY: BENCH_OPS_KEY, WEBHOOK_ALLOW_PRIVATE: "true" } });
  try {
    const days = await courierDays(server.url, database.dataset.emails, options.couriers);
    const warm = await courierDays(server.url, database.dataset.emails.slice(options.couriers + 50), 20);
    await runPaced(server.url, warm, { durationMs: 3000, meanThinkMs: 0 });
    const paced = { durationMs: options.runMs, meanThinkMs: options.meanThinkMs, rampUpMs: options.rampUpMs };

    log(`  webhooks off: the courier mix, ${options.couriers} couriers, ${options.runMs / 1000} s…`);
    const off = mixFigures(await runPaced(server.url, days, paced));
    log(`  off: ${off.perSecond} calls/s, p99 ${off.p99} ms`);

    const subscription = await ops<{ id: number; secret: string }>(server.url, "POST", "/api/ops/v1/webhooks", { url: receiver.url, events: [...WEBHOOK_EVENT_TYPES] });
    if (subscription.status !== 201) throw new Error(`subscribing answered ${subscription.status}: ${JSON.stringify(subscription.json)}`);
    secret = subscription.json.secret;

    log(`  webhooks on: the courier mix, ${options.runMs / 1000} s…`);
    const mixStarted = performance.now();
    const on = mixFigures(await runPaced(server.url, days, paced));
    const mixSeconds = (performance.now() - mixStarted) / 1000;
    await settle(() => receiver.receipts.length, null, 30_000);
    const mixEvents = delivered(receiver.receipts, mixSeconds);
    log(`  on: p99 ${on.p99} ms; ${mixEvents.events} events, lag p50 ${mixEvents.lagP50} ms, p99 ${mixEvents.lagP99} ms`);

    log(`  backlog: ${options.backlog} orders imported, one order.created each…`);
    const before = receiver.receipts.length;
    const pharmacyIds = Array.from({ length: FLEET.pharmacies }, (_, i) => i + 1);
    const backlogStarted = Date.now();
    const imported = await importOrders(server.url, { pharmacyIds, serviceDate, prefix: "BENCH-HOOKS", total: options.backlog, batchSize: 1000, seed: 7 });
    const importEnded = Date.now();
    await settle(() => receiver.receipts.length - before, imported.created, 120_000);
    const backlogReceipts = receiver.receipts.slice(before);
    const lastReceipt = Math.max(...backlogReceipts.map((r) => r.receivedAt));
    const backlog = delivered(backlogReceipts, (lastReceipt - backlogStarted) / 1000);
    const late = backlogReceipts.filter((r) => r.receivedAt >= importEnded).length;
    const drainSeconds = (lastReceipt - importEnded) / 1000;
    const drain = { events: late, seconds: round(drainSeconds, 2), perSecond: round(late / Math.max(drainSeconds, 0.001), 1) };
    log(`  backlog: ${backlog.events} events in ${backlog.seconds} s (${backlog.perSecond}/s), lag p50 ${backlog.lagP50} ms, p99 ${backlog.lagP99} ms; after the last commit ${drain.events} in ${drain.seconds} s`);
    const { log: _log, ...kept } = options;
    return { date: today(), machine, loadAverageEnd: describeMachine().loadAverage, options: kept, off, on, mixEvents, import: imported, backlog, drain };
  } finally {
    await server.stop();
    await database.drop();
    await receiver.close();
  }
}

export function webhookMarkdown(result: WebhookResult, notes: readonly string[] = []): string {
  const o = result.options;
  const row = (name: string, d: Delivered) => [name, d.events, d.seconds, `**${d.perSecond}**`, `**${d.lagP50}**`, `**${d.lagP99}**`, d.lagMax, d.duplicates, d.unverified];
  const lines = [
    `Run ${result.date} on ${machineLine(result.machine)}; 1-minute load average ${result.machine.loadAverage} at the start, ${result.loadAverageEnd} at the end. The server (and its sender loop), PostgreSQL 15, the load generator and the receiver share the machine's cores.`,
    "",
    `The fleet's PostgreSQL database of "API under load" (a throwaway database), one server process started with WEBHOOK_ALLOW_PRIVATE=true; a receiver on 127.0.0.1 (in the load generator's process) answers 204 at once and checks each signature. ` +
      `The courier mix (${o.couriers} couriers, paced as in "API under load") runs ${o.runMs / 1000} s after ${o.rampUpMs / 1000} s of ramp-up with no subscription (webhooks off: the baseline), then again with a dispatch key's subscription to every event (on: each pickup, delivery and attempt writes its event to the outbox in its transaction, and the sender sends it). ` +
      `Then ${o.backlog.toLocaleString("en-US")} orders go in through orders/batch (1000 a batch), one order.created each, with nothing else running: the sender's throughput with a backlog, from the first batch sent to the last event received. ` +
      "Lag: from the event's timestamp (taken in the transaction of the change, just before its commit) to the receiver having the whole request, on the same clock.",
    "",
    table(["Events", "events", "s", "events/s", "lag p50 ms", "lag p99 ms", "lag max ms", "duplicates", "bad signatures"], [
      row("made by the courier mix", result.mixEvents),
      row(`backlog of ${result.import.created.toLocaleString("en-US")} order.created`, result.backlog),
    ]),
    "",
    `Events of the mix by type: ${Object.entries(result.mixEvents.byType).map(([type, n]) => `${type} ${n}`).join(", ")}. ` +
      `The import took ${result.import.seconds} s (${result.import.ordersPerSecond} orders/s), so the backlog's rate is the import's: the sender kept up. ` +
      `A batch's 1000 events commit together when its transaction does, so their lag includes the batch's own time (the first row waits for the last). ` +
      `The sender alone: the events still unsent when the last batch's answer came, **${result.drain.events} in ${result.drain.seconds} s (${result.drain.perSecond} events/s)**.`,
    "",
    table(MIX_HEADER, [mixRow("webhooks off (baseline)", result.off, result.off), mixRow("webhooks on", result.on, result.off)]),
    "",
    "The two mix runs are the same couriers one after the other, so the second starts later in their day (fewer orders left to load); ratios are against the baseline of the same run.",
  ];
  if (notes.length) lines.push("", ...notes);
  return lines.join("\n");
}
