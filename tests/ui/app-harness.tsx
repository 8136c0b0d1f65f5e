import { useEffect, useState, type ReactNode } from "react";
import { fromPromise } from "xstate";
import type { SessionResponse } from "../../domain/contract/index.ts";
import { createSessionMachine } from "../../machines/session.machine.ts";
import type { courierDayMachine } from "../../machines/courier-day.machine.ts";
import type { offlineQueueMachine } from "../../machines/offline-queue.machine.ts";
import { createAppCourierAppMachine, CourierAppContext, useCourierDayRef } from "../../src/shell/app-actor.ts";
import { FLOW_LOADERS, loadFlows, startFlow } from "../../src/app/flows.ts";
import type { FlowName } from "../../machines/flows.ts";

/** A courier the device already knows (the session check answers at once). */
const SESSION: SessionResponse = { courier: { id: 7, first_name: "Dana", last_name: "Whitfield" }, csrf_token: "csrf-test" } as SessionResponse;

/**
 * The application actor as a feature's tests need it: a session already open,
 * the day the test gives, and the app's own offline queue (or the one the test gives),
 * with the app's registry of flows (as App.tsx has it).
 */
export function appWithDay(day: typeof courierDayMachine, queue?: typeof offlineQueueMachine) {
  return createAppCourierAppMachine({
    actors: {
      session: createSessionMachine({ fetchCurrentSession: fromPromise<SessionResponse | null>(async () => SESSION) }),
      courierDay: day,
      ...(queue ? { offlineQueue: queue } : {}),
    },
    startFlow,
  });
}

/** Every flow's logic, as the router loads a screen's flows with the screen. */
const ALL_FLOWS = Object.keys(FLOW_LOADERS) as FlowName[];

function WhenDayStarted({ children }: { children: ReactNode }) {
  const [flowsLoaded, setFlowsLoaded] = useState(false);
  useEffect(() => void loadFlows(...ALL_FLOWS).then(() => setFlowsLoaded(true)), []);
  return useCourierDayRef() && flowsLoaded ? <>{children}</> : null;
}

/** Renders children once the application has started the given day (the logged-in layout's part). */
export function AppWithDay({ day, queue, children }: { day: typeof courierDayMachine; queue?: typeof offlineQueueMachine; children: ReactNode }) {
  return (
    <CourierAppContext.Provider logic={appWithDay(day, queue)}>
      <WhenDayStarted>{children}</WhenDayStarted>
    </CourierAppContext.Provider>
  );
}
