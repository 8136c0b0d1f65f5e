import { describe, expect, it } from "vitest";
import { createActor, createMachine, fromPromise, type AnyActorRef, type EventObject } from "xstate";
import type { ApiFailure } from "../../../domain/api-failure.ts";
import type { SessionResponse } from "../../../domain/contract/index.ts";
import { sessionMachine } from "../../../machines/session.machine.ts";
import { expectFullCoverage, transitionCoverPaths } from "../../support/model-coverage.ts";
import { pathName, possibleEvents, replayPath } from "../../support/replay-paths.ts";

const session: SessionResponse = { courier: { id: 1, first_name: "Dana", last_name: "Whitfield" }, csrf_token: "t" };
const wrongPassword: ApiFailure = { kind: "refused", status: 401, message: "The email or password is incorrect.", code: "invalid_credentials" };
const offline: ApiFailure = { kind: "network", status: null, message: "Failed to fetch", code: null };

const EVENTS = [
  { type: "LOG_IN", email: "courier@example.com", password: "deliver-safely" },
  { type: "LOG_OUT" },
  { type: "SESSION_EXPIRED" },
  { type: "xstate.done.actor.fetchCurrentSession", output: session },
  { type: "xstate.done.actor.fetchCurrentSession", output: null },
  { type: "xstate.error.actor.fetchCurrentSession", error: offline },
  { type: "xstate.done.actor.logIn", output: session },
  { type: "xstate.error.actor.logIn", error: wrongPassword },
  { type: "xstate.error.actor.logIn", error: offline },
  { type: "xstate.done.actor.logOut" },
  { type: "xstate.error.actor.logOut", error: offline },
];

const ACTORS = ["fetchCurrentSession", "logIn", "logOut"] as const;

describe("session machine", () => {
  const paths = transitionCoverPaths(sessionMachine, {
    events: possibleEvents(EVENTS),
    serializeState: (s) => JSON.stringify([s.value, s.context]),
  });

  it.each(paths.map((path) => [pathName(path), path] as const))("replays %s", async (_name, path) => {
    const { snapshot, calls } = await replayPath(sessionMachine, ACTORS, undefined, path);
    expect(snapshot.value).toEqual(path.state.value);
    expect(snapshot.context).toEqual(path.state.context);
    for (const call of calls.filter((c) => c.actor === "logIn")) {
      expect(call.input).toEqual({ email: "courier@example.com", password: "deliver-safely" });
    }
  });

  it("covers every state and transition", () => expectFullCoverage(sessionMachine, paths));

  it("shows the server's words for a wrong password, a plain sentence offline, and forgets the courier at logout", () => {
    const refused = paths.find((p) => p.steps.at(-1)!.event.type === "xstate.error.actor.logIn" && p.state.context.error?.startsWith("The email"));
    expect(refused?.state.context.error).toBe("The email or password is incorrect.");
    const noNetwork = paths.find((p) => p.state.context.error?.startsWith("No internet"));
    expect(noNetwork?.state.context.error).toBe("No internet connection. Please connect to the internet to log in.");
    const loggedOut = paths.find((p) => p.steps.some((s) => s.event.type === "xstate.done.actor.logOut"));
    expect(loggedOut?.state.context.courier).toBeNull();
  });
  it("tells the application that runs it when a session opens and closes; alone, it tells nobody and does not fail", async () => {
    const told: string[] = [];
    const app = createActor(createMachine({ on: { "*": { actions: ({ event }: { event: EventObject }) => told.push(event.type) } } })).start();
    const calls = sessionMachine.provide({
      actors: {
        fetchCurrentSession: fromPromise<SessionResponse | null>(async () => session),
        logIn: fromPromise<SessionResponse, { email: string; password: string }>(async () => session),
        logOut: fromPromise<void, { csrfToken: string | null }>(async () => undefined),
      },
    });
    const tick = () => new Promise((resolve) => setTimeout(resolve, 0));
    const drive = async (actor: AnyActorRef) => {
      await tick(); // found logged in (a reload)
      actor.send({ type: "LOG_OUT" });
      expect(actor.getSnapshot().value).toBe("loggingOut");
      await tick();
      actor.send({ type: "LOG_IN", email: "courier@example.com", password: "deliver-safely" });
      await tick();
      actor.send({ type: "SESSION_EXPIRED" });
      return actor.getSnapshot();
    };
    const reported = createActor(calls, { input: { reportTo: app } }).start();
    expect((await drive(reported)).value).toBe("loggedOut");
    expect(told).toEqual(["SESSION_OPENED", "SESSION_CLOSED", "SESSION_OPENED", "SESSION_CLOSED"]);

    const errors: unknown[] = [];
    const alone = createActor(calls, { input: {} }).start();
    alone.subscribe({ error: (error) => errors.push(error) });
    expect((await drive(alone)).value).toBe("loggedOut");
    expect(errors).toEqual([]);
    expect(told).toHaveLength(4);
  });
});
