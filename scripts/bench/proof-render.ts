import { buildApp } from "../../server/app.ts";
import { loadConfig } from "../../server/config.ts";
import { openDatabase } from "../../server/db/client.ts";
import { seedDemo } from "../../server/seed/seed.ts";
import { TEST_DAY } from "../../tests/support/api-harness.ts";
import { completion, courierActions } from "../../tests/support/courier-actions.ts";
import { freshOrder, freshPharmacy } from "../../tests/support/security-fixtures.ts";
import { describeMachine, machineLine, median, percentile, round, type MachineDescription } from "./lib/machine.ts";
import { table } from "./lib/report.ts";

/**
 * Issue 24: GET /api/health's latency while ten proof PDFs are drawn at once
 * (each with a drawn signature), against its latency idle in the same run.
 * PDFs are drawn in the render pool's worker threads
 * (server/ops/services/proof/render-pool.ts), so health should barely move; a
 * render on the event loop would hold it for the whole render. In-process
 * (Fastify's inject) on the embedded database: what is measured is the event
 * loop, not the network.
 */

export interface ProofRenderResult {
  date: string;
  machine: MachineDescription;
  proofs: number;
  idle: { calls: number; p50Ms: number; p95Ms: number; maxMs: number };
  rendering: { calls: number; p50Ms: number; p95Ms: number; maxMs: number };
  /** From the first proof asked to the last answered. */
  rendersMs: number;
  statuses: Record<string, number>;
}

const KEY = "bench-dispatch-key-0123456789abcdefghijklmnopqrstuvwxyz";
const PAUSE_MS = 5;

const summary = (values: number[]) => ({
  calls: values.length,
  p50Ms: round(median(values), 2),
  p95Ms: round(percentile(values, 95), 2),
  maxMs: round(Math.max(...values), 2),
});

export async function runProofRender(options: { proofs: number } = { proofs: 10 }): Promise<ProofRenderResult> {
  const database = await openDatabase({});
  await seedDemo(database.db, TEST_DAY);
  const config = { ...loadConfig({ OPS_API_KEY: KEY }), webRoot: "/nonexistent", loginAttemptsPerMinute: 1000 };
  const app = await buildApp({ config, database, today: () => TEST_DAY, logger: false });
  await app.ready();
  try {
    const login = await app.inject({ method: "POST", url: "/api/sessions", payload: { email: "courier@example.com", password: "deliver-safely" } });
    const session = { cookie: String(login.headers["set-cookie"]).split(";")[0]!, csrf: login.json().csrf_token as string, courierId: login.json().courier.id as number };
    const pharmacyId = await freshPharmacy(database.db, session.courierId, "Bench Proof Pharmacy");
    const orderIds: number[] = [];
    for (let i = 0; i < options.proofs; i++) {
      const orderId = await freshOrder(database.db, { courierId: session.courierId, pharmacyId, status: "picked_up" });
      await courierActions(app, session).deliver(completion([orderId]));
      orderIds.push(orderId);
    }
    const pdf = (orderId: number) => app.inject({ method: "GET", url: `/api/ops/v1/orders/${orderId}/proof.pdf`, headers: { authorization: `Bearer ${KEY}` } });
    // Warm the pool (its workers start on first use) and the routes.
    await pdf(orderIds[0]!);

    const health = async () => {
      const started = performance.now();
      await app.inject({ method: "GET", url: "/api/health" });
      return performance.now() - started;
    };
    const pause = () => new Promise((resolve) => setTimeout(resolve, PAUSE_MS));
    const idle: number[] = [];
    for (let i = 0; i < 100; i++) {
      idle.push(await health());
      await pause();
    }

    const rendering: number[] = [];
    const statuses: Record<string, number> = {};
    let done = false;
    const started = performance.now();
    const renders = Promise.all(orderIds.map((orderId) => pdf(orderId).then((response) => (statuses[response.statusCode] = (statuses[response.statusCode] ?? 0) + 1)))).then(
      () => (done = true),
    );
    while (!done) {
      rendering.push(await health());
      await pause();
    }
    await renders;
    const rendersMs = performance.now() - started;
    return {
      date: new Date().toISOString(),
      machine: describeMachine(),
      proofs: options.proofs,
      idle: summary(idle),
      rendering: summary(rendering),
      rendersMs: round(rendersMs, 0),
      statuses,
    };
  } finally {
    await app.close();
    await database.close();
  }
}

export function proofRenderMarkdown(result: ProofRenderResult): string {
  return [
    `GET /api/health, one call after another (${PAUSE_MS} ms apart), idle and while ${result.proofs} proof PDFs are drawn at once ` +
      `(scripts/bench/proof-render.ts; in-process, embedded database). PDFs are drawn in worker threads ` +
      `(server/ops/services/proof/render-pool.ts): the API's event loop only waits for them.`,
    "",
    table(
      ["", "calls", "p50 ms", "p95 ms", "max ms"],
      [
        ["idle", result.idle.calls, result.idle.p50Ms, result.idle.p95Ms, result.idle.maxMs],
        [`while ${result.proofs} proofs render`, result.rendering.calls, result.rendering.p50Ms, result.rendering.p95Ms, result.rendering.maxMs],
      ],
    ),
    "",
    `The ${result.proofs} proofs took ${result.rendersMs} ms from the first asked to the last answered ` +
      `(statuses: ${Object.entries(result.statuses)
        .map(([status, n]) => `${n}× ${status}`)
        .join(", ")}).`,
    "",
    `${machineLine(result.machine)}; load average ${result.machine.loadAverage}; ${result.date.slice(0, 10)}.`,
  ].join("\n");
}
