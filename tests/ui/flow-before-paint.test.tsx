import { startTransition, useDeferredValue, type ReactNode } from "react";
import { MemoryRouter, Route, Routes } from "react-router";
import { describe, expect, it, vi } from "vitest";
import { realTasksRoot } from "./real-tasks-root.ts";
import { Component as PickupRoutes } from "../../src/features/pickup/PickupRoutes.tsx";
import { AppWithDay } from "./app-harness.tsx";
import { dayLogic, makeDay, order, RIVERSIDE } from "./pickup/harness.tsx";

vi.mock("../../src/api/pickup.ts");

/**
 * A screen that runs a flow (check-in here; delivery and returns use the same
 * useFlowActor) is painted with its flow from its first frame: the app mounts
 * it in a transition (LoggedInLayout's deferred values), and the flow the
 * screen starts in a layout effect is rendered before the browser can paint,
 * in the same task — not first a frame with nothing under the screen's header
 * and the screen in a later task (issue 29: one commit, one layout and one
 * paint more on the phone, and a blank flash).
 */

/** Mounts its children in a transition's render, as the logged-in layout does once the session and the day are in. */
function MountedInATransition({ children }: { children: ReactNode }) {
  const mounted = useDeferredValue(true, false);
  return mounted ? <>{children}</> : null;
}

const page = realTasksRoot();

describe("a screen that runs a flow, opened in a transition", () => {
  it("has its flow's content by the end of the task that mounts it: no frame with the screen empty", async () => {
    const day = makeDay({ orders: [order(1, "Harold", "Johnson"), order(2, "Eleanor", "Abernathy")] });
    // What the DOM holds once each task's microtasks have run (a browser paints only then).
    const frames: string[] = [];
    const frameOf = () => (page.container().querySelector("[data-testid=mounted]") ? (page.container().querySelector("h1, h2") ? "screen" : "empty screen") : "not mounted");
    new MutationObserver(() => queueMicrotask(() => queueMicrotask(() => frames.push(frameOf())))).observe(page.container(), { childList: true, subtree: true });

    const root = page.createRoot();
    startTransition(() => {
      root.render(
        <AppWithDay day={dayLogic(day)}>
          <MemoryRouter initialEntries={[`/pharmacies/${RIVERSIDE.id}/verify_orders`]}>
            <MountedInATransition>
              <div data-testid="mounted" />
              <Routes>
                <Route path="/pharmacies/:pharmacyId/*" element={<PickupRoutes />} />
              </Routes>
            </MountedInATransition>
          </MemoryRouter>
        </AppWithDay>,
      );
    });

    await vi.waitFor(() => expect(page.container().querySelector("h1, h2")).not.toBeNull(), { timeout: 5_000 });
    expect(frames).toContain("screen");
    expect(frames).not.toContain("empty screen");
  });
});
