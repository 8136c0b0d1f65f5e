import { availableParallelism } from "node:os";
import type { Worker } from "node:worker_threads";
import { startTsWorker } from "../../../workers/ts-worker.ts";
import { HttpError } from "../../../http/errors.ts";
import type { RenderAnswer, RenderJob, RenderRequest } from "./render-jobs.ts";

/**
 * Issue 24: PDFs are drawn off the event loop. A small fixed pool of worker
 * threads renders one PDF each at a time; more wait in a bounded queue (a
 * full queue is 503 + Retry-After at once); a render that runs past its time
 * bound has its worker terminated and replaced and is answered 503 in words;
 * a worker that dies (its heap bounded too) is 500 in words. No request waits
 * on a render forever, and the API's other calls are served meanwhile.
 */

export interface RenderPoolOptions {
  /** Worker threads (default: one on two cores or fewer, else two). */
  size?: number;
  /** Renders that may wait for a worker; one more is refused (default 16). */
  queueLimit?: number;
  /** How long one render may run once a worker has it (default 20 s). */
  timeoutMs?: number;
  /** How long a new worker may take to load before the renders waiting for it are answered (default 30 s). */
  startTimeoutMs?: number;
  /** The worker's TypeScript entry (tests give one that holds each render on a latch). */
  entry?: URL;
  /** Passed to the worker beside the entry. */
  workerData?: Record<string, unknown>;
  /** Told why a render failed (the caller gets words without the detail). */
  onFailure?: (reason: string) => void;
}

const DEFAULT_ENTRY = new URL("./render-worker.ts", import.meta.url);
/** A worker's JavaScript heap: a proof needs a few MB; a runaway one stops here rather than taking the machine. */
const WORKER_HEAP_MB = 256;

interface Task {
  id: number;
  job: RenderJob;
  resolve(pdf: Buffer): void;
  reject(error: Error): void;
}

interface Slot {
  worker: Worker;
  /** Loaded and listening: renders go only to a ready worker. */
  ready: boolean;
  task: Task | null;
  timer: NodeJS.Timeout | null;
}

const busy = () =>
  new HttpError(503, "render_busy", "Too many PDFs are being drawn right now. Try again in a few seconds.", undefined, { "retry-after": "5" });
const timedOut = (ms: number) =>
  new HttpError(
    503,
    "render_timeout",
    `The PDF took longer than ${(ms / 1000).toLocaleString("en-US", { maximumFractionDigits: 1 })} seconds to draw and was stopped. Try again; the JSON record has the same content.`,
    undefined,
    { "retry-after": "5" },
  );
const failed = () => new HttpError(500, "render_failed", "The PDF could not be drawn. The JSON record has the same content.");
const closing = () => new HttpError(503, "render_closed", "The server is shutting down; try again in a moment.", undefined, { "retry-after": "5" });

export class RenderPool {
  private readonly size: number;
  private readonly queueLimit: number;
  private readonly timeoutMs: number;
  private readonly startTimeoutMs: number;
  private readonly entry: URL;
  private readonly extraData: Record<string, unknown>;
  private readonly onFailure: (reason: string) => void;
  private readonly slots: Slot[] = [];
  private readonly queue: Task[] = [];
  private nextId = 1;
  private closed = false;

  constructor(options: RenderPoolOptions = {}) {
    this.size = Math.max(1, options.size ?? (availableParallelism() <= 2 ? 1 : 2));
    this.queueLimit = Math.max(0, options.queueLimit ?? 16);
    this.timeoutMs = options.timeoutMs ?? 20_000;
    this.startTimeoutMs = options.startTimeoutMs ?? 30_000;
    this.entry = options.entry ?? DEFAULT_ENTRY;
    this.extraData = options.workerData ?? {};
    this.onFailure = options.onFailure ?? (() => undefined);
  }

