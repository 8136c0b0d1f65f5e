import { createActorContext, useSelector } from "@xstate/react";
import { fromPromise, type ActorRefFrom, type SnapshotFrom } from "xstate";
import { courierAppMachine } from "../../machines/courier-app.machine.ts";
import type { courierDayMachine } from "../../machines/courier-day.machine.ts";
import type { offlineQueueMachine } from "../../machines/offline-queue.machine.ts";
import type { sessionMachine } from "../../machines/session.machine.ts";
import { deviceToday, appOfflineQueueMachine } from "./offline-queue-logic.ts";
import { appCourierDayMachine, appSessionMachine } from "./session-context.ts";

/** The application's actor system with the app's adapters (storage, HTTP, the browser's "online" event). */
export const appCourierAppMachine = courierAppMachine.provide({
  actors: {
    session: appSessionMachine,
    courierDay: appCourierDayMachine,
    offlineQueue: appOfflineQueueMachine,
    browserOnline: fromPromise<string>(
      () => new Promise((resolve) => window.addEventListener("online", () => resolve(deviceToday()), { once: true })),
    ),
  },
});

/** One application actor per page; tests give the Provider their own `logic`. */
export const CourierAppContext = createActorContext(appCourierAppMachine, { input: { today: deviceToday() } });

type SessionRef = ActorRefFrom<typeof sessionMachine>;
type DayRef = ActorRefFrom<typeof courierDayMachine>;
type QueueRef = ActorRefFrom<typeof offlineQueueMachine>;

export const useSessionRef = (): SessionRef => CourierAppContext.useSelector((app) => app.children.session) as SessionRef;
/** The day, while someone is logged in (undefined before the session is known and after logging out). */
export const useCourierDayRef = (): DayRef | undefined => CourierAppContext.useSelector((app) => app.children.courierDay) as DayRef | undefined;
export const useOfflineQueueRef = (): QueueRef => CourierAppContext.useSelector((app) => app.children.offlineQueue) as QueueRef;

/** The session, read and told the way the screens always have (SessionContext.useSelector / useActorRef). */
export const SessionContext = {
  useActorRef: useSessionRef,
  useSelector: <T,>(selector: (snapshot: SnapshotFrom<typeof sessionMachine>) => T, compare?: (a: T, b: T) => boolean): T =>
    useSelector(useSessionRef(), selector, compare),
};

/** The courier's day, for the screens under the logged-in layout (which renders them only once the day exists). */
export const CourierDayContext = {
  useActorRef: (): DayRef => {
    const day = useCourierDayRef();
    if (!day) throw new Error("no courier's day");
    return day;
  },
  useSelector: <T,>(selector: (snapshot: SnapshotFrom<typeof courierDayMachine>) => T, compare?: (a: T, b: T) => boolean): T =>
    useSelector(CourierDayContext.useActorRef(), selector, compare),
};
