import { createHash } from "node:crypto";
import type { OrderCreateRequest } from "../../../domain/contract/ops.ts";

/** The same JSON whatever order the keys came in: the same body twice is the same order. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(",")}}`;
  }
  return JSON.stringify(value);
}

/** An order body's fingerprint (orders.request_hash): a replay is the same body, another body for the same external_id is not. Its own file so the batch check's worker thread loads no database code. */
export const requestHashOf = (body: OrderCreateRequest) => createHash("sha256").update(canonical(body)).digest("hex");
