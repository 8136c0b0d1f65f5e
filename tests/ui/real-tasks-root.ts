import { createRoot, type Root } from "react-dom/client";
import { afterEach, beforeEach } from "vitest";

/**
 * A React root in a container of its own, rendered with real tasks and
 * microtasks, as in the browser: act() would flush every render and effect at
 * once and hide what each commit put in the page (the tests that count frames
 * and commits, issue 29). Call once per file; the root is unmounted after each test.
 */
export function realTasksRoot(): { container: () => HTMLDivElement; createRoot: () => Root } {
  let container: HTMLDivElement;
  let root: Root | undefined;
  let previousActEnvironment: unknown;
  const environment = globalThis as { IS_REACT_ACT_ENVIRONMENT?: unknown };

  beforeEach(() => {
    previousActEnvironment = environment.IS_REACT_ACT_ENVIRONMENT;
    environment.IS_REACT_ACT_ENVIRONMENT = false;
    container = document.createElement("div");
    document.body.append(container);
  });

  afterEach(() => {
    root?.unmount();
    root = undefined;
    container.remove();
    environment.IS_REACT_ACT_ENVIRONMENT = previousActEnvironment;
  });

  return { container: () => container, createRoot: () => (root = createRoot(container)) };
}
