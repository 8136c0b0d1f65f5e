import { describe, expect, it, vi } from "vitest";
import type * as DeliveryFlow from "../../machines/delivery-flow.definition.ts";
import type * as Returns from "../../machines/returns.definition.ts";

// Issue 29: the delivery and returns flows' machines are built when the app's registry asks for them (the router,
// in a task of its own before the screen renders), not while their screen's chunk is evaluated: on a low-tier phone
// the delivery chunk's evaluation with the build was one long task.
const built = vi.hoisted(() => ({ deliveryFlow: 0, returns: 0 }));
vi.mock("../../machines/delivery-flow.definition.ts", async (importOriginal) => {
  const original = await importOriginal<typeof DeliveryFlow>();
  return { ...original, createDeliveryFlowMachine: (...args: Parameters<typeof original.createDeliveryFlowMachine>) => (built.deliveryFlow++, original.createDeliveryFlowMachine(...args)) };
});
vi.mock("../../machines/returns.definition.ts", async (importOriginal) => {
  const original = await importOriginal<typeof Returns>();
  return { ...original, createReturnsMachine: (...args: Parameters<typeof original.createReturnsMachine>) => (built.returns++, original.createReturnsMachine(...args)) };
});

describe("the delivery and returns flows' machines", () => {
  it("are not built when their screens' code loads", async () => {
    await import("../../src/features/delivery/DeliveryRoutes.tsx");
    await import("../../src/features/returns/ReturnsRoute.tsx");
    expect(built).toEqual({ deliveryFlow: 0, returns: 0 });
  });

  it("are built once by the registry, before a screen opens them", async () => {
    const { buildFlow, loadFlows } = await import("../../src/app/flows.ts");
    await loadFlows("deliveryFlow", "returns");
    expect(built).toEqual({ deliveryFlow: 0, returns: 0 });
    buildFlow("deliveryFlow");
    buildFlow("deliveryFlow");
    expect(built).toEqual({ deliveryFlow: 1, returns: 0 });
    buildFlow("returns");
    expect(built).toEqual({ deliveryFlow: 1, returns: 1 });
  });
});
