import { monitorEventLoopDelay, PerformanceObserver } from "node:perf_hooks";

/**
 * Loaded into the server process by the benchmarks (node --import): every
 * second it sends the benchmark, over the IPC channel, process.memoryUsage(),
 * how late the event loop ran during that second and how long garbage
 * collection paused it; asked "gc" (the server started with --expose-gc), a
 * memory sample taken right after a full collection: the heap the process
 * really keeps. It never keeps the process alive and does nothing without a
 * channel.
 */
if (typeof process.send === "function") {
  const delay = monitorEventLoopDelay({ resolution: 10 });
  delay.enable();
  let gcMs = 0;
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) gcMs += entry.duration;
  }).observe({ entryTypes: ["gc"] });
  const sample = (kind: "tick" | "gc") => {
    const { rss, heapUsed, heapTotal, external } = process.memoryUsage();
    const loop = { maxMs: delay.max / 1e6, p99Ms: delay.percentile(99) / 1e6, gcMs };
    if (kind === "tick") {
      delay.reset();
      gcMs = 0;
    }
    process.send?.({ kind, at: Date.now(), rss, heapUsed, heapTotal, external, loop });
  };
  const timer = setInterval(() => sample("tick"), 1000);
  timer.unref();
  process.on("message", (message) => {
    if (message !== "gc") return;
    const gc = (globalThis as { gc?: () => void }).gc;
    gc?.();
    sample("gc");
  });
  process.channel?.unref();
}
