import { useEffect } from "react";
import { createActorContext } from "@xstate/react";
import { consoleSessionMachine } from "../../machines/console-session.machine.ts";

/** The console's session actor, provided once by ConsoleApp with the real calls (api/session.ts) or a test's. */
export const ConsoleSession = createActorContext(consoleSessionMachine);

/**
 * A screen's call answered 401: the session ended (expired, deactivated, logged
 * out elsewhere), and the session machine takes the console back to the login.
 * One hand-off for every screen; each screen's actor still runs outside the
 * session's actor system (see the closing note of issue 27).
 */
export function useEndSessionWhen(sessionEnded: boolean): void {
  const session = ConsoleSession.useActorRef();
  useEffect(() => {
    if (sessionEnded) session.send({ type: "SESSION_EXPIRED" });
  }, [sessionEnded, session]);
}
