/**
 * Diagnostic, not part of npm run bench (issue 25): where the slowest courier
 * calls of the import bench fall against the batches running beside them.
 * Runs the bench's import (FULL_IMPORT, the rounds alternating with windows
 * alone) and prints the slowest calls, each with the batch in flight when it
 * was sent and how far into that batch (or "alone"), then how the calls over
 * a threshold spread over the batches' course (tenths of a batch's round trip).
 *
 *   node --import tsx scripts/bench/ops/import-stalls.ts [slowest=30] [thresholdMs=100]
 */
import { FULL_IMPORT, runImportBench } from "./import.ts";

const slowest = Number(process.argv[2] ?? 30);
const thresholdMs = Number(process.argv[3] ?? 100);
const calls: { endpoint: string; sentAt: number; ms: number; status: number }[] = [];
const spans: { round: number; index: number; sent: number; answered: number }[] = [];

const result = await runImportBench({
  ...FULL_IMPORT,
  onCall: (call) => calls.push(call),
  onBatches: (round, list) => list.forEach(([sent, answered], index) => spans.push({ round, index, sent, answered })),
});
console.log(`mix p99 ${result.baseline.p99} alone → ${result.during.p99} importing; batches ${spans.length}, calls ${calls.length}`);

const inBatch = (at: number) => spans.find((span) => span.sent <= at && at < span.answered);
const where = (at: number) => {
  const span = inBatch(at);
  if (!span) return "no batch";
  const length = span.answered - span.sent;
  return `round ${span.round} batch ${span.index} at ${Math.round(at - span.sent)} of ${length} ms`;
};
const started = Math.min(...calls.map((call) => call.sentAt));
for (const call of [...calls].sort((a, b) => b.ms - a.ms).slice(0, slowest)) {
  console.log(`${call.ms.toFixed(0).padStart(5)} ms ${call.endpoint.padEnd(10)} sent at ${((call.sentAt - started) / 1000).toFixed(2)} s, ${where(call.sentAt)}`);
}
const tenths = new Array<number>(10).fill(0);
let outside = 0;
for (const call of calls.filter((c) => c.ms > thresholdMs)) {
  const span = inBatch(call.sentAt);
  if (!span) outside++;
  else tenths[Math.min(9, Math.floor(((call.sentAt - span.sent) / (span.answered - span.sent)) * 10))]!++;
}
console.log(`calls over ${thresholdMs} ms: outside a batch ${outside}; by tenth of the batch in flight: ${tenths.join(" ")}`);
