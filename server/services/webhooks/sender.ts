import { sql } from "drizzle-orm";
import { Agent, fetch } from "undici";
import { retryDelayMs } from "../../../domain/webhook-events.ts";
import type { Db } from "../../db/client.ts";
import { checkWebhookUrl, systemResolver, type Resolver } from "./url-policy.ts";
import { pinnedConnector, pinnedDispatchers, type PinnedConnect } from "./pinned-connect.ts";
import { onOutboxWrite } from "./outbox.ts";
import { signatureHeaders } from "./signing.ts";

/**
 * The sender loop each API process runs (docs/operations.md "Webhooks").
 * It claims due outbox rows with FOR UPDATE SKIP LOCKED and leases them (moves
 * their next attempt past the send's timeout) in one statement, so processes
 * sharing a database never claim the same row; then it sends outside any
 * transaction and records the answer. A process killed mid-send leaves the
 * row pending: when the lease runs out any process sends it again, with the
 * same webhook-id.
 *
 * Each send resolves the URL's host once, checks every answer (./url-policy.ts)
 * and connects to those answers only (./pinned-connect.ts).
 */

export interface SenderLogger {
  warn(object: unknown, message: string): void;
}

export interface WebhookSenderOptions {
  db: Db;
  log: SenderLogger;
  allowPrivate: boolean;
  /** Tests shrink the retry schedule (WEBHOOK_RETRY_SCALE); 1 in production. */
  retryScale?: number;
  /** How often a quiet process looks for due rows (other processes' events, retries). */
  pollMs?: number;
  batchSize?: number;
  timeoutMs?: number;
  /** The host name lookup of each send's check (tests make a name answer differently each time). */
  resolve?: Resolver;
  /** Opens a send's connection to its checked addresses (tests watch where it goes). */
  connect?: PinnedConnect;
}

export interface WebhookSender {
  /** Sends everything due now; resolves when none is left (tests, shutdown). */
  drain(): Promise<void>;
  stop(): Promise<void>;
}

interface Claimed {
  id: number;
  event_id: string;
  body: string;
  attempts: number;
  url: string;
  secret: string;
}

interface Result {
  statusCode: number | null;
  error: string | null;
  durationMs: number;
}

const rowsOf = <T>(result: unknown): T[] => (Array.isArray(result) ? result : (result as { rows: T[] }).rows) as T[];

