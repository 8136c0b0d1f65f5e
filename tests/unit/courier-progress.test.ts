import { describe, expect, it } from "vitest";
import { courierProgress } from "../../domain/courier-progress.ts";
import type { OrderStatusName } from "../../domain/vocabulary.ts";

const order = (courier_id: number | null, name: OrderStatusName) => ({ courier_id, status: { name } });

describe("a courier's day in three numbers (issue 27)", () => {
  it("counts delivered, attempted (returned too) and left; a cancelled or unassigned order counts nowhere", () => {
    const progress = courierProgress([
      order(3, "delivered"),
      order(3, "reconciled"),
      order(3, "delivery_attempted"),
      order(3, "returned_to_pharmacy"),
      order(3, "submitted_to_courier"),
      order(3, "picked_up"),
      order(3, "verified"),
      order(3, "new"),
      order(3, "cancelled"),
      order(4, "cancelled"),
      order(null, "new"),
    ]);
    expect(progress.get(3)).toEqual({ delivered: 2, attempted: 2, left: 4 });
    expect(progress.get(4)).toEqual({ delivered: 0, attempted: 0, left: 0 });
    expect([...progress.keys()].sort()).toEqual([3, 4]);
  });
});
