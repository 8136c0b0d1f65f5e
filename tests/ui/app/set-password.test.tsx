import { render, screen } from "@testing-library/react";
import { userEvent } from "@testing-library/user-event";
import { createMemoryRouter, RouterProvider } from "react-router";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { fromPromise } from "xstate";
import type { ApiFailure } from "../../../domain/api-failure.ts";
import type { SessionResponse } from "../../../domain/contract/index.ts";
import { PASSWORD_MIN_LENGTH } from "../../../domain/password-rules.ts";
import { passwordRuleText, SET_PASSWORD_TEXT as T } from "../../../domain/set-password-texts.ts";
import { sessionMachine } from "../../../machines/session.machine.ts";
import * as onboardingApi from "../../../src/api/onboarding.ts";
import { createAppCourierAppMachine, CourierAppContext } from "../../../src/shell/app-actor.ts";
import { Component as SetPasswordRoute } from "../../../src/features/onboarding/SetPasswordRoute.tsx";
import { LoginScreen } from "../../../src/features/login/LoginScreen.tsx";

vi.mock("../../../src/api/onboarding.ts");

const GOOD = "plum orchard at noon";
const refused = (status: number, message: string, code: string): ApiFailure => ({ kind: "refused", status, message, code });

/** No one logged in on this device: the login screen stays put. */
const loggedOut = sessionMachine.provide({
  actors: {
    fetchCurrentSession: fromPromise<SessionResponse | null>(async () => null),
    logIn: fromPromise<SessionResponse, { email: string; password: string }>(async () => {
      throw refused(401, "The email or password is incorrect.", "invalid_credentials");
    }),
    logOut: fromPromise<void, { csrfToken: string | null }>(async () => undefined),
  },
});

function renderAt(path: string) {
  const router = createMemoryRouter(
    [
      { path: "/login", element: <LoginScreen /> },
      { path: "/set-password", element: <SetPasswordRoute /> },
    ],
    { initialEntries: [path] },
  );
  render(
    <CourierAppContext.Provider logic={createAppCourierAppMachine({ actors: { session: loggedOut } })}>
      <RouterProvider router={router} />
    </CourierAppContext.Provider>,
  );
  return router;
}

const newPassword = () => screen.getByLabelText(T.newPassword);
const again = () => screen.getByLabelText(T.confirmPassword);
const submit = () => screen.getByRole("button", { name: T.submit });

async function type(user: ReturnType<typeof userEvent.setup>, password: string, confirmation = password) {
  await user.type(newPassword(), password);
  await user.type(again(), confirmation);
}

beforeEach(() => {
  vi.resetAllMocks();
});

describe("/set-password?token=… (issue 15: an invited courier chooses a password)", () => {
  it("shows the rule in words under the field, and sends the link's token with the password", async () => {
    const user = userEvent.setup();
    vi.mocked(onboardingApi.setPassword).mockResolvedValue(undefined);
    const router = renderAt("/set-password?token=tok_abc-123");
    expect(screen.getByRole("heading", { name: T.title })).toBeInTheDocument();
    expect(newPassword()).toHaveAccessibleDescription(passwordRuleText(PASSWORD_MIN_LENGTH));
    expect(passwordRuleText(PASSWORD_MIN_LENGTH)).toContain("12 characters");
    expect(submit()).toBeDisabled();
    await type(user, GOOD);
    await user.click(submit());
    expect(onboardingApi.setPassword).toHaveBeenCalledWith("tok_abc-123", GOOD);
    // Done: it says so, and the courier goes to the login screen to log in as usual.
    expect(await screen.findByRole("status")).toHaveTextContent(T.done);
    await user.click(screen.getByRole("link", { name: T.goToLogin }));
    expect(router.state.location.pathname).toBe("/login");
    expect(screen.getByRole("button", { name: "Log in" })).toBeInTheDocument();
  });

  it("refuses, without sending, two different passwords and one that breaks the rule", async () => {
    const user = userEvent.setup();
    renderAt("/set-password?token=tok_abc-123");
    await type(user, GOOD, "plum orchard at nine");
    await user.click(submit());
    expect(screen.getByRole("alert")).toHaveTextContent(T.mismatch);
    await user.clear(newPassword());
    await user.clear(again());
    await type(user, "password1234");
    await user.click(submit());
    expect(screen.getByRole("alert")).toHaveTextContent("This password is too common. Choose one that is harder to guess.");
    await user.clear(newPassword());
    await user.clear(again());
    await type(user, "short");
    await user.click(submit());
    expect(screen.getByRole("alert")).toHaveTextContent("The password must be at least 12 characters long.");
    expect(onboardingApi.setPassword).not.toHaveBeenCalled();
  });

  it("shows the server's reason for a refused password, and the form stays for another try", async () => {
    const user = userEvent.setup();
    vi.mocked(onboardingApi.setPassword).mockRejectedValueOnce(refused(400, "The password must be at least 12 characters long.", "invalid_password"));
    renderAt("/set-password?token=tok_abc-123");
    await type(user, GOOD);
    await user.click(submit());
    expect(await screen.findByRole("alert")).toHaveTextContent("The password must be at least 12 characters long.");
    expect(submit()).toBeEnabled();
  });

  it("an expired or used invite asks the courier to get a new one from dispatch", async () => {
    const user = userEvent.setup();
    vi.mocked(onboardingApi.setPassword).mockRejectedValueOnce(refused(400, "This invitation is no longer valid.", "invalid_token"));
    renderAt("/set-password?token=tok_abc-123");
    await type(user, GOOD);
    await user.click(submit());
    expect(await screen.findByRole("heading", { name: T.inviteUnusableTitle })).toBeInTheDocument();
    expect(screen.getByRole("alert")).toHaveTextContent(T.inviteUnusable);
    expect(screen.queryByLabelText(T.newPassword)).toBeNull();
    expect(screen.getByRole("link", { name: T.backToLogin })).toHaveAttribute("href", "/login");
  });

  it("a link cut short says the same at once, without asking the server", () => {
    renderAt("/set-password?token=tok%20cut");
    expect(screen.getByRole("alert")).toHaveTextContent(T.inviteUnusable);
    expect(screen.queryByRole("button", { name: T.submit })).toBeNull();
    expect(onboardingApi.setPassword).not.toHaveBeenCalled();
  });
});

describe("the login screen's 'Forgot password?'", () => {
  it("leads to the screen that tells the courier to ask dispatch for a new invite", async () => {
    const user = userEvent.setup();
    const router = renderAt("/login");
    await user.click(screen.getByRole("link", { name: "Forgot password?" }));
    expect(router.state.location.pathname).toBe("/set-password");
    expect(screen.getByRole("heading", { name: T.forgotTitle })).toBeInTheDocument();
    expect(screen.getByRole("alert")).toHaveTextContent(T.forgot);
    expect(screen.queryByLabelText(T.newPassword)).toBeNull();
    await user.click(screen.getByRole("link", { name: T.backToLogin }));
    expect(router.state.location.pathname).toBe("/login");
  });
});
