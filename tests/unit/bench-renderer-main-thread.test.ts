import { spawn, type ChildProcess } from "node:child_process";
import { afterEach, expect, it } from "vitest";
import { keepRendererMainThreadsFirst, SCHED_POLICY, schedulingPolicy } from "../../scripts/bench/lib/renderer-main-thread.ts";

/** The first-screen bench puts each renderer's main thread first (decision 0048); read on this machine's kernel. */

const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) child.kill("SIGKILL");
});
const privileged = process.getuid?.() === 0;
const { other: SCHED_OTHER, fifo: SCHED_FIFO } = SCHED_POLICY;

function processNamed(...args: string[]): number {
  const child = spawn(process.execPath, ["-e", "setInterval(() => {}, 1000)", "--", ...args], { stdio: "ignore" });
  children.push(child);
  return child.pid!;
}

it.runIf(privileged)("puts a renderer of this browser first as it starts, and leaves every other process as it was", async () => {
  const watch = keepRendererMainThreadsFirst(process.pid);
  const renderer = processNamed("--type=renderer");
  const gpu = processNamed("--type=gpu-process");
  await new Promise((resolve) => setTimeout(resolve, 200));
  expect(watch.stop()).toEqual({ renderers: 1 });
  expect(schedulingPolicy(renderer)).toBe(SCHED_FIFO);
  expect(schedulingPolicy(gpu)).toBe(SCHED_OTHER);
  expect(schedulingPolicy(process.pid)).toBe(SCHED_OTHER);
});

it.runIf(privileged)("knows a renderer by the command line Chromium rewrites as one space-separated string", async () => {
  const watch = keepRendererMainThreadsFirst(process.pid);
  // A long enough command line for the new title to fit where Linux keeps it.
  const child = spawn(process.execPath, ["-e", 'process.title = "chromium-headless-shell --type=renderer --headless"; setInterval(() => {}, 1000)', "--", "x".repeat(80)], { stdio: "ignore" });
  children.push(child);
  await new Promise((resolve) => setTimeout(resolve, 300));
  expect(watch.stop()).toEqual({ renderers: 1 });
  expect(schedulingPolicy(child.pid!)).toBe(SCHED_FIFO);
});

it.runIf(privileged)("leaves a renderer of another browser alone", async () => {
  const other = spawn("sh", ["-c", `exec "${process.execPath}" -e "setInterval(() => {}, 1000)" -- --type=renderer`], { stdio: "ignore", detached: true });
  children.push(other);
  const watch = keepRendererMainThreadsFirst(999_999_999);
  await new Promise((resolve) => setTimeout(resolve, 100));
  expect(watch.stop()).toEqual({ renderers: 0 });
  expect(schedulingPolicy(other.pid!)).toBe(SCHED_OTHER);
});

it.runIf(!privileged)("says so where it may not", () => {
  expect(keepRendererMainThreadsFirst(process.pid).stop()).toBe("not permitted");
});
