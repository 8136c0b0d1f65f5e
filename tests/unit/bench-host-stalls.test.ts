import { execFile } from "node:child_process";
import os from "node:os";
import { promisify } from "node:util";
import { expect, it } from "vitest";
import { guestStalls, hostStallsText, probeHostStalls, stealMs, type HostStalls } from "../../scripts/bench/lib/host-stalls.ts";

/** The first-screen bench says whether the guest's CPUs stalled (scripts/bench/lib/host-stalls.ts). */

const run = promisify(execFile);
const privileged = process.getuid?.() === 0;

it("probes every CPU and says so in the report", async () => {
  const stalls = await probeHostStalls(0.5);
  expect(stalls.perCpu.map((cpu) => cpu.cpu)).toEqual(os.cpus().map((_, cpu) => cpu));
  for (const cpu of stalls.perCpu) expect(cpu.lateWakes).toBeGreaterThanOrEqual(0);
  expect(hostStallsText({ ...stalls, stealDuringRunsMs: 0 })).toMatch(/^Host stalls, probed before the runs for 0\.5 s .*CPU 0 /);
});

it.runIf(privileged)("sees a CPU held away from it (the probe is not blind)", async () => {
  const probing = probeHostStalls(3);
  // A real-time busy loop above the probe's priority holds CPU 0 for 300 ms, as a hypervisor holding the virtual CPU would
  // (a second in, so the probes have started even on a busy machine).
  await new Promise((resolve) => setTimeout(resolve, 1000));
  await run("taskset", ["--cpu-list", "0", "chrt", "--fifo", "60", process.execPath, "-e", "const end = Date.now() + 300; while (Date.now() < end);"]);
  const stalls = await probing;
  expect(stalls.realTime).toBe(true);
  const cpu0 = stalls.perCpu.find((cpu) => cpu.cpu === 0)!;
  expect(cpu0.lateWakes).toBeGreaterThanOrEqual(1);
  expect(cpu0.worstMs).toBeGreaterThan(100);
  expect(guestStalls(stalls)).toBe(true);
  expect(hostStallsText({ ...stalls, stealDuringRunsMs: null })).toContain("This guest stops its virtual CPUs now and then");
});

it("calls a guest stalling by the time it loses, not by one late wake", () => {
  const probe = (lostMs: number, lateWakes: number): HostStalls => ({ probeSeconds: 15, realTime: true, perCpu: [{ cpu: 0, lateWakes: 0, lostMs: 0, worstMs: 0 }, { cpu: 1, lateWakes, lostMs, worstMs: lostMs / Math.max(1, lateWakes) }] });
  // The guest of the 2026-12-06 16:38 UTC record: one wake 3 ms late in 15 s.
  expect(guestStalls(probe(3, 1))).toBe(false);
  // The guest of 2026-12-06 14:44 UTC: 715 ms in 150 s, about 72 ms in 15.
  expect(guestStalls(probe(72, 24))).toBe(true);
});

it("reads the hypervisor's steal time where Linux reports it", () => {
  const steal = stealMs();
  if (steal !== null) expect(steal).toBeGreaterThanOrEqual(0);
});
