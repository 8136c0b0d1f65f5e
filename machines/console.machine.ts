import { assign, enqueueActions, setup, stopChild, type AnyActorRef } from "xstate";
import type { ConsoleScreenName, ScreenOpen } from "./console-screens.ts";
import { consoleSessionMachine, type ConsoleSessionNews } from "./console-session.machine.ts";
import { CONSOLE_SYSTEM_IDS } from "./system-ids.ts";

/**
 * The dispatch console (issue 27): one actor system. It starts the staff
 * session under a system id (CONSOLE_SYSTEM_IDS.session), which tells it when
 * it opens and closes (SESSION_OPENED, SESSION_CLOSED, to `reportTo`), and
 * while a session is open it starts a screen's machine (the board, the
 * couriers, the plan, an order page, the import, the returns) as its child,
 * registered in its system under the screen's id, when the screen opens
 * (SCREEN.OPEN: the screen's name, an id, its input) and stops it, found by
 * that id, when the screen closes (SCREEN.CLOSE) or the session does. A
 * screen whose call answers 401 tells the session itself, by its system id
 * (machines/console-session-ended.ts): no view relays it.
 *
 * A screen's logic loads with it (the order page's, the import's and the
 * returns' off the board's first screen), so the console provides startScreen
 * from its registry of screens (src/console/screens.ts), as the courier app
 * does its flows.
 */
export { CONSOLE_SYSTEM_IDS };
export type { ConsoleScreenName, ScreenOpen };

export interface ConsoleContext {
  /** The system ids of the screens' machines running now (children of the console). */
  screens: string[];
}

export type ConsoleEvent =
  /** The session opened (logged in, or found logged in after a reload) or closed (logged out, expired, ended by a screen's 401). */
  | ConsoleSessionNews
  /** A screen opened: its machine runs as a child under system id `id`, from its input. */
  | ({ type: "SCREEN.OPEN" } & ScreenOpen)
  /** The screen whose machine runs under system id `id` closed. */
  | { type: "SCREEN.CLOSE"; id: string };

/** The screen's machine registered under this system id; once it has left the system, the id itself, which names no child: nothing to stop. */
const screenRef = (system: AnyActorRef["system"], id: string): AnyActorRef | string => system.get(id) ?? id;

export const consoleMachine = setup({
  types: { context: {} as ConsoleContext, events: {} as ConsoleEvent },
  actors: { session: consoleSessionMachine },
  guards: {
    /** Once per id: React's strict mode opens a screen twice. */
    screenIsNotRunning: ({ context, event }) => event.type === "SCREEN.OPEN" && !context.screens.includes(event.id),
    screenIsRunning: ({ context, event }) => event.type === "SCREEN.CLOSE" && context.screens.includes(event.id),
  },
  actions: {
    /** Starts the named screen's machine as a child under system id `id`, with its input. The console provides it, from its registry (src/console/screens.ts). */
    startScreen: (_, _open: ScreenOpen) => {
      throw new Error("provide startScreen");
    },
    rememberScreen: assign(({ context }, id: string) => ({ screens: [...context.screens, id] })),
    /** A screen's machine is found by the system id it was started under (its child id is one XState gives it). */
    stopScreen: stopChild(({ system }, id: string) => screenRef(system, id)),
    forgetScreen: assign(({ context }, id: string) => ({ screens: context.screens.filter((screen) => screen !== id) })),
    /** The session closed: no screen's machine calls the server without one. */
    stopEveryScreen: enqueueActions(({ context, system, enqueue }) => {
      for (const id of context.screens) enqueue.stopChild(screenRef(system, id));
    }),
    forgetEveryScreen: assign({ screens: [] }),
  },
}).createMachine({
  id: "console",
  description: "The dispatch console's actor system: the staff session, and each open screen's machine while the session is open.",
  context: { screens: [] },
  invoke: {
    id: "session",
    systemId: CONSOLE_SYSTEM_IDS.session,
    src: "session",
    // The session tells the console when it opens and closes; the console never reads its state.
    input: ({ self }) => ({ reportTo: self }),
  },
  initial: "signedOut",
  states: {
    signedOut: {
      description: "No staff session (yet): the login screen; no screen's machine runs.",
      on: { SESSION_OPENED: { target: "signedIn", description: "Logged in, or found logged in after a reload." } },
    },
    signedIn: {
      description: "Each open screen's machine runs (while logging out too: the screen stays until the server has answered).",
      exit: ["stopEveryScreen", "forgetEveryScreen"],
      on: {
        "SCREEN.OPEN": {
          guard: "screenIsNotRunning",
          description: "A screen opened: its machine runs, from its input.",
          actions: [
            { type: "startScreen", params: ({ event }) => event },
            { type: "rememberScreen", params: ({ event }) => event.id },
          ],
        },
        "SCREEN.CLOSE": {
          guard: "screenIsRunning",
          description: "A screen closed: its machine stops (no call of it answers to anyone any more).",
          actions: [
            { type: "stopScreen", params: ({ event }) => event.id },
            { type: "forgetScreen", params: ({ event }) => event.id },
          ],
        },
        SESSION_CLOSED: { target: "signedOut", description: "Logged out, or the session ended: every screen's machine stops." },
      },
    },
  },
});