export function startWebhookSender(options: WebhookSenderOptions): WebhookSender {
  const { db, log, allowPrivate } = options;
  const resolve = options.resolve ?? systemResolver;
  const pinned = pinnedDispatchers(options.connect ?? pinnedConnector);
  // WEBHOOK_ALLOW_PRIVATE: nothing is checked, so nothing is pinned.
  const unpinned = new Agent();
  const retryScale = options.retryScale ?? 1;
  const pollMs = options.pollMs ?? 1_000;
  const batchSize = options.batchSize ?? 25;
  const timeoutMs = options.timeoutMs ?? 10_000;
  // Longer than a send can take, so a live process finishes before anyone else may retry its row.
  const leaseMs = timeoutMs + 5_000;

  let stopped = false;
  let running: Promise<void> | null = null;
  let again = false;
  let timer: NodeJS.Timeout | null = null;

  async function claim(): Promise<Claimed[]> {
    const result = await db.execute(sql`
      with due as (
        select id from webhook_messages
        where status = 'pending' and next_attempt_at <= now()
        order by next_attempt_at, id
        limit ${batchSize}
        for update skip locked
      )
      update webhook_messages m
      set next_attempt_at = now() + ${leaseMs} * interval '1 millisecond'
      from due, webhook_subscriptions s
      where m.id = due.id and s.id = m.subscription_id
      returning m.id, m.event_id, m.body, m.attempts, s.url, s.secret`);
    return rowsOf<Claimed>(result).map((row) => ({ ...row, id: Number(row.id) }));
  }

  async function send(message: Claimed): Promise<Result> {
    const started = performance.now();
    const took = () => Math.round(performance.now() - started);
    // Checked again at send time: a name that resolved publicly at subscription may not point inside now.
    const verdict = await checkWebhookUrl(message.url, allowPrivate, resolve);
    if (!verdict.ok) return { statusCode: null, error: verdict.reason, durationMs: took() };
    try {
      const response = await fetch(verdict.url, {
        dispatcher: verdict.addresses ? pinned.for(verdict.addresses) : unpinned,
        method: "POST",
        headers: {
          "content-type": "application/json",
          "user-agent": "RxCourier-Webhooks/1",
          ...signatureHeaders(message.secret, message.event_id, message.body),
        },
        body: message.body,
        redirect: "manual",
        signal: AbortSignal.timeout(timeoutMs),
      });
      await response.body?.cancel().catch(() => undefined);
      const status = response.status;
      if (status >= 200 && status < 300) return { statusCode: status, error: null, durationMs: took() };
      const error = status >= 300 && status < 400 ? "The endpoint redirected; redirects are not followed." : `The endpoint answered ${status}.`;
      return { statusCode: status, error, durationMs: took() };
    } catch (error) {
      return { statusCode: null, error: describeFailure(error, timeoutMs), durationMs: took() };
    }
  }

  async function record(message: Claimed, result: Result): Promise<void> {
    const attempts = message.attempts + 1;
    await db.transaction(async (tx) => {
      await tx.execute(sql`insert into webhook_attempts (message_id, status_code, error, duration_ms)
        values (${message.id}, ${result.statusCode}, ${result.error}, ${result.durationMs})`);
      if (result.error === null) {
        await tx.execute(sql`update webhook_messages set status = 'delivered', attempts = ${attempts}, delivered_at = now() where id = ${message.id}`);
        return;
      }
      const delay = retryDelayMs(attempts, Math.random(), retryScale);
      if (delay === null) {
        await tx.execute(sql`update webhook_messages set status = 'failed', attempts = ${attempts} where id = ${message.id}`);
      } else {
        await tx.execute(sql`update webhook_messages
          set attempts = ${attempts}, next_attempt_at = now() + ${delay} * interval '1 millisecond' where id = ${message.id}`);
      }
    });
  }

  async function runOnce(): Promise<void> {
    for (;;) {
      again = false;
      const batch = await claim();
      await Promise.all(batch.map(async (message) => record(message, await send(message))));
      if (stopped || (batch.length < batchSize && !again)) return;
    }
  }

  function schedule(): void {
    if (stopped) return;
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => void tick(), pollMs);
    timer.unref();
  }

  function tick(): Promise<void> {
    if (stopped) return Promise.resolve();
    if (running) {
      again = true;
      return running;
    }
    running = runOnce()
      .catch((error: unknown) => {
        if (!stopped) log.warn({ err: error }, "webhook sender: a pass failed; the next poll tries again");
      })
      .finally(() => {
        running = null;
        schedule();
      });
    return running;
  }

  const unsubscribe = onOutboxWrite(() => void tick());
  schedule();

  return {
    async drain() {
      await tick();
      while (running) await running;
    },
    async stop() {
      stopped = true;
      unsubscribe();
      if (timer) clearTimeout(timer);
      // A send in flight finishes and records its answer; an unrecorded one is retried by lease.
      if (running) await running;
      await Promise.all([pinned.close(), unpinned.close()]);
    },
  };
}

function describeFailure(error: unknown, timeoutMs: number): string {
  if (error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError")) {
    return `No answer within ${timeoutMs / 1000} s.`;
  }
  const code = errorCode(error);
  if (code === "ECONNREFUSED") return "The connection was refused.";
  if (code) return `The request failed (${code}).`;
  const cause = error instanceof Error && error.cause instanceof Error ? `: ${error.cause.message}` : "";
  return `The request failed: ${error instanceof Error ? error.message : String(error)}${cause}`.slice(0, 300);
}

/** fetch wraps the socket's error as its cause, sometimes as an AggregateError of one per address tried. */
function errorCode(error: unknown, depth = 0): string | null {
  if (!error || typeof error !== "object" || depth > 3) return null;
  const { code, cause, errors } = error as { code?: unknown; cause?: unknown; errors?: unknown };
  if (typeof code === "string" && code !== "UND_ERR_SOCKET") return code;
  for (const inner of Array.isArray(errors) ? errors : []) {
    const found = errorCode(inner, depth + 1);
    if (found) return found;
  }
  return errorCode(cause, depth + 1);
}

declare module "fastify" {
  interface FastifyInstance {
    /** The process's webhook sender: drain() sends what is due now (tests). */
    webhookSender: { drain(): Promise<void> };
  }
}
