import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Simulation } from "lighthouse/core/lib/lantern/lantern.js";
import { afterEach, describe, expect, it } from "vitest";
import { saveLanternTimings } from "../../scripts/bench/lib/lantern-timings.ts";

/**
 * `--lantern-timings` writes what Lighthouse's simulation made of a run: read here from simulations put
 * where Lantern keeps them (Simulator.allNodeTimings, per label), as a run of Lighthouse leaves them.
 */

const dirs: string[] = [];
afterEach(() => {
  Simulation.Simulator.allNodeTimings.clear();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe("the bench's Lantern timings", () => {
  it("writes each simulation's requests and tasks in the order they start, then forgets them", () => {
    const document = { type: "network", request: { url: "https://127.0.0.1:4000/pharmacies/4/reconcile?x=1", transferSize: 3840, connectionId: 37 } };
    const task = {
      type: "cpu",
      childEvents: [
        { name: "EvaluateScript", dur: 2500, args: { data: { url: "https://127.0.0.1:4000/assets/index.js" } } },
        { name: "Layout", dur: 1000 },
        { name: "Layout", dur: 700 },
      ],
    };
    const script = { type: "network", request: { url: "https://127.0.0.1:4000/assets/phone.js", transferSize: 99159, connectionId: 37 } };
    const timings = new Map<object, { startTime: number; endTime: number }>([
      [script, { startTime: 1045.4, endTime: 1495.2 }],
      [document, { startTime: 0, endTime: 754 }],
      [task, { startTime: 895.6, endTime: 918 }],
    ]);
    Simulation.Simulator.allNodeTimings.set("optimisticLargestContentfulPaint", timings as never);
    const dir = mkdtempSync(path.join(tmpdir(), "rxc-lantern-"));
    dirs.push(dir);

    saveLanternTimings(dir, "returns-mid-1");

    const saved = JSON.parse(readFileSync(path.join(dir, "returns-mid-1.lantern.json"), "utf8"));
    expect(saved).toEqual({
      optimisticLargestContentfulPaint: [
        { kind: "network", what: "/pharmacies/4/reconcile?x=1", transferBytes: 3840, connection: "37", startMs: 0, endMs: 754 },
        { kind: "cpu", what: "EvaluateScript:index.js 2.5, Layout 1.7", startMs: 896, endMs: 918 },
        { kind: "network", what: "/assets/phone.js", transferBytes: 99159, connection: "37", startMs: 1045, endMs: 1495 },
      ],
    });
    expect(Simulation.Simulator.allNodeTimings.size).toBe(0);
  });
});
