import { useActorRef, useSelector } from "@xstate/react";
import { createContext, createElement, useContext, type ReactNode } from "react";
import { fromPromise, type ActorRefFrom, type SnapshotFrom } from "xstate";
import { createCourierAppMachine, type CourierAppActors, type StartFlow } from "../../machines/courier-app.definition.ts";
import { createCourierDayMachine } from "../../machines/courier-day.definition.ts";
import { createOfflineQueueMachine } from "../../machines/offline-queue.definition.ts";
import { createSessionMachine } from "../../machines/session.definition.ts";
import { deviceToday, appOfflineQueueCalls } from "./offline-queue-logic.ts";
import { appCourierDayCalls, appSessionCalls } from "./session-context.ts";

/** The application's children with the app's adapters (storage, HTTP), each built when called. */
const appChildMachines = {
  session: () => createSessionMachine(appSessionCalls),
  courierDay: () => createCourierDayMachine(appCourierDayCalls),
  offlineQueue: () => createOfflineQueueMachine(appOfflineQueueCalls),
};

/**
 * The application's actor system with the app's adapters (storage, HTTP, the
 * browser's "online" event), each machine built once, here, with them (a
 * test gives its own children instead); the app gives its registry's
 * startFlow (src/app/flows.ts).
 */
export function createAppCourierAppMachine({ actors = {}, startFlow }: { actors?: Partial<CourierAppActors>; startFlow?: StartFlow } = {}) {
  return createCourierAppMachine({
    actors: {
      session: actors.session ?? appChildMachines.session(),
      courierDay: actors.courierDay ?? appChildMachines.courierDay(),
      offlineQueue: actors.offlineQueue ?? appChildMachines.offlineQueue(),
      browserOnline:
        actors.browserOnline ??
        fromPromise<string>(() => new Promise((resolve) => window.addEventListener("online", () => resolve(deviceToday()), { once: true }))),
    },
    startFlow,
  });
}

/**
 * The same machine, built one machine per task (the session's, the day's, the
 * queue's, then the application's), the first after the task that loaded the
 * app's modules: each is a few milliseconds of work on a fast machine, ten
 * times that on a low-tier phone, and together one task the courier could not
 * tap through (issue 29).
 */
export async function createAppCourierAppMachineInSlices({ startFlow, nextTask }: { startFlow: StartFlow; nextTask: () => Promise<void> }) {
  await nextTask();
  const session = appChildMachines.session();
  await nextTask();
  const courierDay = appChildMachines.courierDay();
  await nextTask();
  const offlineQueue = appChildMachines.offlineQueue();
  await nextTask();
  return createAppCourierAppMachine({ actors: { session, courierDay, offlineQueue }, startFlow });
}

export type CourierAppMachine = ReturnType<typeof createCourierAppMachine>;
type CourierAppRef = ActorRefFrom<CourierAppMachine>;

const AppActor = createContext<CourierAppRef | null>(null);
let defaultApp: CourierAppMachine | undefined;

function Provider({ logic, children }: { logic?: CourierAppMachine; children?: ReactNode }) {
  // Without logic (some tests), the app's adapters and no flows, built on first use rather than when this module loads.
  const actor = useActorRef(logic ?? (defaultApp ??= createAppCourierAppMachine()), { input: { today: deviceToday() } });
  return createElement(AppActor.Provider, { value: actor }, children);
}

function useAppActor(): CourierAppRef {
  const actor = useContext(AppActor);
  if (!actor) throw new Error("The courier app's actor is used outside CourierAppContext.Provider.");
  return actor;
}

/**
 * One application actor per page; tests give the Provider their own `logic`.
 * (@xstate/react's createActorContext wants the machine when this module
 * loads; the app builds it once, when it renders.)
 */
export const CourierAppContext = {
  Provider,
  useActorRef: useAppActor,
  useSelector: <T,>(selector: (snapshot: SnapshotFrom<CourierAppMachine>) => T, compare?: (a: T, b: T) => boolean): T =>
    useSelector(useAppActor(), selector, compare),
};

type SessionRef = ActorRefFrom<CourierAppActors["session"]>;
type DayRef = ActorRefFrom<CourierAppActors["courierDay"]>;
type QueueRef = ActorRefFrom<CourierAppActors["offlineQueue"]>;

export const useSessionRef = (): SessionRef => CourierAppContext.useSelector((app) => app.children.session) as SessionRef;
/** The day, while someone is logged in (undefined before the session is known and after logging out). */
export const useCourierDayRef = (): DayRef | undefined => CourierAppContext.useSelector((app) => app.children.courierDay) as DayRef | undefined;
export const useOfflineQueueRef = (): QueueRef => CourierAppContext.useSelector((app) => app.children.offlineQueue) as QueueRef;

/** The session, read and told the way the screens always have (SessionContext.useSelector / useActorRef). */
export const SessionContext = {
  useActorRef: useSessionRef,
  useSelector: <T,>(selector: (snapshot: SnapshotFrom<CourierAppActors["session"]>) => T, compare?: (a: T, b: T) => boolean): T =>
    useSelector(useSessionRef(), selector, compare),
};

/** The courier's day, for the screens under the logged-in layout (which renders them only once the day exists). */
export const CourierDayContext = {
  useActorRef: (): DayRef => {
    const day = useCourierDayRef();
    if (!day) throw new Error("no courier's day");
    return day;
  },
  useSelector: <T,>(selector: (snapshot: SnapshotFrom<CourierAppActors["courierDay"]>) => T, compare?: (a: T, b: T) => boolean): T =>
    useSelector(CourierDayContext.useActorRef(), selector, compare),
};
