import { useContext } from "react";
import { MemoryRouter, Route, Routes } from "react-router";
import { describe, expect, it, vi } from "vitest";
import { realTasksRoot } from "./real-tasks-root.ts";
import { LoggedInLayout } from "../../src/app/LoggedInLayout.tsx";
import { Component as PickupRoutes } from "../../src/features/pickup/PickupRoutes.tsx";
import { StartingScreenContext } from "../../src/shell/starting-screen.ts";
import { AppWithDay } from "./app-harness.tsx";
import { dayLogic, makeDay, order, RIVERSIDE } from "./pickup/harness.tsx";

vi.mock("../../src/api/pickup.ts");

const page = realTasksRoot();

/** The pickup screens (or `screens`) under the logged-in layout, opened at `path` with the session and a day of two orders in. */
function renderInLayout(path: string, screens = <Route path="/pharmacies/:pharmacyId/*" element={<PickupRoutes />} />) {
  const day = makeDay({ orders: [order(1, "Harold", "Johnson"), order(2, "Eleanor", "Abernathy")] });
  page.createRoot().render(
    <AppWithDay day={dayLogic(day)}>
      <MemoryRouter initialEntries={[path]}>
        <Routes>
          <Route element={<LoggedInLayout />}>{screens}</Route>
        </Routes>
      </MemoryRouter>
    </AppWithDay>,
  );
}

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
    // What each commit put in the page, in order.
    const commits: string[] = [];
    const contentOf = () => (page.container().querySelector("header.navbar") ? "screen" : page.container().querySelector("h1")?.textContent === "Loading…" ? "splash" : "nothing");
    new MutationObserver(() => {
      const content = contentOf();
      if (commits.at(-1) !== content) commits.push(content);
    }).observe(page.container(), { childList: true, subtree: true, characterData: true });

    renderInLayout(`/pharmacies/${RIVERSIDE.id}/verify_orders`);

    await vi.waitFor(() => expect(page.container().querySelector("header.navbar")).not.toBeNull(), { timeout: 5_000 });
    await vi.waitFor(() => expect(page.container().textContent).toContain("Harold"), { timeout: 5_000 });
    expect(commits.filter((content) => content !== "nothing")).toEqual(["splash", "screen"]);
  });
});

/**
 * The screen a page starts with renders its flow behind the page's splash, in
 * slices: the commit that opens the flow shows the splash, and the screen comes
 * in a render of its own, not in that commit's task (on a slow phone, one long
 * task: issue 29). A screen opened later, from a tap, still has its flow's
 * content in the commit that opens it: no splash between two screens.
 */
describe("a flow's screen, by how it opens", () => {
  /** What the page holds at the end of each task (a browser paints only then), each change once. */
  function recordFrames(): string[] {
    const frames: string[] = [];
    const frameOf = () => {
      const container = page.container();
      const heading = container.querySelector("h1")?.textContent ?? "";
      if (!container.querySelector("header.navbar")) return heading === "Loading…" ? "page splash" : "nothing";
      if (heading === "Loading…") return "layout with splash";
      return container.querySelector("main h1, main h2") ? `screen: ${heading}` : "layout with empty screen";
    };
    new MutationObserver(() =>
      queueMicrotask(() =>
        queueMicrotask(() => {
          const frame = frameOf();
          if (frames.at(-1) !== frame) frames.push(frame);
        }),
      ),
    ).observe(page.container(), { childList: true, subtree: true, characterData: true });
    return frames;
  }

  it("the page's first screen: the splash until its flow's screen is rendered, in a task after the one that opened the flow", async () => {
    const frames = recordFrames();
    renderInLayout(`/pharmacies/${RIVERSIDE.id}/verify_orders`);

    await vi.waitFor(() => expect(page.container().textContent).toContain("Harold"), { timeout: 5_000 });
    expect(frames.filter((frame) => frame !== "nothing")).toEqual(["page splash", "layout with splash", "screen: check-in"]);
  });

  it("a screen opened from a tap: its flow's content in the task that opens it", async () => {
    renderInLayout(`/pharmacies/${RIVERSIDE.id}/verify_orders`);
    await vi.waitFor(() => expect(page.container().textContent).toContain("Harold"), { timeout: 5_000 });
    // The starting screen is on the phone: the layout says so once the page is idle and its frame shown (at most 450 ms here: no idle callbacks in jsdom).
    await new Promise((resolve) => setTimeout(resolve, 1_000));

    const frames = recordFrames();
    page.container().querySelector<HTMLAnchorElement>(`a[href="/pharmacies/${RIVERSIDE.id}/verify_orders/1"]`)!.click();

    await vi.waitFor(() => expect(page.container().querySelector("main h1")?.textContent).not.toBe("check-in"), { timeout: 5_000 });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(frames).not.toContain("layout with splash");
    expect(frames).not.toContain("layout with empty screen");
    expect(frames.at(-1)).toMatch(/^screen: /);
  });
});

/**
 * Which screen is the starting one is asked once, when a screen opens: the
 * answer turning, once the starting screen is on the phone, renders no screen
 * again (as a context value it re-rendered every flow's screen, whole, just
 * after it was shown).
 */
describe("the starting screen's question", () => {
  it("turns once the starting screen is shown, and renders nothing again when it does", async () => {
    const renders: boolean[] = [];
    let ask: (() => boolean) | undefined;
    function Probe() {
      ask = useContext(StartingScreenContext);
      renders.push(ask());
      return <main><h1>probe</h1></main>;
    }
    renderInLayout("/probe", <Route path="/probe" element={<Probe />} />);
    await vi.waitFor(() => expect(renders).not.toEqual([]), { timeout: 5_000 });
    expect(renders.every((starting) => starting)).toBe(true);
    const rendersOnceShown = renders.length;

    // Shown once the page is idle and its frame is on the screen (at most 450 ms here: no idle callbacks in jsdom).
    await vi.waitFor(() => expect(ask!()).toBe(false), { timeout: 5_000 });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(renders).toHaveLength(rendersOnceShown);
  });
});
