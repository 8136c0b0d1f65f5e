import { expect, it } from "vitest";
import { opsCli } from "../support/ops-cli.ts";
import { describeOps } from "../support/ops-harness.ts";

/** `npm run ops -- couriers update` against the real API listening on a port (issue 28). */
describeOps("npm run ops -- couriers update", (ctx) => {
  const ops = opsCli(ctx);

  it("sets capacity, shift, start and end, and prints them", async () => {
    const result = await ops(["couriers", "update", "2", "--capacity", "8", "--shift", "08:00-16:00", "--start", "39.9526,-75.1652", "--end", "39.96,-75.17"]);
    expect(result.err).toBe("");
    expect(result.status).toBe(0);
    expect(result.out).toBe(
      ["Courier 2: Marcus Ortega", "  shift: 08:00–16:00", "  capacity: 8 orders at once", "  starts at 39.9526,-75.1652, ends at 39.96,-75.17"].join("\n"),
    );
    const listed = (await ctx().ops("GET", "/api/ops/v1/couriers")).json().couriers.find((c: { id: number }) => c.id === 2);
    expect(listed).toMatchObject({ capacity: 8, shift_start: "08:00", shift_end: "16:00", start_location: { latitude: 39.9526, longitude: -75.1652 }, end_location: { latitude: 39.96, longitude: -75.17 } });
  });

  it("passes the API's refusal on in words (exit 1) and refuses a bad option before sending (exit 2)", async () => {
    const late = await ops(["couriers", "update", "2", "--shift", "16:00-08:00"]);
    expect(late.status).toBe(1);
    expect(late.err).toContain("shift_end: must be after shift_start (16:00)");
    const bad = await ops(["couriers", "update", "2", "--start", "north"]);
    expect(bad.status).toBe(2);
    expect(bad.err).toContain("must be a latitude and a longitude as LAT,LNG");
    const nothing = await ops(["couriers", "update", "2"]);
    expect(nothing.status).toBe(2);
    expect(nothing.err).toContain("Name at least one of --capacity, --shift, --start, --end.");
  });
});
