import { readFileSync } from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { realTasksRoot } from "./real-tasks-root.ts";
import { LoadingScreen } from "../../src/ui/LoadingScreen.tsx";
import { keepPageSplashUntilScreen, PAGE_SPLASH_ID } from "../../src/ui/page-splash.ts";

/**
 * Issue 29: a reload replaced index.html's splash with the same "Loading…" two or three times, and once with the
 * navigation bar over an empty page, while the app started (each a layout, a paint and a frame on the phone). The
 * splash now stays, and the app's root stays hidden behind it, until the root holds a screen; then it goes in the
 * same task as that screen's commit, before any frame.
 */

const { container, createRoot } = realTasksRoot();
let splash: HTMLElement;

beforeEach(() => {
  splash = document.createElement("main");
  splash.id = PAGE_SPLASH_ID;
  splash.textContent = "Loading…";
  container().before(splash);
});

afterEach(() => splash.remove());

/** The navigation bar, mounted before the screen under it is ready (the layout's first commit on a reload). */
const NavBarAlone = () => (
  <>
    <header className="navbar">Rx Courier</header>
    <LoadingScreen />
  </>
);
const screenOf = (title: string) => (
  <main className="screen">
    <h1>{title}</h1>
  </main>
);

/** After the commit's task: its microtasks (the observer's answer) have run, no frame has been painted yet. */
const afterTheCommit = () => new Promise<void>((resolve) => setTimeout(resolve, 0));
const splashShown = () => document.getElementById(PAGE_SPLASH_ID) !== null;

describe("index.html's splash", () => {
  it("stays while the app shows its own 'Loading…' and the navigation bar alone, and goes with the first screen", async () => {
    keepPageSplashUntilScreen(container());
    const root = createRoot();

    root.render(<LoadingScreen />);
    await afterTheCommit();
    expect(container().querySelector("main")).not.toBeNull();
    expect(splashShown()).toBe(true);

    root.render(<NavBarAlone />);
    await afterTheCommit();
    expect(splashShown()).toBe(true);

    root.render(screenOf("Confirm the address"));
    await afterTheCommit();
    expect(splashShown()).toBe(false);
    expect(container().textContent).toContain("Confirm the address");
  });

  it("goes with a loading screen that says more than the splash ('Loading your day…')", async () => {
    keepPageSplashUntilScreen(container());
    createRoot().render(<LoadingScreen text="Loading your day…" />);
    await afterTheCommit();
    expect(splashShown()).toBe(false);
  });

  it("is left alone in a page that has none (the console's, a test's): the app's own 'Loading…' is its screen", async () => {
    splash.remove();
    keepPageSplashUntilScreen(container());
    createRoot().render(<LoadingScreen />);
    await afterTheCommit();
    expect(container().querySelector("[role=status]")).toHaveTextContent("Loading…");
  });

  it("index.html puts it before the root, and the first screen's stylesheet hides the root while it is there", () => {
    const root = path.resolve(import.meta.dirname, "../..");
    const page = readFileSync(path.join(root, "index.html"), "utf8");
    expect(page).toMatch(new RegExp(`<main class="screen" id="${PAGE_SPLASH_ID}">.*Loading….*</main>\\s*<div id="root"></div>`));
    expect(readFileSync(path.join(root, "src/styles/app.css"), "utf8")).toContain(`#${PAGE_SPLASH_ID} + #root { display: none; }`);
  });
});
