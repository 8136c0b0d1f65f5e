import { assign, fromPromise, setup, type AnyActorRef } from "xstate";
import { loginMessage, toApiFailure, type ApiFailure } from "../domain/api-failure.ts";
import type { StaffSessionResponse } from "../domain/contract/staff.ts";

/**
 * Who is logged in to the dispatch console (issue 27): a dispatcher or a
 * pharmacist, with a session cookie and the CSRF token every mutating call
 * sends. The console provides the three calls (src/console/api/session.ts);
 * the URL follows the state (/dispatch/login while signed out). The console
 * that runs it (`reportTo`, machines/console.machine.ts) is told when the
 * session opens and closes (SESSION_OPENED, SESSION_CLOSED): its screens run
 * while it is open. A screen whose call answered 401 sends it SESSION_EXPIRED
 * by its system id (machines/console-session-ended.ts).
 */
export type ConsoleStaff = StaffSessionResponse["staff"];

export interface ConsoleSessionInput {
  /** The console: told SESSION_OPENED and SESSION_CLOSED. None when the session runs alone (its tests, the visualizer). */
  reportTo?: AnyActorRef;
}

export interface ConsoleSessionContext {
  staff: ConsoleStaff | null;
  csrfToken: string | null;
  /** The service's time zone (the server's SERVICE_TIME_ZONE): the board's "today" is the day there. */
  serviceTimeZone: string | null;
  /** The login screen's alert, in words. */
  error: string | null;
  reportTo: AnyActorRef | null;
}

/** What the session tells the console that runs it. */
export type ConsoleSessionNews = { type: "SESSION_OPENED" } | { type: "SESSION_CLOSED" };

export type ConsoleSessionEvent =
  | { type: "LOG_IN"; email: string; password: string }
  | { type: "LOG_OUT" }
  /** A call answered 401: the session ended (expired, logged out elsewhere, account deactivated). */
  | { type: "SESSION_EXPIRED" };

/** Shown on the login screen after the server ended the session. */
export const SESSION_ENDED_MESSAGE = "Your session has ended. Please log in again.";

export const consoleSessionMachine = setup({
  types: { context: {} as ConsoleSessionContext, events: {} as ConsoleSessionEvent, input: {} as ConsoleSessionInput | undefined },
  actors: {
    fetchCurrentStaffSession: fromPromise<StaffSessionResponse | null>(async () => {
      throw new Error("provide fetchCurrentStaffSession");
    }),
    logInStaff: fromPromise<StaffSessionResponse, { email: string; password: string }>(async () => {
      throw new Error("provide logInStaff");
    }),
    logOutStaff: fromPromise<void, { csrfToken: string | null }>(async () => {
      throw new Error("provide logOutStaff");
    }),
  },
  guards: {
    /** fetchCurrentStaffSession resolves null when the server answers 401. */
    serverKnowsThisBrowser: (_, session: StaffSessionResponse | null) => session !== null,
  },
  actions: {
    rememberStaffSession: assign((_, session: StaffSessionResponse) => ({ staff: session.staff, csrfToken: session.csrf_token, serviceTimeZone: session.service_time_zone, error: null })),
    forgetStaffSession: assign({ staff: null, csrfToken: null, serviceTimeZone: null }),
    showLoginError: assign((_, failure: ApiFailure) => ({ error: loginMessage(failure) })),
    showSessionEnded: assign({ error: SESSION_ENDED_MESSAGE }),
    clearError: assign({ error: null }),
    // Plain action functions, as the courier's session: a session alone has no console to tell (sendTo would fall back to itself).
    /** The console starts the screens' machines from now on. */
    tellSessionOpened: ({ context }) => context.reportTo?.send({ type: "SESSION_OPENED" } satisfies ConsoleSessionNews),
    /** The console stops every screen's machine: no call goes out without a session. */
    tellSessionClosed: ({ context }) => context.reportTo?.send({ type: "SESSION_CLOSED" } satisfies ConsoleSessionNews),
  },
}).createMachine({
  id: "consoleSession",
  description: "The dispatch console's login (dispatchers and pharmacists); the session lives in an HttpOnly cookie.",
  context: ({ input }) => ({ staff: null, csrfToken: null, serviceTimeZone: null, error: null, reportTo: input?.reportTo ?? null }),
  initial: "checkingSession",
  states: {
    checkingSession: {
      description: "Is this browser already logged in? GET /api/ops/v1/sessions/current",
      invoke: {
        id: "fetchCurrentStaffSession",
        src: "fetchCurrentStaffSession",
        onDone: [
          { guard: { type: "serverKnowsThisBrowser", params: ({ event }) => event.output }, target: "signedIn", actions: { type: "rememberStaffSession", params: ({ event }) => event.output! } },
          { target: "signedOut" },
        ],
        // The network is down at start: the login screen says so when they try.
        onError: { target: "signedOut" },
      },
    },
    signedOut: {
      description: "The login screen, /dispatch/login.",
      entry: ["forgetStaffSession", "tellSessionClosed"],
      on: { LOG_IN: { target: "loggingIn", actions: "clearError", description: "Log in with email and password." } },
    },
    loggingIn: {
      description: "POST /api/ops/v1/sessions",
      invoke: {
        id: "logInStaff",
        src: "logInStaff",
        input: ({ event }) => {
          if (event.type !== "LOG_IN") throw new Error("logInStaff needs LOG_IN");
          return { email: event.email, password: event.password };
        },
        onDone: { target: "signedIn", actions: { type: "rememberStaffSession", params: ({ event }) => event.output } },
        onError: { target: "signedOut", actions: { type: "showLoginError", params: ({ event }) => toApiFailure(event.error) } },
      },
    },
    signedIn: {
      description: "The day board, /dispatch, and the other screens.",
      entry: "tellSessionOpened",
      on: {
        LOG_OUT: { target: "loggingOut", description: "Log out: DELETE /api/ops/v1/sessions/current with the CSRF token." },
        SESSION_EXPIRED: { target: "signedOut", actions: "showSessionEnded", description: "A screen's call answered 401 (the screen tells the session by its system id): the server no longer knows this session." },
      },
    },
    loggingOut: {
      invoke: {
        id: "logOutStaff",
        src: "logOutStaff",
        input: ({ context }) => ({ csrfToken: context.csrfToken }),
        onDone: { target: "signedOut" },
        // The session may be gone on the server already; the browser forgets it either way.
        onError: { target: "signedOut" },
      },
    },
  },
});
