import { spawn, type ChildProcess } from "node:child_process";
import { closeSync, openSync } from "node:fs";
import { createServer } from "node:net";
import path from "node:path";
import { ROOT } from "./report.ts";

/** A memory sample the probe (memory-probe.ts) sends from inside the server process. */
export interface MemorySample {
  /** tick: every second; gc: right after a full collection, on request. */
  kind: "tick" | "gc";
  at: number;
  rss: number;
  heapUsed: number;
  heapTotal: number;
  external: number;
  /** The second before the sample: the event loop's worst and 99th-percentile lateness, and time paused by GC. */
  loop: { maxMs: number; p99Ms: number; gcMs: number };
}

export interface BenchServer {
  url: string;
  port: number;
  pid: number;
  process: ChildProcess;
  /** Filled every second while the server runs with { probe: true }. */
  memory: MemorySample[];
  /** A sample right after a full collection (probe and --expose-gc). */
  collectedMemory(): Promise<MemorySample>;
  stop(): Promise<void>;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => (typeof address === "object" && address ? resolve(address.port) : reject(new Error("no port"))));
    });
  });
}

/**
 * Stops a process the bench started: SIGTERM, so it closes as in production, then SIGKILL if it has not
 * exited after `killAfterMs`, so one that hangs cannot hold a bench (or its ports) for ever.
 */
export async function stopChildProcess(child: ChildProcess, killAfterMs = 15_000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGTERM");
  const timer = setTimeout(() => child.kill("SIGKILL"), killAfterMs);
  await exited;
  clearTimeout(timer);
}

export interface ServerOptions {
  /** PostgreSQL; the embedded PGlite in dataDir otherwise. */
  databaseUrl?: string;
  dataDir?: string;
  /** Sample the process's memory from inside (soak). */
  probe?: boolean;
  env?: Record<string, string>;
  /** Extra node flags (a profile: --cpu-prof). */
  nodeArgs?: string[];
  /** Keep the server's log lines (JSON, one per line) in this file instead of discarding them. */
  logFile?: string;
  /**
   * Run below the browser's priority (nice 19): for benches of the phone's own work, where the
   * server stands in for one across the network and must not take the page's core (decision 0042).
   */
  belowBrowser?: boolean;
}

/**
 * A Node process's command under Linux's idle scheduling policy (`chrt --idle 0`, SCHED_IDLE): it runs on a
 * core only when no other process wants one, and a browser thread that wakes takes the core back at once.
 * Every thread the process starts inherits the policy. `nice -n 19` (decision 0042) did not keep the app's
 * server off the page's cores: during a delivery step's load it still ran 56–78 ms in the first 400 ms,
 * half a core while the app started (decision 0045). That holds against the browser only because the
 * first-screen bench also puts the browser's scheduling group first (decision 0047): with Linux's autogroups
 * the policy orders processes inside a session, and the browser runs in a session of its own.
 */
export function belowBrowserCommand(args: readonly string[]): [command: string, args: string[]] {
  return ["chrt", ["--idle", "0", process.execPath, ...args]];
}

/**
 * The real server (`server/main.ts`, as `npm start` runs it after the build)
 * on a free loopback port. It logs at its production level (info) to a
 * discarded stdout, so the cost of logging is part of every figure.
 */
export async function startBenchServer(options: ServerOptions): Promise<BenchServer> {
  const port = await freePort();
  const env: Record<string, string | undefined> = {
    ...process.env,
    PORT: String(port),
    HOST: "127.0.0.1",
    LOG_LEVEL: "info",
    // Every simulated courier logs in from 127.0.0.1; the login limit (per address and email) is not what is measured.
    LOGIN_ATTEMPTS_PER_MINUTE: "100000",
    LOGIN_ATTEMPTS_PER_ADDRESS_PER_MINUTE: "100000",
    ...options.env,
  };
  delete env.DATABASE_URL;
  delete env.DATA_DIR;
  if (options.databaseUrl) env.DATABASE_URL = options.databaseUrl;
  if (options.dataDir) env.DATA_DIR = options.dataDir;
  const args = [...(options.nodeArgs ?? []), "--import", "tsx"];
  if (options.probe) args.push("--import", path.join(ROOT, "scripts/bench/lib/memory-probe.ts"));
  args.push("server/main.ts");
  const stdout = options.logFile ? openSync(options.logFile, "w") : "ignore";
  const [command, commandArgs] = options.belowBrowser ? belowBrowserCommand(args) : [process.execPath, args];
  const child = spawn(command, commandArgs, { cwd: ROOT, env, stdio: ["ignore", stdout, "pipe", "ipc"] });
  if (typeof stdout === "number") closeSync(stdout);
  let stderr = "";
  child.stderr!.on("data", (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-4000);
  });
  const memory: MemorySample[] = [];
  child.on("message", (message) => {
    if (message && typeof message === "object" && "rss" in message) memory.push(message as MemorySample);
  });

  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}: ${stderr}`);
    try {
      if ((await fetch(`${url}/api/health`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill("SIGKILL");
      throw new Error(`server did not start in 120 s: ${stderr}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return {
    url,
    port,
    pid: child.pid!,
    process: child,
    memory,
    collectedMemory() {
      const before = memory.length;
      child.send("gc");
      return new Promise((resolve, reject) => {
        const deadline = Date.now() + 10_000;
        const check = () => {
          const found = memory.slice(before).find((sample) => sample.kind === "gc");
          if (found) resolve(found);
          else if (Date.now() > deadline) reject(new Error("no memory sample from the server"));
          else setTimeout(check, 20);
        };
        check();
      });
    },
    stop: () => stopChildProcess(child),
  };
}
