import { describe, expect, it } from "vitest";
import { normalLabel, orderOfLabel, SCAN_TEXT, shownLabel } from "../../domain/label-scan.ts";
import { makeOrder } from "../support/order-fixtures.ts";

describe("which order a bag's label names (issue 19)", () => {
  const orders = [
    makeOrder({ id: 1, rx_numbers: ["RX 1001", "RX-1002"], external_id: "ph-77" }),
    makeOrder({ id: 2, rx_numbers: ["2001"], external_id: null }),
  ];

  it.each([
    ["RX-1002", 1],
    ["rx1001", 1],
    ["PH-77", 1],
    [" 2001\n", 2],
  ])("%j is order %i", (code, id) => {
    expect(orderOfLabel(orders, code)?.id).toBe(id);
  });

  it.each(["RX-100", "", "   ", "ph-7", "null"])("%j is no order", (code) => {
    expect(orderOfLabel(orders, code)).toBeNull();
  });

  it("compares without case or spaces", () => {
    expect(normalLabel(" rx 10\t01 ")).toBe("RX1001");
  });

  it("shows a label back on one line, cut at 40 characters", () => {
    expect(SCAN_TEXT.noOrderWithLabel("RX-9\n001")).toBe("No order here has the label RX-9 001.");
    expect(shownLabel("A".repeat(60))).toBe(`${"A".repeat(39)}…`);
  });
});

it("a day stored on the phone before orders carried external_id still matches by RX number", () => {
  const { external_id: _dropped, ...old } = makeOrder({ id: 3, rx_numbers: ["RX-3"] });
  const stored = old as unknown as ReturnType<typeof makeOrder>;
  expect(orderOfLabel([stored], "RX-3")?.id).toBe(3);
  expect(orderOfLabel([stored], "undefined")).toBeNull();
});
