import { act, render, screen, waitFor, within } from "@testing-library/react";
import { userEvent } from "@testing-library/user-event";
import axe from "axe-core";
import { createMemoryRouter, RouterProvider } from "react-router";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { Courier, ItineraryResponse } from "../../../domain/contract/index.ts";
import { LoggedInLayout } from "../../../src/app/LoggedInLayout.tsx";
import { CourierAppContext } from "../../../src/shell/app-actor.ts";
import { DashboardScreen } from "../../../src/features/dashboard/DashboardScreen.tsx";
import { LoginScreen } from "../../../src/features/login/LoginScreen.tsx";
import { HOME_PATH, pathAfterLogin } from "../../../src/features/login/login-next.ts";
import { PharmaciesScreen } from "../../../src/features/pharmacies/PharmaciesScreen.tsx";
import { makeDay, makeOrder, makePharmacy, makeVisit } from "../pickup/harness.tsx";
import { PageRequest } from "../../support/ui-fixtures.ts";

/**
 * The app's shell as a courier meets it on a shared phone (issue 17): the
 * login screen's `next`, the menu and Back, the loading screen after login
 * and the 'Completed' mark. The real session and day machines talk to a fake
 * server behind `fetch`, so logging out and in runs the app's own code.
 */

const PASSWORD = "deliver-safely";
const DANA: Courier = { id: 7, first_name: "Dana", last_name: "Whitfield" };
const SAM: Courier = { id: 8, first_name: "Sam", last_name: "Ortega" };
const ACCOUNTS: Record<string, Courier> = { "courier@example.com": DANA, "courier2@example.com": SAM };

const RIVERSIDE = makePharmacy({ id: 4, name: "Riverside Community Pharmacy" });
const MARKET = makePharmacy({ id: 2, name: "Market Street Apothecary" });
const DAYS: Record<number, ItineraryResponse> = {
  [DANA.id]: makeDay({
    courier: DANA,
    pharmacy_visits: [makeVisit({ id: 5, pharmacy: RIVERSIDE, confirmed: true }), makeVisit({ id: 6, pharmacy: MARKET, confirmed: true })],
    orders: [
      makeOrder({ id: 40, pharmacy: RIVERSIDE, status: "submitted_to_courier" }),
      // Market Street's one order is delivered with nothing collected: the pharmacy is complete (spec §4).
      makeOrder({ id: 41, pharmacy: MARKET, status: "delivered" }),
    ],
  }),
  [SAM.id]: makeDay({
    courier: SAM,
    pharmacy_visits: [makeVisit({ id: 9, pharmacy: MARKET, confirmed: true })],
    orders: [makeOrder({ id: 50, pharmacy: MARKET, status: "submitted_to_courier" })],
  }),
};

/** The server: who this phone's cookie belongs to, and when the day's answer is sent. */
const server = {
  loggedIn: null as Courier | null,
  /** Resolves when the test lets the day's answer through (the loading screen shows until then). */
  dayGate: null as Promise<void> | null,
  sessionGate: null as Promise<void> | null,
};

const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });
const unauthenticated = () => json({ error: "unauthenticated", message: "Log in again." }, 401);

async function answer(request: Request): Promise<Response> {
  const { pathname } = new URL(request.url);
  const route = `${request.method} ${pathname}`;
  switch (route) {
    case "GET /api/sessions/current":
      await server.sessionGate;
      return server.loggedIn ? json({ courier: server.loggedIn, csrf_token: "token" }) : unauthenticated();
    case "POST /api/sessions": {
      const { email, password } = (await request.json()) as { email: string; password: string };
      const courier = ACCOUNTS[email];
      if (!courier || password !== PASSWORD) return json({ error: "invalid_credentials", message: "The email or password is incorrect." }, 401);
      server.loggedIn = courier;
      return json({ courier, csrf_token: "token" });
    }
    case "DELETE /api/sessions/current":
      server.loggedIn = null;
      return new Response(null, { status: 204 });
    case "GET /api/courier/itinerary":
      await server.dayGate;
      return server.loggedIn ? json(DAYS[server.loggedIn.id]) : unauthenticated();
    default:
      return json({ error: "not_found", message: `${route} was not found.` }, 404);
  }
}

