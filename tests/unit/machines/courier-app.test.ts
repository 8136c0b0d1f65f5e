import { describe, expect, it } from "vitest";
import {
  assign,
  createActor,
  fromPromise,
  setup,
  type AnyActorLogic,
  type AnyActorRef,
  type EventObject,
} from "xstate";
import type { ItineraryResponse, SessionResponse } from "../../../domain/contract/index.ts";
import { courierAppMachine, SYSTEM_IDS, type CourierAppEvent } from "../../../machines/courier-app.machine.ts";
import { courierDayMachine, type DayLoad } from "../../../machines/courier-day.machine.ts";
import { deliveryFlowMachine } from "../../../machines/delivery-flow.machine.ts";
import { sessionMachine } from "../../../machines/session.machine.ts";
import { deliverySubmitMachine, type DeliverySubmission, type SubmissionResult } from "../../../machines/delivery-submit.machine.ts";
import { DELIVERY_DRAFT_VERSION, type DeliveryDraft } from "../../../domain/delivery-draft.ts";
import type { FlowName } from "../../../machines/flows.ts";
import { startFlowFrom } from "../../support/app-system.ts";
import { QUEUED, QUEUED_ENTRY } from "../../support/delivery-flow-events.ts";
import { expectFullCoverage, transitionCoverPaths } from "../../support/model-coverage.ts";
import { makeOrder } from "../../support/order-fixtures.ts";
import { pathName, possibleEvents, type ModelPath } from "../../support/replay-paths.ts";

const TODAY = "2026-11-21";
const SESSION: SessionResponse = { courier: { id: 7, first_name: "Dana", last_name: "Whitfield" }, csrf_token: "csrf-test" };

/** A flow the courier finishes with FINISH (its output: what became of it); it stands in for any flow the app names. */
const finishingFlow = setup({ types: { input: {} as { order: { id: number } } } }).createMachine({
  id: "flow",
  context: ({ input }) => ({ orderId: input.order.id }),
  initial: "open",
  states: { open: { on: { FINISH: "finished" } }, finished: { type: "final" } },
  output: ({ context }) => ({ orderId: context.orderId }),
});
const FLOW_ID = "flow:deliveryFlow-1";
/** A delivery flow's input for an order (the stand-in flow keeps the order's id). */
const flowInput = (id: number) => ({ order: makeOrder({ id, status: "picked_up" }), supportPhone: "2155550100", today: TODAY });

const EVENTS = [
  { type: "SESSION_OPENED" },
  { type: "SESSION_CLOSED" },
  { type: "xstate.done.actor.browserOnline", output: TODAY },
  { type: "FLOW.START", flow: "deliveryFlow", id: FLOW_ID, input: flowInput(70) },
  { type: `xstate.done.actor.${FLOW_ID}`, output: { orderId: 70 } },
];

/**
 * The real session machine, its calls answered by the test: no session on this
 * device at start (or one, for a reload while logged in), a login that succeeds,
 * a logout the server answers when the test says (`answerLogout`).
 */
const testSession = (onDevice: SessionResponse | null = null) =>
  sessionMachine.provide({
    actors: {
      fetchCurrentSession: fromPromise<SessionResponse | null>(async () => onDevice),
      logIn: fromPromise<SessionResponse, { email: string; password: string }>(async () => SESSION),
      logOut: fromPromise<void, { csrfToken: string | null }>(() => new Promise<void>((resolve) => (answerLogout = resolve))),
    },
  });

/** Answers the running logout, as the server does. */
let answerLogout: () => void = () => undefined;

const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

/** Any actor that keeps the events it receives, to assert who was told what. */
const recorder = (id: string) =>
  setup({ types: { context: {} as { received: EventObject[] } } }).createMachine({
    id,
    context: { received: [] },
    on: { "*": { actions: assign({ received: ({ context, event }) => [...context.received, event] }) } },
  });

type AppActors = NonNullable<Parameters<typeof courierAppMachine.provide>[0]["actors"]>;

/** The application with stand-ins for its actors, and the test's logic for the flows it starts by name. */
function startApp(overrides: { courierDay?: AnyActorLogic; session?: AnyActorLogic } = {}, flows: Partial<Record<FlowName, AnyActorLogic>> = {}) {
  const app = createActor(
    courierAppMachine.provide({
      // The real session (its calls answered by the test) and recorders in place of the day and the queue.
      actors: {
        session: overrides.session ?? testSession(),
        courierDay: overrides.courierDay ?? recorder("courierDay"),
        offlineQueue: recorder("offlineQueue"),
        browserOnline: fromPromise<string>(() => new Promise((resolve) => (goOnline = resolve))),
      } as unknown as AppActors,
      actions: { startFlow: startFlowFrom((flow) => flows[flow] ?? finishingFlow) },
    }),
    { input: { today: TODAY } },
  );
  return app.start();
}

/** Resolves the running browserOnline watch, as the browser's "online" event does. */
let goOnline: (today: string) => void = () => undefined;

const received = (actor: AnyActorRef | undefined) => (actor?.getSnapshot().context as { received: EventObject[] }).received;

