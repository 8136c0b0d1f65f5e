import { spawn, type ChildProcess } from "node:child_process";
import { afterEach, describe, expect, it } from "vitest";
import { processTreeCpuMs, untilQuiet } from "../../scripts/bench/lib/browser-quiet.ts";

/**
 * The first-screen bench starts each measured load once the browser's process
 * tree is quiet (scripts/bench/lib/browser-quiet.ts): read here on real
 * processes, a parent with a child that sleeps or one that spins.
 */

const started: ChildProcess[] = [];

/** A shell whose child runs `script` in Node: the tree the bench reads, two levels deep. */
function treeRunning(script: string): ChildProcess {
  // A process group of its own, so that the whole tree goes when the test is done.
  const child = spawn("sh", ["-c", `"${process.execPath}" -e '${script}'; true`], { stdio: "ignore", detached: true });
  started.push(child);
  return child;
}

afterEach(() => {
  for (const child of started.splice(0)) process.kill(-child.pid!, "SIGKILL");
});

describe("a process tree's CPU time", () => {
  it("counts a process's descendants, by pid", async () => {
    const shell = treeRunning("const end = Date.now() + 3000; while (Date.now() < end);");
    await new Promise((resolve) => setTimeout(resolve, 400));
    const used = processTreeCpuMs(shell.pid!);
    expect(used.has(shell.pid!)).toBe(true);
    expect(used.size).toBeGreaterThanOrEqual(2);
    expect(Math.max(...used.values())).toBeGreaterThan(50);
  });

  it("is quiet at once when the tree sleeps", async () => {
    const shell = treeRunning("setTimeout(() => {}, 10000);");
    // Past Node's own start (a busy CI host can take a second over it).
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    const wait = await untilQuiet(shell.pid!, { windowMs: 300, maxWaitMs: 5_000 });
    expect(wait.quiet).toBe(true);
  });

  it("is not quiet while a descendant spins, and says so once the wait is over", async () => {
    const shell = treeRunning("for (;;);");
    const wait = await untilQuiet(shell.pid!, { windowMs: 300, maxWaitMs: 1_200 });
    expect(wait.quiet).toBe(false);
    expect(wait.waitedMs).toBeGreaterThanOrEqual(1_200);
  });

  it("waits for a descendant's work to end, then is quiet", async () => {
    const shell = treeRunning("const end = Date.now() + 1000; while (Date.now() < end); setTimeout(() => {}, 10000);");
    await new Promise((resolve) => setTimeout(resolve, 200));
    const wait = await untilQuiet(shell.pid!, { windowMs: 300, maxWaitMs: 5_000 });
    expect(wait.quiet).toBe(true);
    expect(wait.waitedMs).toBeGreaterThanOrEqual(600);
  });
});
