import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { PhaseClock } from "../../scripts/bench/load/run.ts";

// The import bench alternates windows alone and windows importing; each side's time is the sum of its windows.
describe("PhaseClock", () => {
  beforeEach(() => vi.useFakeTimers({ toFake: ["performance"] }));
  afterEach(() => vi.useRealTimers());

  it("sums a kind's windows, each window apart, and counts nothing between phases", () => {
    const clock = new PhaseClock();
    vi.advanceTimersByTime(1_000); // before the first phase: nobody's
    clock.set("baseline#0");
    vi.advanceTimersByTime(5_000);
    clock.set("-settle");
    vi.advanceTimersByTime(1_000);
    clock.set("import#0");
    vi.advanceTimersByTime(3_000);
    clock.set("-settle");
    vi.advanceTimersByTime(1_000);
    clock.set("baseline#1");
    vi.advanceTimersByTime(4_000);
    expect(clock.current).toBe("baseline#1");
    expect(clock.seconds("baseline#0")).toBe(5);
    expect(clock.seconds("baseline#1")).toBe(4); // the window still open counts
    expect(clock.seconds("baseline")).toBe(9);
    expect(clock.seconds("import")).toBe(3);
    expect(clock.seconds("-settle")).toBe(2);
    clock.set(null);
    vi.advanceTimersByTime(10_000);
    expect(clock.seconds("baseline")).toBe(9);
    expect(clock.current).toBeNull();
  });

  it("does not count a kind whose name another begins with", () => {
    const clock = new PhaseClock();
    clock.set("import#0");
    vi.advanceTimersByTime(2_000);
    clock.set("imports#0");
    vi.advanceTimersByTime(7_000);
    expect(clock.seconds("import")).toBe(2);
  });
});