async function replay(path: ModelPath) {
  const app = startApp();
  await tick(); // The session finds no session on the device: the login screen.
  let day: AnyActorRef | undefined;
  for (const { event } of path.steps.slice(1)) {
    const session: AnyActorRef = app.system.get(SYSTEM_IDS.session);
    if (event.type === "xstate.done.actor.browserOnline") {
      goOnline((event as unknown as { output: string }).output);
    } else if (event.type === `xstate.done.actor.${FLOW_ID}` && app.system.get(FLOW_ID)) {
      // A running flow finishes by itself: the application hears it from the flow.
      app.system.get(FLOW_ID).send({ type: "FINISH" });
    } else if (event.type === "SESSION_OPENED") {
      // The courier logs in: the session tells the application.
      session.send({ type: "LOG_IN", email: "courier@example.com", password: "deliver-safely" });
    } else if (event.type === "SESSION_CLOSED") {
      // The courier logs out: the day stays while the server answers, then the session tells the application.
      session.send({ type: "LOG_OUT" });
      await tick();
      expect(session.getSnapshot().value).toBe("loggingOut");
      expect(app.getSnapshot().matches({ session: "signedIn" })).toBe(true);
      expect(app.system.get(SYSTEM_IDS.courierDay)).toBe(day);
      answerLogout();
    } else {
      app.send(event as CourierAppEvent);
    }
    await tick();
    // A session change that keeps it open (logging out) keeps the same day: it is not started again.
    const now = app.system.get(SYSTEM_IDS.courierDay);
    if (day && now) expect(now).toBe(day);
    day = now;
  }
  return app;
}