  /** The PDF's bytes; an HttpError in words when the pool is full, the render too slow, or the worker died. */
  render(job: RenderJob): Promise<Buffer> {
    if (this.closed) return Promise.reject(closing());
    // Waiting renders beyond what the free (or starting) workers will take at once count against the queue.
    const freeWorkers = this.size - this.slots.filter((slot) => slot.task !== null).length;
    if (this.queue.length >= this.queueLimit + freeWorkers) return Promise.reject(busy());
    return new Promise<Buffer>((resolve, reject) => {
      this.queue.push({ id: this.nextId++, job, resolve, reject });
      this.pump();
    });
  }

  /** Stops every worker; renders waiting or running are answered 503. */
  async close(): Promise<void> {
    this.closed = true;
    for (const task of this.queue.splice(0)) task.reject(closing());
    await Promise.all(this.slots.splice(0).map((slot) => this.retire(slot, closing())));
  }

  /** A ready worker with nothing to do; a new worker is started (and reports ready later) while the pool is below its size. */
  private idleSlot(): Slot | null {
    const idle = this.slots.find((slot) => slot.ready && slot.task === null);
    if (idle) return idle;
    if (this.slots.length < this.size) this.slots.push(this.spawn());
    return null;
  }

  private pump(): void {
    while (this.queue.length > 0) {
      const slot = this.idleSlot();
      if (!slot) return;
      const task = this.queue.shift()!;
      slot.task = task;
      slot.timer = setTimeout(() => {
        this.onFailure(`render stopped after ${this.timeoutMs} ms`);
        void this.replace(slot, timedOut(this.timeoutMs));
      }, this.timeoutMs);
      const request: RenderRequest = { id: task.id, job: task.job };
      slot.worker.postMessage(request);
    }
  }

  private spawn(): Slot {
    const worker = startTsWorker(this.entry, { heapMb: WORKER_HEAP_MB, workerData: this.extraData });
    const slot: Slot = { worker, ready: false, task: null, timer: null };
    // A worker that never gets ready is bounded too: the renders waiting for it are answered, not left hanging.
    slot.timer = setTimeout(() => {
      this.onFailure(`render worker not ready after ${this.startTimeoutMs} ms`);
      void this.replace(slot, timedOut(this.startTimeoutMs));
    }, this.startTimeoutMs);
    worker.on("message", (answer: RenderAnswer) => {
      if ("ready" in answer) {
        if (slot.timer) clearTimeout(slot.timer);
        slot.timer = null;
        slot.ready = true;
        this.pump();
        return;
      }
      const task = slot.task;
      if (!task || task.id !== answer.id) return;
      this.finish(slot);
      if (answer.ok) task.resolve(Buffer.from(answer.pdf.buffer, answer.pdf.byteOffset, answer.pdf.byteLength));
      else {
        this.onFailure(`render failed: ${answer.message}`);
        task.reject(failed());
      }
      this.pump();
    });
    worker.on("error", (error) => {
      this.onFailure(`render worker failed: ${error.message}`);
      void this.replace(slot, failed());
    });
    worker.on("exit", (code) => {
      this.onFailure(`render worker exited (code ${code})`);
      void this.replace(slot, failed());
    });
    return slot;
  }

  private finish(slot: Slot): void {
    if (slot.timer) clearTimeout(slot.timer);
    slot.timer = null;
    slot.task = null;
  }

  /** Ends the slot's worker, answering its render (if any) with `error`. */
  private async retire(slot: Slot, error: Error): Promise<void> {
    const task = slot.task;
    this.finish(slot);
    task?.reject(error);
    slot.worker.removeAllListeners();
    slot.worker.on("error", () => undefined);
    await slot.worker.terminate();
  }

  /**
   * A stuck or dead worker is replaced by a fresh one (started when next
   * needed). One that died before it was ready cannot start at all: the
   * renders waiting for it are answered rather than left to wait on a loop of
   * failing starts.
   */
  private async replace(slot: Slot, error: Error): Promise<void> {
    const index = this.slots.indexOf(slot);
    if (index === -1) return;
    this.slots.splice(index, 1);
    const neverReady = !slot.ready;
    const retired = this.retire(slot, error);
    if (neverReady && !this.slots.some((other) => other.ready)) for (const task of this.queue.splice(0)) task.reject(error);
    else if (!this.closed) this.pump();
    await retired;
  }
}
