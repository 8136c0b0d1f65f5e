import type { ReactNode } from "react";
import { fromPromise, type AnyActorLogic } from "xstate";
import type { SessionResponse } from "../../domain/contract/index.ts";
import { sessionMachine } from "../../machines/session.machine.ts";
import { appCourierAppMachine, CourierAppContext, useCourierDayRef } from "../../src/app/app-actor.ts";

/** A courier the device already knows (the session check answers at once). */
const SESSION: SessionResponse = { courier: { id: 7, first_name: "Dana", last_name: "Whitfield" }, csrf_token: "csrf-test" } as SessionResponse;

/**
 * The application actor as a feature's tests need it: a session already open,
 * the day the test gives, and the app's own offline queue (or the one the test gives).
 */
export function appWithDay(day: AnyActorLogic, queue?: AnyActorLogic) {
  return appCourierAppMachine.provide({
    actors: {
      session: sessionMachine.provide({ actors: { fetchCurrentSession: fromPromise<SessionResponse | null>(async () => SESSION) } }),
      courierDay: day,
      ...(queue ? { offlineQueue: queue } : {}),
    } as never,
  });
}

function WhenDayStarted({ children }: { children: ReactNode }) {
  return useCourierDayRef() ? <>{children}</> : null;
}

/** Renders children once the application has started the given day (the logged-in layout's part). */
export function AppWithDay({ day, queue, children }: { day: AnyActorLogic; queue?: AnyActorLogic; children: ReactNode }) {
  return (
    <CourierAppContext.Provider logic={appWithDay(day, queue)}>
      <WhenDayStarted>{children}</WhenDayStarted>
    </CourierAppContext.Provider>
  );
}
