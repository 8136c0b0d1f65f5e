import { assign, createActor, fromPromise, waitFor, type Actor, type ActorRefFrom, type AnyActorLogic, type InputFrom } from "xstate";
import type { ItineraryResponse, SessionResponse } from "../../domain/contract/index.ts";
import type { StoredOfflineOrder } from "../../domain/offline-queue.ts";
import { ORDER_STATUSES } from "../../domain/vocabulary.ts";
import { courierAppMachine, type CourierAppEvent, type CourierAppInput } from "../../machines/courier-app.machine.ts";
import { courierDayMachine, type DayLoad } from "../../machines/courier-day.machine.ts";
import { offlineQueueMachine, type QueueChange } from "../../machines/offline-queue.machine.ts";
import { sessionMachine } from "../../machines/session.machine.ts";
import { SYSTEM_IDS, type CourierDayRef, type OfflineQueueRef } from "../../machines/system-ids.ts";
import type { FlowMachines, FlowName, FlowStart } from "../../machines/flows.ts";
import type { Order } from "../../domain/contract/entities.ts";

/**
 * The application's actor system as a flow finds it in the app: a session
 * already open, the courier's day (the real day machine, loading the day the
 * test gives) and the offline queue (the real queue machine, loading the
 * entries the test gives; resubmitting succeeds). A flow joins it as the app
 * starts it: by name, FLOW.START, with the logic the test gives for that name.
 */

/** The application's startFlow (src/app/flows.ts's, with the test's logic for each name): the flow as a child registered under the opening's id. */
export const startFlowFrom = (logicOf: (flow: FlowName) => AnyActorLogic) =>
  assign<CourierAppInput, CourierAppEvent, FlowStart, CourierAppEvent, never>(({ spawn, self }, start) => {
    if (!self.system.get(start.id)) spawn(logicOf(start.flow), { systemId: start.id, input: start.input });
    return {};
  });

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
  /** Starts a flow in the system, as src/shell/flow-actor.ts does: FLOW.START under the name the logic's machine has, this logic answering to it. */
  startFlow<TLogic extends FlowMachines[FlowName]>(logic: TLogic, input: InputFrom<TLogic>): ActorRefFrom<TLogic>;
}

let opened = 0;

export async function startAppSystem({ day, stored = [] }: { day: ItineraryResponse; stored?: StoredOfflineOrder[] }): Promise<AppSystem> {
  const flows = new Map<FlowName, AnyActorLogic>();
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
      },
      actions: { startFlow: startFlowFrom((flow) => flows.get(flow)!) },
    }),
    { input: { today: APP_TODAY } },
  ).start();
  const queue = app.system.get(SYSTEM_IDS.offlineQueue) as OfflineQueueRef;
  // The queue reads the device once the session has opened.
  await waitFor(queue, (snapshot) => !snapshot.matches({ storage: "closed" }) && !snapshot.matches({ storage: "loading" }));
  await waitFor(app, () => app.system.get(SYSTEM_IDS.courierDay) !== undefined);
  const dayRef = app.system.get(SYSTEM_IDS.courierDay) as CourierDayRef;
  await waitFor(dayRef, (snapshot) => snapshot.context.day !== null);
  return {
    app,
    day: dayRef,
    queue,
    startFlow: (logic, input) => {
      const flow = logic.id as FlowName;
      const id = `flow:${flow}-${++opened}`;
      flows.set(flow, logic);
      app.send({ type: "FLOW.START", flow, id, input } as FlowStart & { type: "FLOW.START" });
      return app.system.get(id) as ActorRefFrom<typeof logic>;
    },
  };
}
