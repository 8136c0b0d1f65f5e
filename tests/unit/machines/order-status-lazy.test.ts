import { describe, expect, it, vi } from "vitest";
import type * as Definition from "../../../machines/order-lifecycle.definition.ts";

// Issue 29: the check-in, delivery and returns chunks load machines/order-status.ts; the lifecycle
// machine is built when a status is first computed (the courier records something), not at their load.
const built = vi.hoisted(() => ({ count: 0 }));
vi.mock("../../../machines/order-lifecycle.definition.ts", async (importOriginal) => {
  const original = await importOriginal<typeof Definition>();
  return {
    ...original,
    createOrderLifecycleMachine: () => {
      built.count++;
      return original.createOrderLifecycleMachine();
    },
  };
});

describe("the app's order-status rule", () => {
  it("builds the order lifecycle on the first status it computes, and only once", async () => {
    const { nextOrderStatus } = await import("../../../machines/order-status.ts");
    expect(built.count).toBe(0);
    expect(nextOrderStatus("verified", "PICK_UP")).toBe("picked_up");
    expect(nextOrderStatus("delivered", "PICK_UP")).toBeNull();
    expect(built.count).toBe(1);
  });
});
