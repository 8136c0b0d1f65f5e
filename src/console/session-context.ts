import { createActorContext } from "@xstate/react";
import { consoleSessionMachine } from "../../machines/console-session.machine.ts";

/** The console's session actor, provided once by ConsoleApp with the real calls (api/session.ts) or a test's. */
export const ConsoleSession = createActorContext(consoleSessionMachine);
