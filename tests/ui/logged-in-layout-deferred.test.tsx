import { MemoryRouter, Route, Routes } from "react-router";
import { describe, expect, it, vi } from "vitest";
import { realTasksRoot } from "./real-tasks-root.ts";
import { LoggedInLayout } from "../../src/app/LoggedInLayout.tsx";
import { Component as PickupRoutes } from "../../src/features/pickup/PickupRoutes.tsx";
import { AppWithDay } from "./app-harness.tsx";
import { dayLogic, makeDay, order, RIVERSIDE } from "./pickup/harness.tsx";

vi.mock("../../src/api/pickup.ts");

const page = realTasksRoot();

/**
 * The logged-in layout mounts with the page's own splash even when the
 * session's answer is already in (a reload: the answer often lands while the
 * layout's first render is under way, and React then renders it again at
 * once), and the screen follows in a deferred render, in slices: without an
 * initial value a deferred value is the current one on mount, and the whole
 * screen rendered in the one task that mounted the layout (issue 29).
 */
describe("the logged-in layout, mounted with the session already open", () => {
  it("first commits the splash, then the screen in a render of its own", async () => {
    const day = makeDay({ orders: [order(1, "Harold", "Johnson"), order(2, "Eleanor", "Abernathy")] });
    // What each commit put in the page, in order.
    const commits: string[] = [];
    const contentOf = () => (page.container().querySelector("header.navbar") ? "screen" : page.container().querySelector("h1")?.textContent === "Loading…" ? "splash" : "nothing");
    new MutationObserver(() => {
      const content = contentOf();
      if (commits.at(-1) !== content) commits.push(content);
    }).observe(page.container(), { childList: true, subtree: true, characterData: true });

    const root = page.createRoot();
    root.render(
      <AppWithDay day={dayLogic(day)}>
        <MemoryRouter initialEntries={[`/pharmacies/${RIVERSIDE.id}/verify_orders`]}>
          <Routes>
            <Route element={<LoggedInLayout />}>
              <Route path="/pharmacies/:pharmacyId/*" element={<PickupRoutes />} />
            </Route>
          </Routes>
        </MemoryRouter>
      </AppWithDay>,
    );

    await vi.waitFor(() => expect(page.container().querySelector("header.navbar")).not.toBeNull(), { timeout: 5_000 });
    await vi.waitFor(() => expect(page.container().textContent).toContain("Harold"), { timeout: 5_000 });
    expect(commits.filter((content) => content !== "nothing")).toEqual(["splash", "screen"]);
  });
});
