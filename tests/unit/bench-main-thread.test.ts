import { describe, expect, it } from "vitest";
import { mainThreadCpuTime } from "../../scripts/bench/first-screen.ts";

// A load's trace as Chromium writes it: the page's renderer, an idle spare renderer, and
// Chromium's own WebUI renderer (omnibox, tab strip) busier than the page.
const task = (pid: number, tdurUs: number) => ({ name: "RunTask", ph: "X", pid, tid: pid, tdur: tdurUs });
const trace = {
  traceEvents: [
    { name: "process_name", ph: "M", pid: 1, tid: 0, args: { name: "Renderer" } },
    { name: "thread_name", ph: "M", pid: 1, tid: 1, args: { name: "CrRendererMain" } },
    { name: "ResourceSendRequest", ph: "X", pid: 1, tid: 1, args: { data: { url: "http://127.0.0.1:3000/login" } } },
    task(1, 40_000),
    task(1, 10_000),
    { name: "process_name", ph: "M", pid: 2, tid: 0, args: { name: "WebUI Top Renderer" } },
    { name: "thread_name", ph: "M", pid: 2, tid: 2, args: { name: "CrRendererMain" } },
    { name: "FunctionCall", ph: "X", pid: 2, tid: 2, args: { data: { url: "chrome://resources/js/icon.js" } } },
    ...Array.from({ length: 5 }, () => task(2, 30_000)),
    { name: "process_name", ph: "M", pid: 3, tid: 0, args: { name: "Renderer" } },
    { name: "thread_name", ph: "M", pid: 3, tid: 3, args: { name: "CrRendererMain" } },
    ...Array.from({ length: 4 }, () => task(3, 1_000)),
  ],
};

describe("the first-screen bench's main-thread CPU time", () => {
  it("is the thread time of the page's renderer, not of Chromium's own WebUI or an idle renderer", () => {
    expect(mainThreadCpuTime(trace)).toBe(50);
  });
});
