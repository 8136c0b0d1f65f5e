import { useState, type ComponentType, type ReactNode } from "react";
import type { ActorRefFrom, AnyActorRef, InputFrom } from "xstate";
import type { ConsoleScreenMachines, ConsoleScreenName, ScreenOpen } from "../../machines/console-screens.ts";
import { useOpenedActor } from "../ui/use-opened-actor.ts";
import { ConsoleActor, ConsoleSession } from "./session-context.ts";
import { serviceToday } from "./today.ts";

let screensOpened = 0;

export type ScreenActor<S extends ConsoleScreenName> = ActorRefFrom<ConsoleScreenMachines[S]>;

/**
 * A screen's machine, run by the console (machines/console.machine.ts): the
 * screen opens it by name with its input (SCREEN.OPEN) and closes it when it
 * goes (SCREEN.CLOSE), so it lives in the console's actor system — a call of
 * it that answers 401 tells the session itself — and stops with the session.
 * Each opening of a screen is a machine of its own (its own id, the system id
 * it runs under: system.get(id)).
 *
 * The children are rendered once the machine runs, before the first paint
 * (useOpenedActor).
 */
export function ConsoleScreen<S extends ConsoleScreenName>({
  screen,
  input,
  children,
}: {
  screen: S;
  /** What the machine starts from, read once, when the screen opens. */
  input: InputFrom<ConsoleScreenMachines[S]>;
  children: (actor: ScreenActor<S>) => ReactNode;
}) {
  const consoleRef = ConsoleActor.useActorRef();
  const [opening] = useState(() => {
    const open = { screen, id: `screen:${screen}-${++screensOpened}`, input } as ScreenOpen;
    return {
      // Registered in the console's system under the opening's id (src/console/screens.ts).
      read: () => consoleRef.system.get(open.id) as AnyActorRef | undefined,
      // A second run (React's strict mode) opens it again after closing it: a fresh machine under the same id.
      open: () => {
        consoleRef.send({ type: "SCREEN.OPEN", ...open });
        return () => consoleRef.send({ type: "SCREEN.CLOSE", id: open.id });
      },
    };
  });
  // The console's system holds screens untyped: this one is the machine S names.
  const actor = useOpenedActor(consoleRef, opening.read, opening.open) as ScreenActor<S> | undefined;
  return actor ? children(actor) : null;
}

/** The input of a screen of one service day (the board, the couriers, the plan): today in the service's zone, and the session's CSRF token. */
export function useServiceDayInput(): { serviceDate: string; csrfToken: string | null } {
  const csrfToken = ConsoleSession.useSelector((snapshot) => snapshot.context.csrfToken);
  const timeZone = ConsoleSession.useSelector((snapshot) => snapshot.context.serviceTimeZone);
  return { serviceDate: serviceToday(timeZone), csrfToken };
}

/** The screens of one service day: the board, the couriers, the plan. */
type DayScreen = "board" | "couriers" | "plan";

/** A screen of one service day: its machine opened with today and the CSRF token, its view given the running machine. */
export function serviceDayScreen<S extends DayScreen>(screen: S, View: ComponentType<{ actor: ScreenActor<S> }>): () => ReactNode {
  return function ServiceDayScreen() {
    return (
      <ConsoleScreen screen={screen} input={useServiceDayInput() as InputFrom<ConsoleScreenMachines[S]>}>
        {(actor) => <View actor={actor} />}
      </ConsoleScreen>
    );
  };
}
