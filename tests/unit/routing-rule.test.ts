import { describe, expect, it } from "vitest";
import { MAX_ROUTED_ORDERS, ordersToRoute, routingRequested } from "../../domain/routing.ts";
import { ORDER_STATUS_NAMES, type OrderStatusName } from "../../domain/vocabulary.ts";

describe("routing is requested only with more than 1 and at most 150 orders and more than 1 remaining delivery (spec §5, §9)", () => {
  it.each([
    [0, 0, false],
    [1, 1, false],
    [2, 1, false],
    [2, 2, true],
    [3, 2, true],
    [3, 0, false],
    [150, 2, true],
    [150, 150, true],
    [151, 2, false],
    [151, 151, false],
  ])("%i orders, %i remaining → %s", (orderCount, remainingDeliveries, expected) => {
    expect(routingRequested({ orderCount, remainingDeliveries })).toBe(expected);
  });

  it("the limit is the spec's 150", () => {
    expect(MAX_ROUTED_ORDERS).toBe(150);
  });
});

describe("the orders a delivery list sends for routing", () => {
  const order = (id: number, name: OrderStatusName) => ({ id, status: { name } });
  const routing = { routing_enabled: true };

  it("sends the picked-up orders when at least two are left", () => {
    const list = [order(1, "picked_up"), order(2, "delivered"), order(3, "picked_up"), order(4, "delivery_attempted")];
    expect(ordersToRoute(routing, list)).toEqual([1, 3]);
  });

  it("counts only picked_up as still to deliver, whatever the other statuses", () => {
    for (const name of ORDER_STATUS_NAMES) {
      const list = [order(1, name), order(2, name)];
      expect(ordersToRoute(routing, list), name).toEqual(name === "picked_up" ? [1, 2] : null);
    }
  });

  it("asks nothing when the pharmacy does not route, one delivery is left, or the list is over 150", () => {
    expect(ordersToRoute({ routing_enabled: false }, [order(1, "picked_up"), order(2, "picked_up")])).toBeNull();
    expect(ordersToRoute(routing, [order(1, "picked_up"), order(2, "delivered")])).toBeNull();
    const big = Array.from({ length: 151 }, (_, i) => order(i + 1, "picked_up"));
    expect(ordersToRoute(routing, big)).toBeNull();
    expect(ordersToRoute(routing, big.slice(0, 150))).toHaveLength(150);
  });
});