describe("courier-app machine", () => {
  const paths = transitionCoverPaths(courierAppMachine, { events: possibleEvents(EVENTS), input: { today: TODAY } });

  it.each(paths.map((path) => [pathName(path), path] as const))("replays %s", async (_name, path) => {
    const app = await replay(path);
    expect(app.getSnapshot().value).toEqual(path.state.value);
    // The session and the queue are there from the start, the day only while a session is open, each under its system id.
    expect(app.system.get(SYSTEM_IDS.session)).toBeDefined();
    expect(app.system.get(SYSTEM_IDS.offlineQueue)).toBeDefined();
    expect(app.system.get(SYSTEM_IDS.courierDay) !== undefined).toBe(path.state.matches({ session: "signedIn" }));
    // A flow started runs in the application's system, a child of the application, until it is done.
    const opened = path.steps.findLastIndex((step) => step.event.type === "FLOW.START");
    const finished = path.steps.findLastIndex((step) => step.event.type === `xstate.done.actor.${FLOW_ID}`);
    const flow: AnyActorRef | undefined = app.system.get(FLOW_ID);
    expect(flow !== undefined).toBe(opened >= 0 && opened > finished);
    if (flow) expect(Object.values(app.getSnapshot().children)).toContain(flow);
    const online = path.steps.filter((step) => step.event.type === "xstate.done.actor.browserOnline").length;
    expect(received(app.system.get(SYSTEM_IDS.offlineQueue)).filter((event) => event.type === "ONLINE")).toHaveLength(online);
    // The queue is told each time a session opens (it reads the device's storage the first time), never before.
    const sessionsOpened = path.steps.filter((step, i) => i > 0 && step.state.matches({ session: "signedIn" }) && path.steps[i - 1]!.state.matches({ session: "signedOut" })).length;
    expect(received(app.system.get(SYSTEM_IDS.offlineQueue)).filter((event) => event.type === "SESSION_OPENED")).toHaveLength(sessionsOpened);
    app.stop();
  });

  it("covers every state and transition", () => expectFullCoverage(courierAppMachine, paths, { input: { today: TODAY } }));

  it("a delivery flow in the system hands a call that failed on the network to the queue, and tells the day its outcome", async () => {
    const order = makeOrder({ id: 70, status: "picked_up" });
    const day = { orders: [order], pharmacy_visits: [], statuses: [] } as unknown as ItineraryResponse;
    const app = startApp(
      {
        courierDay: courierDayMachine.provide({
          actors: {
            loadDay: fromPromise<DayLoad>(async () => ({ itinerary: day, source: "server" })),
            saveDay: fromPromise<void, { day: ItineraryResponse }>(async () => undefined),
          },
        }),
      },
      {
        deliveryFlow: deliveryFlowMachine.provide({
          actors: {
            deliverySubmit: deliverySubmitMachine.provide({
              actors: { send: fromPromise<SubmissionResult, DeliverySubmission>(async (): Promise<SubmissionResult> => JSON.parse(JSON.stringify(QUEUED))) },
            }),
          },
        }),
      },
    );
    await tick();
    app.system.get(SYSTEM_IDS.session).send({ type: "LOG_IN", email: "courier@example.com", password: "deliver-safely" });
    await tick();
    app.send({
      type: "FLOW.START",
      flow: "deliveryFlow",
      id: "flow:deliveryFlow-7",
      input: { order, otherOrders: [order], supportPhone: "2155550100", today: TODAY },
    });
    const flow: AnyActorRef = app.system.get("flow:deliveryFlow-7");
    flow.send({ type: "ADDRESS_INCORRECT" });
    flow.send({ type: "CONFIRM" });
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(flow.getSnapshot().output).toEqual({ outcome: "attempted", queued: true });
    expect(received(app.system.get(SYSTEM_IDS.offlineQueue))).toEqual([{ type: "SESSION_OPENED" }, { type: "ENQUEUE", entry: QUEUED_ENTRY }]);
    const dayNow = app.system.get(SYSTEM_IDS.courierDay)!.getSnapshot().context.day as ItineraryResponse;
    expect(dayNow.orders.find((candidate) => candidate.id === 70)!.status.name).toBe("delivery_attempted");
    // Done: the flow has left the application.
    expect(app.system.get("flow:deliveryFlow-7")).toBeUndefined();
    expect(Object.values(app.getSnapshot().children)).not.toContain(flow);
    app.stop();
  });

  it("starts a delivery again from the draft kept before a reload, where it was, with what was entered", () => {
    const order = makeOrder({ id: 71, status: "picked_up" });
    const input = { order, otherOrders: [order], supportPhone: "2155550100", today: TODAY };
    const before = createActor(deliveryFlowMachine, { input }).start();
    before.send({ type: "PRESENT_AT_ADDRESS" });
    before.send({ type: "RECIPIENT_CALLED", at: "2026-11-21T15:00:00.000Z" });
    const { context } = before.getSnapshot();
    const draft: DeliveryDraft = {
      version: DELIVERY_DRAFT_VERSION,
      orderId: 71,
      place: "recipient",
      reached: context.reached,
      record: { ...context, order: undefined } as unknown as DeliveryDraft["record"],
    };
    before.stop();

    const app = startApp({}, { deliveryFlow: deliveryFlowMachine });
    app.send({ type: "FLOW.START", flow: "deliveryFlow", id: "flow:deliveryFlow-8", input: { ...input, draft: JSON.parse(JSON.stringify(draft)) } });
    const resumed: AnyActorRef = app.system.get("flow:deliveryFlow-8");
    expect(resumed.getSnapshot().value).toEqual(before.getSnapshot().value);
    expect(resumed.getSnapshot().value).not.toEqual(createActor(deliveryFlowMachine, { input }).getSnapshot().value);
    expect(resumed.getSnapshot().context).toEqual({ ...before.getSnapshot().context, resumeAt: "recipient" });
    app.stop();
  });

  it("opening a flow whose id is running keeps the running one", () => {
    const app = startApp();
    app.send({ type: "FLOW.START", flow: "deliveryFlow", id: "flow:deliveryFlow-1", input: flowInput(1) });
    const first: AnyActorRef = app.system.get("flow:deliveryFlow-1");
    app.send({ type: "FLOW.START", flow: "deliveryFlow", id: "flow:deliveryFlow-1", input: flowInput(2) });
    expect(app.system.get("flow:deliveryFlow-1")).toBe(first);
    expect(first.getSnapshot().context).toEqual({ orderId: 1 });
    app.stop();
  });
  it("starts the day when the session is found open after a reload, and stops it when the session expires", async () => {
    const app = startApp({ session: testSession(SESSION) });
    expect(app.getSnapshot().matches({ session: "signedOut" })).toBe(true);
    expect(received(app.system.get(SYSTEM_IDS.offlineQueue))).toEqual([]);
    await tick();
    expect(app.getSnapshot().matches({ session: "signedIn" })).toBe(true);
    expect(app.system.get(SYSTEM_IDS.courierDay)).toBeDefined();
    // The session known from the device (online or not) opens the queue's storage, as a login does.
    expect(received(app.system.get(SYSTEM_IDS.offlineQueue))).toEqual([{ type: "SESSION_OPENED" }]);
    app.system.get(SYSTEM_IDS.session).send({ type: "SESSION_EXPIRED" });
    await tick();
    expect(app.getSnapshot().matches({ session: "signedOut" })).toBe(true);
    expect(app.system.get(SYSTEM_IDS.courierDay)).toBeUndefined();
    app.stop();
  });

  it("a failed login keeps the day stopped", async () => {
    const refusing = sessionMachine.provide({
      actors: {
        fetchCurrentSession: fromPromise<SessionResponse | null>(async () => null),
        logIn: fromPromise<SessionResponse, { email: string; password: string }>(async () => {
          throw new Error("Failed to fetch");
        }),
      },
    });
    const app = startApp({ session: refusing });
    await tick();
    app.system.get(SYSTEM_IDS.session).send({ type: "LOG_IN", email: "courier@example.com", password: "wrong" });
    await tick();
    expect(app.system.get(SYSTEM_IDS.session).getSnapshot().value).toBe("loggedOut");
    expect(app.getSnapshot().matches({ session: "signedOut" })).toBe(true);
    expect(app.system.get(SYSTEM_IDS.courierDay)).toBeUndefined();
    // The login screen after a failed login: the queue has not been told to read the device.
    expect(received(app.system.get(SYSTEM_IDS.offlineQueue))).toEqual([]);
    app.stop();
  });
});
