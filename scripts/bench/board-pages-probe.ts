/**
 * Where a day board's load goes on the server (issue 27's board work): the
 * real server (PGlite) with the board bench's day of 2,000 orders, and the
 * dispatcher's GET /api/ops/v1/orders for the day, every page, three times,
 * timed from the client. LIMIT=… sets the page size (200 before, 1000 now);
 * PROF=1 writes the server's CPU profile to /tmp/bl/prof.
 *   npx tsx scripts/bench/board-pages-probe.ts
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { calendarDate } from "../../domain/dates.ts";
import { seedDay } from "./board.ts";
import { startBenchServer } from "./lib/server.ts";
import { BENCH_OPS_KEY } from "./ops/common.ts";

const dataDir = mkdtempSync(path.join(tmpdir(), "rxc-probe-"));
const server = await startBenchServer({ dataDir, env: { OPS_API_KEY: BENCH_OPS_KEY }, nodeArgs: process.env.PROF ? ["--cpu-prof", "--cpu-prof-dir=/tmp/bl/prof"] : [] });
try {
  const serviceDate = calendarDate(new Date(), "America/New_York");
  await seedDay(server.url, serviceDate, console.log);
  const login = await fetch(`${server.url}/api/ops/v1/sessions`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ email: "dispatch@example.com", password: "dispatch-safely" }) });
  const cookie = login.headers.getSetCookie().map((c) => c.split(";")[0]).join("; ");
  const limit = Number(process.env.LIMIT ?? 200);
  for (let round = 0; round < 3; round++) {
    let cursor: string | null = null;
    const times: number[] = [];
    const t0 = performance.now();
    do {
      const q = new URLSearchParams({ service_date: serviceDate, limit: String(limit) });
      if (cursor) q.set("cursor", cursor);
      const t = performance.now();
      const res = await fetch(`${server.url}/api/ops/v1/orders?${q}`, { headers: { cookie, "accept-encoding": "gzip, deflate, br" } });
      const body = (await res.json()) as { next_cursor: string | null };
      times.push(Math.round(performance.now() - t));
      cursor = body.next_cursor;
    } while (cursor);
    console.log(`limit ${limit}: ${times.length} pages, ${times.join(" ")} ms; total ${Math.round(performance.now() - t0)} ms`);
  }
} finally {
  await server.stop();
}
