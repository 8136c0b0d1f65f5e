import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { processStat } from "./cpu.ts";

/**
 * The page's main thread as a phone runs it: never waiting for a core behind the browser's own threads
 * (decision 0048). A low-tier phone has eight cores, and Android lets the foreground app use all of them,
 * so the browser's other threads find cores of their own. On the bench's two cores the
 * same main thread shares them with the renderer's compositor and compile workers, the browser's network,
 * storage and GPU threads, and the wall clock it waits is counted as main-thread work, × the slowdown. A page
 * that runs more threads beside its main one (nine scripts compiled off the thread, IndexedDB, two early
 * answers) waited more than the bare page (scripts/bench/notes.ts). Each renderer's main thread (its
 * process's first thread) is put under SCHED_FIFO at the lowest real-time priority within POLL_MS of
 * its start: it runs whenever it is ready, and the browser's other threads take the other core.
 */

const POLL_MS = 10;
/** The lowest real-time priority: above every ordinary thread, below anything the kernel runs in real time. */
const PRIORITY = 1;
/** Linux's scheduling policies as /proc/PID/stat gives them. */
export const SCHED_POLICY = { other: 0, fifo: 1 } as const;

export type RendererMainThreadStanding = { renderers: number } | "not permitted";

export interface RendererWatch {
  /** Stops watching; how many renderers' main threads were put first, or "not permitted" (not root). */
  stop(): RendererMainThreadStanding;
}

function isDescendant(pid: number, ancestor: number): boolean {
  for (let current: number | undefined = pid, hops = 0; current && current > 1 && hops < 16; hops++) {
    if (current === ancestor) return true;
    current = processStat(current)?.parent;
  }
  return false;
}

/**
 * A renderer is forked from the browser's zygote and names itself one right after: a process still named as the
 * zygote is looked at again next time.
 */
function kindOf(pid: number): "renderer" | "zygote" | "other" {
  try {
    // Split on spaces too: Chromium rewrites its processes' command lines as one space-separated string.
    const args = readFileSync(`/proc/${pid}/cmdline`, "utf8").split(/[\0 ]/);
    return args.includes("--type=renderer") ? "renderer" : args.includes("--type=zygote") ? "zygote" : "other";
  } catch {
    return "other";
  }
}

/** The process's main thread's policy (its pid is its first thread's id), or null once it is gone. */
export const schedulingPolicy = (pid: number): number | null => processStat(pid)?.policy ?? null;

/** Watches for the browser's renderers and puts each one's main thread first as it starts. */
export function keepRendererMainThreadsFirst(browserPid: number): RendererWatch {
  if (process.getuid?.() !== 0) return { stop: () => "not permitted" };
  const seen = new Set<number>();
  let renderers = 0;
  let failure: Error | null = null;
  const look = () => {
    for (const name of readdirSync("/proc")) {
      if (!/^\d+$/.test(name)) continue;
      const pid = Number(name);
      if (seen.has(pid)) continue;
      const kind = kindOf(pid);
      if (kind !== "zygote") seen.add(pid);
      if (kind !== "renderer" || !isDescendant(pid, browserPid)) continue;
      try {
        execFileSync("chrt", ["--fifo", "--pid", String(PRIORITY), String(pid)], { stdio: "ignore" });
      } catch {
        if (schedulingPolicy(pid) === null) continue; // a renderer that came and went between two looks
        failure = new Error(`could not put renderer ${pid}'s main thread first (chrt --fifo)`);
        continue;
      }
      // Read back, so a kernel that ignored it fails the run instead of passing unnoticed.
      const policy = schedulingPolicy(pid);
      if (policy !== null && policy !== SCHED_POLICY.fifo) failure = new Error(`renderer ${pid}'s main thread did not take SCHED_FIFO (policy ${policy})`);
      else if (policy !== null) renderers++;
    }
  };
  look();
  const timer = setInterval(look, POLL_MS);
  return {
    stop: () => {
      clearInterval(timer);
      if (failure) throw failure;
      return { renderers };
    },
  };
}

/** How the log and the report say it. */
export function rendererMainThreadText(standing: RendererMainThreadStanding): string {
  return standing === "not permitted"
    ? "**not** put first: the page's main thread waited for a core behind the browser's other threads, as it would not on a phone's eight cores (run as root; decision 0048)"
    : `each renderer's main thread under SCHED_FIFO at the lowest real-time priority within ${POLL_MS} ms of its start (${standing.renderers} renderers), so it never waits for a core behind the browser's other threads, as on a phone's eight cores (decision 0048)`;
}
