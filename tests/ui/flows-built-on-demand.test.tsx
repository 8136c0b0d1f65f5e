import { describe, expect, it, vi } from "vitest";
import type * as DeliveryFlow from "../../machines/delivery-flow.definition.ts";
import type * as Returns from "../../machines/returns.definition.ts";
import type * as VerifyOrder from "../../machines/verify-order.definition.ts";
import type * as Addons from "../../machines/addons.definition.ts";

// Issue 29: a reload on check-in loads the pickup chunk, which carries verify's and add-ons' flows too;
// their machines are built when those flows first start, not when the chunk loads.
const builtPickup = vi.hoisted(() => ({ verifyOrder: 0, addons: 0 }));
vi.mock("../../machines/verify-order.definition.ts", async (importOriginal) => {
  const original = await importOriginal<typeof VerifyOrder>();
  return { ...original, createVerifyOrderMachine: (...args: Parameters<typeof original.createVerifyOrderMachine>) => (builtPickup.verifyOrder++, original.createVerifyOrderMachine(...args)) };
});
vi.mock("../../machines/addons.definition.ts", async (importOriginal) => {
  const original = await importOriginal<typeof Addons>();
  return { ...original, createAddonsMachine: (...args: Parameters<typeof original.createAddonsMachine>) => (builtPickup.addons++, original.createAddonsMachine(...args)) };
});

// The delivery and returns flows' machines are built when the app's registry asks for them (the router,
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

describe("the pickup flows' machines", () => {
  it("are not built when the pickup screens' code loads, and each is built when asked for", async () => {
    const flows = await import("../../src/features/pickup/pickup-flows.ts");
    expect(builtPickup).toEqual({ verifyOrder: 0, addons: 0 });
    expect(flows.appVerifyOrderMachine().id).toBe("verifyOrder");
    expect(builtPickup).toEqual({ verifyOrder: 1, addons: 0 });
  });
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
