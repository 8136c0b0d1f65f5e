import { parentPort } from "node:worker_threads";
import type { BatchCheckAnswer, BatchCheckRequest } from "./protocol.ts";
import { checkBatchText } from "./rows.ts";

/** The batch check pool's worker (pool.ts), loaded through server/workers/ts-boot.mjs. */
if (!parentPort) throw new Error("batch-check/worker.ts runs as a worker thread of the batch check pool.");
const port = parentPort;

/** Rows per message: the server's thread unpacks each message in one piece (~0.3 ms for 100 rows). */
const ROWS_PER_MESSAGE = 100;

const send = (answer: BatchCheckAnswer) => port.postMessage(answer);

port.on("message", ({ id, text, today }: BatchCheckRequest) => {
  try {
    const rows = checkBatchText(text, today);
    if (rows === null) return send({ id, unread: true });
    if (rows.length === 0) return send({ id, rows, done: true });
    for (let start = 0; start < rows.length; start += ROWS_PER_MESSAGE) {
      send({ id, rows: rows.slice(start, start + ROWS_PER_MESSAGE), done: start + ROWS_PER_MESSAGE >= rows.length });
    }
  } catch (error) {
    send({ id, error: error instanceof Error ? error.message : String(error) });
  }
});
send({ ready: true });
