/**
 * The bare reference page of the first-screen bench (issue 29): the app's own
 * libraries (React, React Router, XState) doing the least a login screen
 * does. Fixed once and never tuned: the bench's budgets are held against it.
 */
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { createBrowserRouter, RouterProvider } from "react-router";
import { assign, setup } from "xstate";
import { useMachine } from "@xstate/react";

const loginMachine = setup({
  types: {} as {
    context: { email: string; password: string };
    events: { type: "email"; value: string } | { type: "password"; value: string } | { type: "submit" } | { type: "done" };
  },
}).createMachine({
  id: "login",
  initial: "editing",
  context: { email: "", password: "" },
  states: {
    editing: {
      on: {
        email: { actions: assign({ email: ({ event }) => event.value }) },
        password: { actions: assign({ password: ({ event }) => event.value }) },
        submit: "submitting",
      },
    },
    submitting: { on: { done: "editing" } },
  },
});

function LoginPage() {
  const [state, send] = useMachine(loginMachine);
  return (
    <main>
      <h1>Log in</h1>
      <p>Sign in with the email and password your dispatcher gave you.</p>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          send({ type: "submit" });
        }}
      >
        <label htmlFor="email">Email</label>
        <input id="email" type="email" autoComplete="username" value={state.context.email} onChange={(event) => send({ type: "email", value: event.target.value })} />
        <label htmlFor="password">Password</label>
        <input id="password" type="password" autoComplete="current-password" value={state.context.password} onChange={(event) => send({ type: "password", value: event.target.value })} />
        <button type="submit" disabled={state.matches("submitting")}>
          Log in
        </button>
      </form>
    </main>
  );
}

const router = createBrowserRouter([{ path: "*", element: <LoginPage /> }]);

createRoot(document.getElementById("root")!).render(
  <StrictMode>
    <RouterProvider router={router} />
  </StrictMode>,
);
