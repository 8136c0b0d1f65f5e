import { render, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { MemoryRouter, useLocation } from "react-router";
import { describe, expect, it, vi } from "vitest";
import { fromPromise } from "xstate";
import type { ApiFailure } from "../../../domain/api-failure.ts";
import type { StaffSessionResponse } from "../../../domain/contract/staff.ts";
import { consoleSessionMachine } from "../../../machines/console-session.machine.ts";
import { ConsoleApp } from "../../../src/console/ConsoleApp.tsx";
import { boardLogic } from "./board-fixtures.ts";

const SESSION: StaffSessionResponse = {
  staff: { id: 3, first_name: "Morgan", last_name: "Reyes", role: "dispatcher", pharmacy_id: null },
  csrf_token: "csrf-1",
  service_time_zone: "America/New_York",
};
const failure = (status: number | null, message: string): ApiFailure =>
  status === null ? { kind: "network", status, message, code: null } : { kind: status === 401 ? "unauthenticated" : "refused", status, message, code: null };

interface Calls {
  current?: () => Promise<StaffSessionResponse | null>;
  logIn?: (input: { email: string; password: string }) => Promise<StaffSessionResponse>;
  logOut?: (input: { csrfToken: string | null }) => Promise<void>;
}

function Where() {
  return <output data-testid="path">{useLocation().pathname}</output>;
}

function renderConsole(path: string, calls: Calls = {}) {
  const logIn = vi.fn(calls.logIn ?? (async () => SESSION));
  const logOut = vi.fn(calls.logOut ?? (async () => undefined));
  const logic = consoleSessionMachine.provide({
    actors: {
      fetchCurrentStaffSession: fromPromise(calls.current ?? (async () => null)),
      logInStaff: fromPromise(({ input }: { input: { email: string; password: string } }) => logIn(input)),
      logOutStaff: fromPromise(({ input }: { input: { csrfToken: string | null } }) => logOut(input)),
    },
  });
  render(
    <MemoryRouter initialEntries={[path]}>
      <ConsoleApp logic={logic} boardLogic={boardLogic(async () => ({ orders: [], couriers: [] }))} />
      <Where />
    </MemoryRouter>,
  );
  return { logIn, logOut, user: userEvent.setup() };
}

async function fillAndSubmit(user: ReturnType<typeof userEvent.setup>, password = "dispatch-safely") {
  await user.type(await screen.findByLabelText("Email"), "  dispatch@example.com ");
  await user.type(screen.getByLabelText("Password"), password);
  await user.click(screen.getByRole("button", { name: "Log in" }));
}

describe("the console's login screen (issue 27)", () => {
  it("sends a signed-out browser from /dispatch to /dispatch/login, with 'Email', 'Password' and 'Log in'", async () => {
    renderConsole("/dispatch");
    expect(await screen.findByRole("heading", { name: "Rx Courier dispatch" })).toBeInTheDocument();
    expect(screen.getByTestId("path")).toHaveTextContent("/dispatch/login");
    expect(screen.getByLabelText("Email")).toHaveAttribute("type", "email");
    expect(screen.getByLabelText("Password")).toHaveAttribute("type", "password");
    expect(screen.getByRole("button", { name: "Log in" })).toBeInTheDocument();
  });

  it("logs in with the trimmed email and goes to the day board at /dispatch", async () => {
    const { logIn, user } = renderConsole("/dispatch/login");
    await fillAndSubmit(user);
    expect(await screen.findByRole("heading", { name: "Day board" })).toBeInTheDocument();
    expect(screen.getByTestId("path")).toHaveTextContent(/^\/dispatch$/);
    expect(logIn).toHaveBeenCalledWith({ email: "dispatch@example.com", password: "dispatch-safely" });
    expect(screen.getByText("Morgan Reyes · Dispatcher")).toBeInTheDocument();
  });

  it.each([
    ["a wrong password", failure(401, "The email or password is incorrect."), "The email or password is incorrect."],
    ["too many attempts", failure(429, "Too many attempts. Please wait a minute and try again."), "Too many attempts. Please wait a minute and try again."],
    ["no network", failure(null, "Failed to fetch"), "No internet connection. Please connect to the internet to log in."],
    ["a server error", { kind: "server", status: 500, message: "boom", code: null } as ApiFailure, "Something went wrong. Please try again."],
  ])("says so in words after %s, and stays on the login screen", async (_case, refusal, words) => {
    const { user } = renderConsole("/dispatch/login", { logIn: async () => Promise.reject(refusal) });
    await fillAndSubmit(user, "wrong-password");
    expect(await screen.findByRole("alert")).toHaveTextContent(words);
    expect(screen.getByTestId("path")).toHaveTextContent("/dispatch/login");
    // The email stays typed: the staff member corrects the password only.
    expect(screen.getByLabelText("Email")).toHaveValue("dispatch@example.com");
  });

  it("sends nothing with an empty field", async () => {
    const { logIn, user } = renderConsole("/dispatch/login");
    await user.type(await screen.findByLabelText("Email"), "dispatch@example.com");
    await user.click(screen.getByRole("button", { name: "Log in" }));
    expect(logIn).not.toHaveBeenCalled();
  });

  it("opens the board at once when the browser is already logged in, and logs out back to the login screen with the CSRF token", async () => {
    const { logOut, user } = renderConsole("/dispatch/login", { current: async () => SESSION });
    expect(await screen.findByRole("heading", { name: "Day board" })).toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: "Log out" }));
    expect(await screen.findByRole("button", { name: "Log in" })).toBeInTheDocument();
    await waitFor(() => expect(screen.getByTestId("path")).toHaveTextContent("/dispatch/login"));
    expect(logOut).toHaveBeenCalledWith({ csrfToken: "csrf-1" });
  });
});
