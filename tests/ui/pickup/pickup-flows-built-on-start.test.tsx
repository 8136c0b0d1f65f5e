import { describe, expect, it, vi } from "vitest";
import type * as VerifyOrder from "../../../machines/verify-order.definition.ts";
import type * as Addons from "../../../machines/addons.definition.ts";

// Issue 29: a reload on check-in loads the pickup chunk, which carries verify's and add-ons' flows too;
// their machines are built when those flows first start, not when the chunk loads.
const built = vi.hoisted(() => ({ verifyOrder: 0, addons: 0 }));
vi.mock("../../../machines/verify-order.definition.ts", async (importOriginal) => {
  const original = await importOriginal<typeof VerifyOrder>();
  return { ...original, createVerifyOrderMachine: (...args: Parameters<typeof original.createVerifyOrderMachine>) => (built.verifyOrder++, original.createVerifyOrderMachine(...args)) };
});
vi.mock("../../../machines/addons.definition.ts", async (importOriginal) => {
  const original = await importOriginal<typeof Addons>();
  return { ...original, createAddonsMachine: (...args: Parameters<typeof original.createAddonsMachine>) => (built.addons++, original.createAddonsMachine(...args)) };
});

describe("the pickup flows' machines", () => {
  it("are not built when the pickup screens' code loads, and each is built when asked for", async () => {
    const flows = await import("../../../src/features/pickup/pickup-flows.ts");
    expect(built).toEqual({ verifyOrder: 0, addons: 0 });
    expect(flows.appVerifyOrderMachine().id).toBe("verifyOrder");
    expect(built).toEqual({ verifyOrder: 1, addons: 0 });
  });
});