function renderApp(entries: string[]) {
  const router = createMemoryRouter(
    [
      { path: "/login", element: <LoginScreen /> },
      {
        element: <LoggedInLayout />,
        children: [
          { path: "dashboard", element: <DashboardScreen /> },
          { path: "pharmacies", element: <PharmaciesScreen /> },
          { path: "pharmacies/:pharmacyId/verify_orders", element: <main><h1>Check-in</h1></main> },
          { path: "machines", element: <main><h1>How the app works</h1></main> },
        ],
      },
    ],
    { initialEntries: entries, initialIndex: entries.length - 1 },
  );
  render(
    <CourierAppContext.Provider>
      <RouterProvider router={router} />
    </CourierAppContext.Provider>,
  );
  const where = () => router.state.location.pathname + router.state.location.search;
  return { router, where, user: userEvent.setup() };
}

async function logIn(user: ReturnType<typeof userEvent.setup>, email: string) {
  await user.type(await screen.findByLabelText("Email"), email);
  await user.type(screen.getByLabelText("Password"), PASSWORD);
  await user.click(screen.getByRole("button", { name: "Log in" }));
}

async function logOut(user: ReturnType<typeof userEvent.setup>) {
  await user.click(await screen.findByRole("button", { name: "Menu" }));
  await user.click(screen.getByRole("button", { name: "Log out" }));
}

const menu = () => screen.queryByRole("navigation", { name: "Account" });

beforeEach(() => {
  localStorage.clear();
  server.loggedIn = null;
  server.dayGate = null;
  server.sessionGate = null;
  vi.stubGlobal("Request", PageRequest);
  vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => answer(input instanceof Request ? input : new Request(input, init)));
});
afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

describe("the login screen's next on a shared phone (issue 17)", () => {
  it("sends the next courier home, not to the page the last one was sent away from", async () => {
    server.loggedIn = DANA;
    const { where, user } = renderApp(["/pharmacies/4/verify_orders"]);
    expect(await screen.findByRole("heading", { level: 1, name: "Check-in" })).toBeInTheDocument();
    await logOut(user);
    await waitFor(() => expect(where()).toBe("/login?next=%2Fpharmacies%2F4%2Fverify_orders"));

    await logIn(user, "courier2@example.com");
    await waitFor(() => expect(where()).toBe(HOME_PATH));
    expect(await screen.findByRole("heading", { level: 1, name: "Hello, Sam" })).toBeInTheDocument();
  });

  it("sends the courier who was sent away back where they were", async () => {
    server.loggedIn = DANA;
    const { where, user } = renderApp(["/pharmacies/4/verify_orders"]);
    await screen.findByRole("heading", { level: 1, name: "Check-in" });
    await logOut(user);
    await waitFor(() => expect(where()).toBe("/login?next=%2Fpharmacies%2F4%2Fverify_orders"));

    await logIn(user, "courier@example.com");
    await waitFor(() => expect(where()).toBe("/pharmacies/4/verify_orders"));
  });

  it("after a session found expired on opening the app, next is for the courier last seen on the phone", async () => {
    // Dana was logged in here; her session has since ended on the server.
    server.loggedIn = DANA;
    const first = renderApp(["/dashboard"]);
    await screen.findByRole("heading", { level: 1, name: "Hello, Dana" });
    first.router.dispose();
    document.body.innerHTML = "";
    server.loggedIn = null;

    const { where, user } = renderApp(["/pharmacies/4/verify_orders"]);
    await waitFor(() => expect(where()).toBe("/login?next=%2Fpharmacies%2F4%2Fverify_orders"));
    await logIn(user, "courier2@example.com");
    await waitFor(() => expect(where()).toBe(HOME_PATH));
  });

  it("follows only this app's paths, and a link opened on a phone nobody has used", () => {
    expect(pathAfterLogin("/pharmacies/4/verify_orders", 8, null)).toBe("/pharmacies/4/verify_orders");
    expect(pathAfterLogin("/pharmacies/4/verify_orders", 8, 8)).toBe("/pharmacies/4/verify_orders");
    expect(pathAfterLogin("/pharmacies/4/verify_orders", 8, 7)).toBe(HOME_PATH);
    for (const hostile of ["//evil.example", "/\\evil.example", "https://evil.example/", "pharmacies", "", null]) {
      expect(pathAfterLogin(hostile, 8, 8)).toBe(HOME_PATH);
    }
  });
});

