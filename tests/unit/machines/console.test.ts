import { describe, expect, it } from "vitest";
import { createActor, fromCallback, fromPromise, type AnyActorRef } from "xstate";
import type { ApiFailure } from "../../../domain/api-failure.ts";
import type { StaffSessionResponse } from "../../../domain/contract/staff.ts";
import { CONSOLE_SYSTEM_IDS, consoleMachine, type ConsoleEvent, type ScreenOpen } from "../../../machines/console.machine.ts";
import { consoleCouriersMachine, type CouriersData } from "../../../machines/console-couriers.machine.ts";
import { consoleSessionMachine, SESSION_ENDED_MESSAGE } from "../../../machines/console-session.machine.ts";
import { withScreens } from "../../../src/console/screens.ts";
import { expectFullCoverage, transitionCoverPaths } from "../../support/model-coverage.ts";
import { pathName, possibleEvents, type ModelPath } from "../../support/replay-paths.ts";

const SESSION: StaffSessionResponse = {
  staff: { id: 3, first_name: "Morgan", last_name: "Reyes", role: "dispatcher", pharmacy_id: null },
  csrf_token: "csrf-1",
  service_time_zone: "America/New_York",
};
const SCREEN_ID = "screen:couriers-1";
const OPEN: ScreenOpen = { screen: "couriers", id: SCREEN_ID, input: { serviceDate: "2026-11-27", csrfToken: "csrf-1" } };

const EVENTS = [
  { type: "SESSION_OPENED" },
  { type: "SESSION_CLOSED" },
  { type: "SCREEN.OPEN", ...OPEN },
  { type: "SCREEN.CLOSE", id: SCREEN_ID },
];

/** The couriers' machine, its calls never answering: it only runs (the console starts and stops it; what it does is its own test's). */
const standInScreen = consoleCouriersMachine.provide({
  actors: {
    loadCouriers: fromPromise<CouriersData, { serviceDate: string }>(() => new Promise(() => undefined)),
    eventStream: fromCallback(() => undefined),
  },
});

/** The real session machine, its calls answered by the test: no session at start, a login that succeeds, a logout the server answers. */
const testSession = consoleSessionMachine.provide({
  actors: {
    fetchCurrentStaffSession: fromPromise<StaffSessionResponse | null>(async () => null),
    logInStaff: fromPromise<StaffSessionResponse, { email: string; password: string }>(async () => SESSION),
    logOutStaff: fromPromise<void, { csrfToken: string | null }>(async () => undefined),
  },
});

/** The console as the app makes it (src/console/screens.ts's startScreen), the couriers' screen's machine the test's. */
function startConsole(couriers: typeof consoleCouriersMachine = standInScreen) {
  return createActor(withScreens(consoleMachine.provide({ actors: { session: testSession } }), { couriers })).start();
}

/** The screen's machine, if the console runs it: registered in its system under the opening's id. */
const screenOf = (app: AnyActorRef): AnyActorRef | undefined => app.system.get(SCREEN_ID);

const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

async function replay(path: ModelPath) {
  const app = startConsole();
  await tick(); // No session in this browser: the login screen.
  for (const { event } of path.steps.slice(1)) {
    const session: AnyActorRef = app.system.get(CONSOLE_SYSTEM_IDS.session);
    if (event.type === "SESSION_OPENED") {
      // The dispatcher logs in: the session tells the console.
      session.send({ type: "LOG_IN", email: "dispatch@example.com", password: "dispatch-safely" });
    } else if (event.type === "SESSION_CLOSED") {
      // The dispatcher logs out: the screen stays while the server answers, then the session tells the console.
      const screen = screenOf(app);
      session.send({ type: "LOG_OUT" });
      expect(session.getSnapshot().value).toBe("loggingOut");
      expect(screenOf(app)).toBe(screen);
    } else {
      app.send(event as ConsoleEvent);
    }
    await tick();
  }
  return app;
}

