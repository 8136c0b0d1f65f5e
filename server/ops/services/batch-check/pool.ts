import type { Worker } from "node:worker_threads";
import { startTsWorker } from "../../../workers/ts-worker.ts";
import type { BatchCheckAnswer, BatchCheckRequest } from "./protocol.ts";
import type { CheckedRow } from "./rows.ts";

/**
 * Issue 25, "Import at the speed of a pharmacy's nightly file": an orders
 * batch's body is parsed and its rows checked in a worker thread, so the
 * ~1 MB JSON parse, the contract's check of every row and the rows' request
 * hashes — ~30 ms of CPU a 1000-row batch — are not done on the thread that
 * answers couriers. One worker: the batches of a process run one at a time
 * already (server/http/interactive-first.ts), and a second core is what the
 * couriers and PostgreSQL have.
 *
 * The worker never decides a refusal the server's thread would word: a body
 * it does not read as a valid batch (see checkBatchText) and every failure
 * of the worker itself (not started yet, died, stuck, pool closed) answer
 * null, and the caller goes the server's ordinary way — Fastify's JSON
 * parser, the route's zod check, the rows checked in slices on the thread —
 * which gives the same answers and errors as before.
 */

/** A batch whose rows the worker checked, as the route receives it in place of the parsed body. */
export class CheckedBatch {
  constructor(
    readonly rows: CheckedRow[],
    /** The service day the date rule was applied with: the batch writes with the same one. */
    readonly today: string,
  ) {}
}

export interface BatchCheckPoolOptions {
  /** Bodies shorter than this are read on the server's thread: their check costs less than the round trip (default 64 KiB). */
  inThreadBelowBytes?: number;
  /** How long one check may take in the worker before it is stopped and the batch read on the thread instead (default 10 s). */
  timeoutMs?: number;
  /** How long a batch waits for the worker to load (once per process) before it is read on the thread (default 10 s). */
  startTimeoutMs?: number;
  /** Told why the worker failed (the batch is then read on the server's thread). */
  onFailure?: (reason: string) => void;
  /** The worker's TypeScript entry (tests give one that fails). */
  entry?: URL;
}

const ENTRY = new URL("./worker.ts", import.meta.url);
/** A 2 MB body's parse and check need a few tens of MB; a runaway one stops here. */
const WORKER_HEAP_MB = 256;
/** After a worker failed to start, batches are read on the thread this long before another start is tried. */
const RETRY_START_MS = 60_000;

interface Pending {
  rows: CheckedRow[];
  today: string;
  timer: NodeJS.Timeout;
  resolve(batch: CheckedBatch | null): void;
}

export class BatchCheckPool {
  private readonly inThreadBelowBytes: number;
  private readonly timeoutMs: number;
  private readonly startTimeoutMs: number;
  private readonly onFailure: (reason: string) => void;
  private readonly entry: URL;
  private worker: Worker | null = null;
  private ready: Promise<boolean> | null = null;
  private isReady = false;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private closed = false;
  /** Ends the wait for the starting worker (ready, or not to be). */
  private settleStart: ((ok: boolean) => void) | null = null;
  private noStartUntil = 0;

  constructor(options: BatchCheckPoolOptions = {}) {
    this.inThreadBelowBytes = options.inThreadBelowBytes ?? 64 * 1024;
    this.timeoutMs = options.timeoutMs ?? 10_000;
    this.startTimeoutMs = options.startTimeoutMs ?? 10_000;
    this.onFailure = options.onFailure ?? (() => undefined);
    this.entry = options.entry ?? ENTRY;
  }

  /**
   * The batch's rows checked in the worker, or null: read it on the server's
   * thread. The worker is started by the first large batch (a server that
   * takes none never starts it), which waits for it to load.
   */
  async check(text: string, today: string): Promise<CheckedBatch | null> {
    if (this.closed || text.length < this.inThreadBelowBytes) return null;
    if (!this.isReady && !(await this.start())) return null;
    const worker = this.worker;
    if (!worker) return null;
    return new Promise((resolve) => {
      const id = this.nextId++;
      const timer = setTimeout(() => this.fail(`batch check stopped after ${this.timeoutMs} ms`), this.timeoutMs);
      this.pending.set(id, { rows: [], today, timer, resolve });
      const request: BatchCheckRequest = { id, text, today };
      worker.postMessage(request);
    });
  }

  /** Starts the worker if it is not running; true once it listens, false if it could not start (or the pool closed meanwhile). */
  start(): Promise<boolean> {
    if (this.closed || performance.now() < this.noStartUntil) return Promise.resolve(false);
    if (this.ready) return this.ready;
    const worker = startTsWorker(this.entry, { heapMb: WORKER_HEAP_MB });
    this.worker = worker;
    this.ready = new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => this.fail(`batch check worker not ready after ${this.startTimeoutMs} ms`), this.startTimeoutMs);
      timer.unref();
      this.settleStart = (ok) => {
        clearTimeout(timer);
        this.settleStart = null;
        // A worker that cannot start is not tried again at every batch: they are read on the thread meanwhile.
        if (!ok) this.noStartUntil = performance.now() + RETRY_START_MS;
        resolve(ok);
      };
    });
    worker.on("message", (answer: BatchCheckAnswer) => {
      if ("ready" in answer) {
        this.isReady = true;
        this.settleStart?.(true);
        return;
      }
      this.answer(answer);
    });
    worker.on("error", (error) => this.fail(`batch check worker failed: ${error.message}`));
    worker.on("exit", (code) => this.fail(`batch check worker exited (code ${code})`));
    return this.ready;
  }

  /** Stops the worker; checks in flight are answered null (read on the thread), later ones too. */
  async close(): Promise<void> {
    this.closed = true;
    await this.stop();
  }

  private answer(answer: Exclude<BatchCheckAnswer, { ready: true }>): void {
    const pending = this.pending.get(answer.id);
    if (!pending) return;
    if ("rows" in answer) {
      // The rows come in parts, each its own message: unpacking them is no one long task on this thread.
      for (const row of answer.rows) pending.rows.push(row);
      if (!answer.done) return;
    } else if ("error" in answer) this.onFailure(`batch check failed: ${answer.error}`);
    this.pending.delete(answer.id);
    clearTimeout(pending.timer);
    pending.resolve("rows" in answer ? new CheckedBatch(pending.rows, pending.today) : null);
  }

  /** The worker is retired (a new one starts with the next large batch); what it had is read on the thread. */
  private fail(reason: string): void {
    this.onFailure(reason);
    void this.stop();
  }

  private async stop(): Promise<void> {
    const worker = this.worker;
    this.settleStart?.(false);
    this.worker = null;
    this.ready = null;
    this.isReady = false;
    for (const [id, pending] of this.pending) {
      this.pending.delete(id);
      clearTimeout(pending.timer);
      pending.resolve(null);
    }
    if (!worker) return;
    worker.removeAllListeners();
    worker.on("error", () => undefined);
    await worker.terminate();
  }
}
