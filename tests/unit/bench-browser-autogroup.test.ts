import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import { afterEach, expect, it } from "vitest";
import { autogroupsEnabled, putBrowserGroupFirst } from "../../scripts/bench/lib/browser-autogroup.ts";

/**
 * The first-screen bench puts the browser's scheduling group above the bench's own session (decision 0047).
 * Read on this machine's kernel: a process started in a session of its own, as Playwright starts the browser.
 */

let child: ChildProcess | undefined;
afterEach(() => {
  child?.kill("SIGKILL");
  child = undefined;
});

const autogroupsOn = autogroupsEnabled();
const privileged = process.getuid?.() === 0;

function sessionOfItsOwn(): number {
  child = spawn(process.execPath, ["-e", "setInterval(() => {}, 1000)"], { detached: true, stdio: "ignore" });
  return child.pid!;
}

it("gives the browser's group the highest weight and leaves the bench's own group as it was", () => {
  const pid = sessionOfItsOwn();
  const ownBefore = readFileSync("/proc/self/autogroup", "utf8");
  const standing = putBrowserGroupFirst(pid);
  if (!autogroupsOn) return void expect(standing).toBe("no autogroups");
  if (!privileged) return void expect(standing).toBe("not permitted");
  expect(standing).toBe("first");
  expect(readFileSync(`/proc/${pid}/autogroup`, "utf8")).toMatch(/nice -20\s*$/);
  expect(readFileSync("/proc/self/autogroup", "utf8")).toBe(ownBefore);
});

it.runIf(autogroupsOn)("fails the run when the browser is gone instead of measuring without it", async () => {
  const gone = sessionOfItsOwn();
  const exited = new Promise((resolve) => child!.once("exit", resolve));
  child!.kill("SIGKILL");
  await exited;
  expect(() => putBrowserGroupFirst(gone)).toThrow(`no browser process ${gone}`);
});
