import { createActor, fromPromise, waitFor, type Actor, type AnyActorLogic, type InputFrom } from "xstate";
import type { ItineraryResponse, SessionResponse } from "../../domain/contract/index.ts";
import type { StoredOfflineOrder } from "../../domain/offline-queue.ts";
import { ORDER_STATUSES } from "../../domain/vocabulary.ts";
import { courierAppMachine } from "../../machines/courier-app.machine.ts";
import { courierDayMachine, type DayLoad } from "../../machines/courier-day.machine.ts";
import { offlineQueueMachine, type QueueChange } from "../../machines/offline-queue.machine.ts";
import { sessionMachine } from "../../machines/session.machine.ts";
import { SYSTEM_IDS, type CourierDayRef, type OfflineQueueRef } from "../../machines/system-ids.ts";
import type { Order } from "../../domain/contract/entities.ts";

/**
 * The application's actor system as a flow finds it in the app: a session
 * already open, the courier's day (the real day machine, loading the day the
 * test gives) and the offline queue (the real queue machine, loading the
 * entries the test gives; resubmitting succeeds). A flow joins it as the app
 * starts it: createActor(flow, { input, parent: app }).
 */

export const APP_TODAY = "2026-11-21";

const SESSION = { courier: { id: 7, first_name: "Dana", last_name: "Whitfield" }, csrf_token: "csrf-test" } as SessionResponse;

export function itinerary(orders: Order[], overrides: Partial<ItineraryResponse> = {}): ItineraryResponse {
  return {
    courier: { id: 7, first_name: "Dana", last_name: "Whitfield" },
    service_date: APP_TODAY,
    support_phone: "18005550199",
    feature_flags: { self_service_addons_enabled: false },
    pharmacy_visits: [],
    orders,
    statuses: ORDER_STATUSES.map((status) => ({ ...status })),
    relationships: [],
    failure_reasons: [],
    ...overrides,
  };
}

export interface AppSystem {
  app: Actor<typeof courierAppMachine>;
  day: CourierDayRef;
  queue: OfflineQueueRef;
  /** Starts a flow in the system, as src/app/flow-actor.ts does. */
  startFlow<TLogic extends AnyActorLogic>(logic: TLogic, input: InputFrom<TLogic>): Actor<TLogic>;
}

export async function startAppSystem({ day, stored = [] }: { day: ItineraryResponse; stored?: StoredOfflineOrder[] }): Promise<AppSystem> {
  const app = createActor(
    courierAppMachine.provide({
      actors: {
        session: sessionMachine.provide({ actors: { fetchCurrentSession: fromPromise<SessionResponse | null>(async () => SESSION) } }),
        courierDay: courierDayMachine.provide({
          actors: {
            loadDay: fromPromise<DayLoad>(async () => ({ itinerary: day, source: "server" })),
            saveDay: fromPromise<void, { day: ItineraryResponse }>(async () => undefined),
          },
        }),
        offlineQueue: offlineQueueMachine.provide({
          actors: {
            loadQueue: fromPromise<StoredOfflineOrder[]>(async () => stored),
            saveQueue: fromPromise<void, QueueChange>(async () => undefined),
            resubmit: fromPromise<unknown, StoredOfflineOrder>(async () => ({})),
          },
        }),
        // The browser never comes back online by itself here.
        browserOnline: fromPromise<string>(() => new Promise(() => undefined)),
      } as never,
    }),
    { input: { today: APP_TODAY } },
  ).start();
  const queue = app.system.get(SYSTEM_IDS.offlineQueue) as OfflineQueueRef;
  await waitFor(queue, (snapshot) => !snapshot.matches({ storage: "loading" }));
  await waitFor(app, () => app.system.get(SYSTEM_IDS.courierDay) !== undefined);
  const dayRef = app.system.get(SYSTEM_IDS.courierDay) as CourierDayRef;
  await waitFor(dayRef, (snapshot) => snapshot.context.day !== null);
  return {
    app,
    day: dayRef,
    queue,
    startFlow: (logic, input) => createActor(logic, { input, parent: app } as never).start() as never,
  };
}
