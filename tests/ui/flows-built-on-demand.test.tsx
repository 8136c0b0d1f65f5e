import { describe, expect, it, vi } from "vitest";
import type * as DeliveryFlow from "../../machines/delivery-flow.definition.ts";
import type * as Returns from "../../machines/returns.definition.ts";
import type * as VerifyOrder from "../../machines/verify-order.definition.ts";
import type * as Addons from "../../machines/addons.definition.ts";

// How many times each flow's machine is built: the factory wrapped so that each call counts.
const { builtPickup, built, counted } = vi.hoisted(() => ({
  builtPickup: { verifyOrder: 0, addons: 0 },
  built: { deliveryFlow: 0, returns: 0 },
  counted:
    <K extends string, A extends unknown[], R>(counts: Record<K, number>, key: K, build: (...args: A) => R) =>
    (...args: A): R => {
      counts[key]++;
      return build(...args);
    },
}));

// Issue 29: a reload on check-in loads the pickup chunk, which carries verify's and add-ons' flows too;
// their machines are built when those flows first start, not when the chunk loads.
vi.mock("../../machines/verify-order.definition.ts", async (importOriginal) => {
  const original = await importOriginal<typeof VerifyOrder>();
  return { ...original, createVerifyOrderMachine: counted(builtPickup, "verifyOrder", original.createVerifyOrderMachine) };
});
vi.mock("../../machines/addons.definition.ts", async (importOriginal) => {
  const original = await importOriginal<typeof Addons>();
  return { ...original, createAddonsMachine: counted(builtPickup, "addons", original.createAddonsMachine) };
});

// The delivery and returns flows' machines are built when the app's registry asks for them (the router,
// in a task of its own before the screen renders), not while their screen's chunk is evaluated: on a low-tier phone
// the delivery chunk's evaluation with the build was one long task.
vi.mock("../../machines/delivery-flow.definition.ts", async (importOriginal) => {
  const original = await importOriginal<typeof DeliveryFlow>();
  return { ...original, createDeliveryFlowMachine: counted(built, "deliveryFlow", original.createDeliveryFlowMachine) };
});
vi.mock("../../machines/returns.definition.ts", async (importOriginal) => {
  const original = await importOriginal<typeof Returns>();
  return { ...original, createReturnsMachine: counted(built, "returns", original.createReturnsMachine) };
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
