import { MAX_BATCH_ORDERS, type OrderBatchResponse } from "../contract/ops.ts";
import { describeError, ordersFromCsv, type MappedRow, type RejectedRow } from "./order-csv.ts";

/** An operations API call: the CLI's (a Bearer key, scripts/ops/client.ts) or the console's (a staff session). */
export type OpsCall = <T>(method: "POST", path: string, body?: unknown) => Promise<T>;

export interface ImportReport {
  /** Data rows read (orders sent plus rows refused before sending). */
  rows: number;
  created: number;
  unchanged: number;
  /** Refused here or by the server, by line, with reasons. */
  rejected: RejectedRow[];
  /** Orders created or already there, by line: what dispatch assigns next. */
  imported: { line: number; externalId: string; orderId: number; status: "created" | "unchanged" }[];
}

export interface ImportOptions {
  pharmacyId: number;
  /** Orders per POST orders/batch (the API takes up to 1000). */
  chunkSize?: number;
  /** Called after each batch with the orders done so far and the total to send. */
  onProgress?: (done: number, total: number) => void;
}

/**
 * Imports a CSV's orders: rows the file itself refuses are reported without a
 * round trip; the rest go to POST /api/ops/v1/orders/batch in chunks, and each
 * answer row is matched back to its CSV line by position (the API answers in
 * the order it was sent). A batch the server refuses as a whole (a wrong key,
 * an unknown pharmacy, the network) stops the import and says how far it got:
 * orders already sent are kept, and running the same file again only adds the
 * rest (external_id makes each order once).
 */
export async function importOrders(call: OpsCall, text: string, options: ImportOptions): Promise<ImportReport> {
  const chunkSize = Math.min(options.chunkSize ?? MAX_BATCH_ORDERS, MAX_BATCH_ORDERS);
  const { orders, rejected } = ordersFromCsv(text, options.pharmacyId);
  const report: ImportReport = { rows: orders.length + rejected.length, created: 0, unchanged: 0, rejected: [...rejected], imported: [] };
  for (let start = 0; start < orders.length; start += chunkSize) {
    const chunk = orders.slice(start, start + chunkSize);
    let answer: OrderBatchResponse;
    try {
      answer = await call<OrderBatchResponse>("POST", "orders/batch", { orders: chunk.map((row) => row.body) });
    } catch (error) {
      throw new ImportStopped(error, report, chunk[0]!.line);
    }
    chunk.forEach((row, index) => record(report, row, answer.results[index]));
    options.onProgress?.(Math.min(start + chunkSize, orders.length), orders.length);
  }
  report.rejected.sort((a, b) => a.line - b.line);
  report.imported.sort((a, b) => a.line - b.line);
  return report;
}

function record(report: ImportReport, row: MappedRow, result: OrderBatchResponse["results"][number] | undefined): void {
  if (!result || (result.external_id !== null && result.external_id !== row.externalId)) {
    report.rejected.push({ ...row, reasons: ["the server's answer did not name this order; run the import again to be sure it is in"] });
  } else if (result.status === "rejected") {
    const reasons = (result.errors ?? []).map((error) => describeError(error.path, error.message));
    report.rejected.push({ ...row, reasons: reasons.length ? reasons : ["rejected by the server"] });
  } else {
    report[result.status] += 1;
    report.imported.push({ line: row.line, externalId: row.externalId, orderId: result.order_id!, status: result.status });
  }
}

/** The server refused a whole batch: what was done until then, and from which line on nothing was sent. */
export class ImportStopped extends Error {
  constructor(
    override readonly cause: unknown,
    readonly report: ImportReport,
    readonly fromLine: number,
  ) {
    super(`${cause instanceof Error ? cause.message : String(cause)}\nThe import stopped at line ${fromLine}: rows from there on were not sent.`);
    this.name = "ImportStopped";
  }
}

/** The report as the CLI prints it: counts, then each rejected row by line. */
export function formatReport(report: ImportReport, file: string): string {
  const lines = [
    `${file}: ${report.rows} row${report.rows === 1 ? "" : "s"}: ${report.created} created, ${report.unchanged} unchanged (already imported), ${report.rejected.length} rejected.`,
  ];
  if (report.rejected.length) {
    lines.push("Rejected rows (nothing of them was imported; fix them and import the file again):");
    for (const row of report.rejected) {
      const where = row.endLine > row.line ? `lines ${row.line}-${row.endLine}` : `line ${row.line}`;
      lines.push(`  ${where}${row.externalId ? ` (${row.externalId})` : ""}: ${row.reasons.join("; ")}`);
    }
  }
  return lines.join("\n");
}
