import type { CheckedRow } from "./rows.ts";

/** What the batch check pool (pool.ts) and its worker (worker.ts) say to each other. */
export type BatchCheckRequest = { id: number; text: string; today: string };
export type BatchCheckAnswer =
  /** Sent once, when the worker has loaded and listens. */
  | { ready: true }
  /** A part of the checked rows, in order; the last part is done. */
  | { id: number; rows: CheckedRow[]; done: boolean }
  /** Not a body the worker reads (the server's parser answers it). */
  | { id: number; unread: true }
  | { id: number; error: string };