describe("console machine (issue 27)", () => {
  const paths = transitionCoverPaths(consoleMachine, { events: possibleEvents(EVENTS), serializeState: (s) => JSON.stringify([s.value, s.context]) });

  it.each(paths.map((path) => [pathName(path), path] as const))("replays %s", async (_name, path) => {
    const app = await replay(path);
    expect(app.getSnapshot().value).toEqual(path.state.value);
    expect(app.getSnapshot().context).toEqual(path.state.context);
    // The session is there from the start, under its system id; a screen's machine only while its screen is open and the session too.
    expect(app.system.get(CONSOLE_SYSTEM_IDS.session)).toBe(app.getSnapshot().children.session);
    const running = path.state.context.screens.includes(SCREEN_ID);
    expect(screenOf(app) !== undefined).toBe(running);
    if (running) expect(path.state.matches("signedIn")).toBe(true);
    app.stop();
  });

  it("covers every state and transition", () => expectFullCoverage(consoleMachine, paths));

  it("starts a screen's machine once per opening (strict mode opens twice) and none without a session", async () => {
    const app = startConsole();
    await tick();
    app.send({ type: "SCREEN.OPEN", ...OPEN });
    expect(screenOf(app)).toBeUndefined();
    app.system.get(CONSOLE_SYSTEM_IDS.session).send({ type: "LOG_IN", email: "dispatch@example.com", password: "dispatch-safely" });
    await tick();
    app.send({ type: "SCREEN.OPEN", ...OPEN });
    const screen = screenOf(app);
    app.send({ type: "SCREEN.OPEN", ...OPEN });
    expect(screenOf(app)).toBe(screen);
    expect(app.getSnapshot().context.screens).toEqual([SCREEN_ID]);
    app.stop();
  });

  it("stops a closed screen's machine, and a reopening under the same id (strict mode) starts a fresh one", async () => {
    const app = startConsole();
    await tick();
    app.system.get(CONSOLE_SYSTEM_IDS.session).send({ type: "LOG_IN", email: "dispatch@example.com", password: "dispatch-safely" });
    await tick();
    app.send({ type: "SCREEN.OPEN", ...OPEN });
    const first = screenOf(app)!;
    expect(Object.values(app.getSnapshot().children)).toContain(first);
    app.send({ type: "SCREEN.CLOSE", id: SCREEN_ID });
    await tick();
    expect(first.getSnapshot().status).toBe("stopped");
    expect(Object.values(app.getSnapshot().children)).not.toContain(first);
    app.send({ type: "SCREEN.OPEN", ...OPEN });
    const second = screenOf(app)!;
    expect(second).not.toBe(first);
    expect(second.getSnapshot().status).toBe("active");
    expect(Object.keys(app.getSnapshot().children)).toHaveLength(2); // The session and this screen's machine.
    app.system.get(CONSOLE_SYSTEM_IDS.session).send({ type: "LOG_OUT" });
    await tick();
    expect(second.getSnapshot().status).toBe("stopped");
    expect(Object.keys(app.getSnapshot().children)).toEqual(["session"]);
    app.stop();
  });

  it("a screen whose call answers 401 tells the session by its system id: the session ends, the login says so, and the screen stops", async () => {
    const ended: ApiFailure = { kind: "unauthenticated", status: 401, message: "Log in to continue.", code: "unauthenticated" };
    let loads = 0;
    const couriers = consoleCouriersMachine.provide({
      actors: {
        loadCouriers: fromPromise<CouriersData, { serviceDate: string }>(async () => {
          loads += 1;
          throw ended;
        }),
        eventStream: fromCallback(() => undefined),
      },
    });
    const app = startConsole(couriers);
    await tick();
    const session: AnyActorRef = app.system.get(CONSOLE_SYSTEM_IDS.session);
    session.send({ type: "LOG_IN", email: "dispatch@example.com", password: "dispatch-safely" });
    await tick();
    app.send({ type: "SCREEN.OPEN", ...OPEN });
    await tick();
    expect(loads).toBe(1);
    expect(session.getSnapshot().value).toBe("signedOut");
    expect(session.getSnapshot().context.error).toBe(SESSION_ENDED_MESSAGE);
    expect(app.getSnapshot().value).toBe("signedOut");
    expect(screenOf(app)).toBeUndefined();
    expect(app.getSnapshot().context.screens).toEqual([]);
    app.stop();
  });

  it("a screen's other failures are its own: the session stays open", async () => {
    const offline: ApiFailure = { kind: "network", status: null, message: "Failed to fetch", code: null };
    const couriers = consoleCouriersMachine.provide({
      actors: {
        loadCouriers: fromPromise<CouriersData, { serviceDate: string }>(async () => Promise.reject(offline)),
        eventStream: fromCallback(() => undefined),
      },
    });
    const app = startConsole(couriers);
    await tick();
    app.system.get(CONSOLE_SYSTEM_IDS.session).send({ type: "LOG_IN", email: "dispatch@example.com", password: "dispatch-safely" });
    await tick();
    app.send({ type: "SCREEN.OPEN", ...OPEN });
    await tick();
    expect(app.getSnapshot().value).toBe("signedIn");
    expect(screenOf(app)?.getSnapshot().value).toMatchObject({ data: "failed" });
    app.stop();
  });
});