describe("the menu and Back (issue 17)", () => {
  it("is not a history entry: Back from a page reached from the menu shows the page before, menu closed", async () => {
    server.loggedIn = DANA;
    const { router, where, user } = renderApp(["/pharmacies", "/dashboard"]);
    await screen.findByRole("heading", { level: 1, name: "Hello, Dana" });
    await user.click(screen.getByRole("button", { name: "Menu" }));
    expect(menu()).toBeInTheDocument();
    await user.click(within(menu()!).getByRole("link", { name: "How the app works" }));
    await screen.findByRole("heading", { level: 1, name: "How the app works" });
    expect(menu()).toBeNull();

    await act(() => router.navigate(-1));
    expect(where()).toBe("/dashboard");
    expect(await screen.findByRole("heading", { level: 1, name: "Hello, Dana" })).toBeInTheDocument();
    expect(menu()).toBeNull();
    expect(screen.getByRole("button", { name: "Menu" })).toHaveAttribute("aria-expanded", "false");

    // One Back more is the page before: opening the menu added nothing to the history.
    await act(() => router.navigate(-1));
    expect(where()).toBe("/pharmacies");
    expect(menu()).toBeNull();
  });
});

/** axe on what the screen shows now; jsdom has no layout, so colour contrast is left to the e2e scans. */
async function axeViolations() {
  const results = await axe.run(document.body, { rules: { "color-contrast": { enabled: false } } });
  return results.violations.map((violation) => `${violation.id}: ${violation.help}`);
}

describe("the loading screens and the 'Completed' mark (issue 17)", () => {
  it("right after login, 'Loading your day…' is a main landmark with a level-1 heading, axe clean", async () => {
    let letDayThrough!: () => void;
    server.dayGate = new Promise((resolve) => (letDayThrough = resolve));
    const { where, user } = renderApp(["/login"]);
    await logIn(user, "courier@example.com");
    await waitFor(() => expect(where()).toBe(HOME_PATH));
    const heading = await screen.findByRole("heading", { level: 1, name: "Loading your day…" });
    expect(screen.getByRole("main")).toContainElement(heading);
    expect(screen.getByRole("status")).toHaveTextContent("Loading your day…");
    expect(await axeViolations()).toEqual([]);
    letDayThrough();
    expect(await screen.findByRole("heading", { level: 1, name: "Hello, Dana" })).toBeInTheDocument();
  });

  it("while the session is checked, 'Loading…' is a main landmark with a level-1 heading", async () => {
    let letSessionThrough!: () => void;
    server.sessionGate = new Promise((resolve) => (letSessionThrough = resolve));
    server.loggedIn = DANA;
    renderApp(["/dashboard"]);
    const heading = await screen.findByRole("heading", { level: 1, name: "Loading…" });
    expect(screen.getByRole("main")).toContainElement(heading);
    expect(await axeViolations()).toEqual([]);
    letSessionThrough();
    expect(await screen.findByRole("heading", { level: 1, name: "Hello, Dana" })).toBeInTheDocument();
  });

  it("a completed pharmacy's check mark is named 'Completed'", async () => {
    server.loggedIn = DANA;
    renderApp(["/pharmacies"]);
    const completed = await screen.findByRole("region", { name: "Completed" });
    expect(within(completed).getByRole("img", { name: "Completed" })).toBeInTheDocument();
    expect(within(completed).getByText("Market Street Apothecary")).toBeInTheDocument();
    expect(await axeViolations()).toEqual([]);
  });
});
