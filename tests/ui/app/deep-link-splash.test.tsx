import { render, screen } from "@testing-library/react";
import { createMemoryRouter, RouterProvider } from "react-router";
import { afterEach, describe, expect, it, vi } from "vitest";
import { fromPromise } from "xstate";
import type { SessionResponse } from "../../../domain/contract/index.ts";
import { SET_PASSWORD_TEXT } from "../../../domain/set-password-texts.ts";
import { createSessionMachine } from "../../../machines/session.machine.ts";
import { routes } from "../../../src/app/router.tsx";
import { createAppCourierAppMachine, CourierAppContext } from "../../../src/shell/app-actor.ts";

/**
 * A link or a reload straight to a screen whose code loads on demand: until it
 * has loaded, the page keeps showing its splash (as index.html paints it), not
 * a blank frame, and the router has nothing to warn about (issue 29).
 */

const nobodyLoggedIn = createSessionMachine({ fetchCurrentSession: fromPromise<SessionResponse | null>(async () => null) });

function openAt(path: string) {
  const warn = vi.spyOn(console, "warn");
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  render(
    <CourierAppContext.Provider logic={createAppCourierAppMachine({ actors: { session: nobodyLoggedIn } })}>
      <RouterProvider router={router} />
    </CourierAppContext.Provider>,
  );
  return { router, warn };
}

const routerWarnings = (warn: { mock: { calls: unknown[][] } }) => warn.mock.calls.filter((call) => String(call[0]).includes("HydrateFallback"));

afterEach(() => {
  vi.restoreAllMocks();
});

describe("a screen loaded on demand, opened by its link", () => {
  it("/set-password shows 'Loading…' while its code loads, then the screen", async () => {
    const { warn } = openAt("/set-password?token=tok_abc-123");
    expect(screen.getByRole("status")).toHaveTextContent("Loading…");
    expect(screen.getByRole("heading", { level: 1, name: "Loading…" })).toBeInTheDocument();

    expect(await screen.findByRole("heading", { name: SET_PASSWORD_TEXT.title })).toBeInTheDocument();
    expect(routerWarnings(warn)).toEqual([]);
  });

  it("a logged-in screen shows 'Loading…' while its code loads, then the session decides (here: the login screen)", async () => {
    const { router, warn } = openAt("/pharmacies/7/verify_orders");
    expect(screen.getByRole("status")).toHaveTextContent("Loading…");

    await vi.waitFor(() => expect(router.state.location.pathname).toBe("/login"), { timeout: 5_000 });
    expect(router.state.location.search).toBe(`?next=${encodeURIComponent("/pharmacies/7/verify_orders")}`);
    expect(routerWarnings(warn)).toEqual([]);
  });
});
