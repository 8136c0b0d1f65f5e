import { assign, fromPromise, setup, type AnyActorRef } from "xstate";
import { loginMessage, toApiFailure, type ApiFailure } from "../domain/api-failure.ts";
import type { Courier, SessionResponse } from "../domain/contract/index.ts";

/**
 * Who is logged in on this device. The app provides the three calls. The
 * application that runs it (`reportTo`) is told when a session opens
 * (SESSION_OPENED: logged in, or found logged in after a reload) and when it
 * closes (SESSION_CLOSED: logged out, expired, or none found), so it starts and
 * stops the courier's day without reading the session's state.
 */
export interface SessionInput {
  /** The application: told SESSION_OPENED and SESSION_CLOSED. None when the session runs alone (its tests, the visualizer). */
  reportTo?: AnyActorRef;
}

export interface SessionContext {
  courier: Courier | null;
  csrfToken: string | null;
  error: string | null;
  reportTo: AnyActorRef | null;
}

/** What the session tells the application that runs it. */
export type SessionNews = { type: "SESSION_OPENED" } | { type: "SESSION_CLOSED" };

export type SessionEvent =
  | { type: "LOG_IN"; email: string; password: string }
  | { type: "LOG_OUT" }
  | { type: "SESSION_EXPIRED" };

/** The three calls, as stand-ins that fail until the app (or a test) provides its own. */
const sessionCalls = {
  fetchCurrentSession: fromPromise<SessionResponse | null>(async () => {
    throw new Error("provide fetchCurrentSession");
  }),
  logIn: fromPromise<SessionResponse, { email: string; password: string }>(async () => {
    throw new Error("provide logIn");
  }),
  logOut: fromPromise<void, { csrfToken: string | null }>(async () => {
    throw new Error("provide logOut");
  }),
};
export type SessionCalls = typeof sessionCalls;

/**
 * The session machine with these calls, built once by whoever runs it: the
 * app builds it with its own when it starts (building a machine is most of
 * xstate's start-up work on a slow phone, and provide() builds it again).
 */
export const createSessionMachine = (calls: Partial<SessionCalls> = {}) =>
  setup({
    types: { context: {} as SessionContext, events: {} as SessionEvent, input: {} as SessionInput | undefined },
    actors: { ...sessionCalls, ...calls },
    guards: {
      /** fetchCurrentSession resolves null when the server answers 401. */
      serverKnowsThisDevice: (_, session: SessionResponse | null) => session !== null,
    },
    actions: {
      rememberSession: assign((_, session: SessionResponse) => ({
        courier: session.courier,
        csrfToken: session.csrf_token,
        error: null,
      })),
      forgetSession: assign({ courier: null, csrfToken: null }),
      showLoginError: assign((_, failure: ApiFailure) => ({ error: loginMessage(failure) })),
      clearError: assign({ error: null }),
      // Plain action functions, not sendTo: a session alone has no application to tell (sendTo would
      // fall back to the session itself), and the session is in the first screen's bundle.
      /** The application starts the courier's day. */
      tellSessionOpened: ({ context }) => context.reportTo?.send({ type: "SESSION_OPENED" } satisfies SessionNews),
      /** The application stops the courier's day. */
      tellSessionClosed: ({ context }) => context.reportTo?.send({ type: "SESSION_CLOSED" } satisfies SessionNews),
    },
  }).createMachine({
    id: "session",
    description: "The courier's login; the session lives in an HttpOnly cookie.",
    context: ({ input }) => ({ courier: null, csrfToken: null, error: null, reportTo: input?.reportTo ?? null }),
    initial: "checking",
    states: {
      checking: {
        description: "Is this device already logged in? (asks the server)",
        invoke: {
          id: "fetchCurrentSession",
          src: "fetchCurrentSession",
          onDone: [
            {
              guard: { type: "serverKnowsThisDevice", params: ({ event }) => event.output },
              target: "loggedIn",
              actions: { type: "rememberSession", params: ({ event }) => event.output! },
            },
            { target: "loggedOut" },
          ],
          // Offline at start: the login screen says so when the courier tries.
          onError: { target: "loggedOut" },
        },
      },
      loggedOut: {
        description: "The login screen.",
        entry: ["forgetSession", "tellSessionClosed"],
        on: { LOG_IN: { target: "loggingIn", actions: "clearError", description: "Log in with email and password." } },
      },
      loggingIn: {
        invoke: {
          id: "logIn",
          src: "logIn",
          input: ({ event }) => {
            if (event.type !== "LOG_IN") throw new Error("logIn needs LOG_IN");
            return { email: event.email, password: event.password };
          },
          onDone: { target: "loggedIn", actions: { type: "rememberSession", params: ({ event }) => event.output } },
          onError: {
            target: "loggedOut",
            actions: { type: "showLoginError", params: ({ event }) => toApiFailure(event.error) },
          },
        },
      },
      loggedIn: {
        description: "The courier's name shows in the menu.",
        entry: "tellSessionOpened",
        on: {
          LOG_OUT: { target: "loggingOut", description: "Log out: DELETE /sessions/current with the CSRF token." },
          SESSION_EXPIRED: { target: "loggedOut", description: "The server no longer knows this session." },
        },
      },
      loggingOut: {
        invoke: {
          id: "logOut",
          src: "logOut",
          input: ({ context }) => ({ csrfToken: context.csrfToken }),
          onDone: { target: "loggedOut" },
          // The session may already be gone on the server; the device forgets it either way.
          onError: { target: "loggedOut" },
        },
      },
    },
  });
