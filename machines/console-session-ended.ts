import type { AnyActorRef } from "xstate";
import type { ApiFailure } from "../domain/api-failure.ts";
import { CONSOLE_SYSTEM_IDS } from "./system-ids.ts";

/**
 * A console screen's call answered 401 (the staff session expired, was ended
 * by a deactivation or a logout elsewhere): the screen's machine tells the
 * console's session, by its system id, SESSION_EXPIRED, and the session takes
 * the console back to the login. Any other failure is the screen's own.
 *
 * A plain action function, as the session's own news (tellSessionOpened): a
 * screen run alone (its tests, the visualizer) has no session to tell.
 */
export function tellSessionEnded({ system }: { system: { get: (systemId: string) => AnyActorRef | undefined } }, failure: ApiFailure): void {
  if (failure.kind === "unauthenticated") system.get(CONSOLE_SYSTEM_IDS.session)?.send({ type: "SESSION_EXPIRED" });
}
