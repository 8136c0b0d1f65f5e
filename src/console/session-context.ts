import { createActorContext, useSelector } from "@xstate/react";
import type { ActorRefFrom, SnapshotFrom } from "xstate";
import { consoleMachine } from "../../machines/console.machine.ts";
import type { consoleSessionMachine } from "../../machines/console-session.machine.ts";

/**
 * The console's actor system (machines/console.machine.ts), provided once by
 * ConsoleApp with the real calls and screens (src/console/screens.ts) or a
 * test's.
 */
export const ConsoleActor = createActorContext(consoleMachine);

type SessionRef = ActorRefFrom<typeof consoleSessionMachine>;

const useSessionRef = (): SessionRef => ConsoleActor.useSelector((console) => console.children.session) as SessionRef;

/** The staff session, the console's child: read and told the way the screens always have (useSelector, useActorRef). */
export const ConsoleSession = {
  useActorRef: useSessionRef,
  useSelector: <T,>(selector: (snapshot: SnapshotFrom<typeof consoleSessionMachine>) => T, compare?: (a: T, b: T) => boolean): T =>
    useSelector(useSessionRef(), selector, compare),
};
