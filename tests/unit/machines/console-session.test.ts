import { describe, expect, it } from "vitest";
import type { ApiFailure } from "../../../domain/api-failure.ts";
import type { StaffSessionResponse } from "../../../domain/contract/staff.ts";
import { consoleSessionMachine, SESSION_ENDED_MESSAGE } from "../../../machines/console-session.machine.ts";
import { expectFullCoverage, transitionCoverPaths } from "../../support/model-coverage.ts";
import { pathName, possibleEvents, replayPath } from "../../support/replay-paths.ts";

const session: StaffSessionResponse = {
  staff: { id: 1, first_name: "Morgan", last_name: "Reyes", role: "dispatcher", pharmacy_id: null },
  csrf_token: "t",
  service_time_zone: "America/New_York",
};
const wrongPassword: ApiFailure = { kind: "refused", status: 401, message: "The email or password is incorrect.", code: "invalid_credentials" };
const tooMany: ApiFailure = { kind: "refused", status: 429, message: "Too many login attempts. Please wait 15 minutes and try again.", code: "too_many_attempts" };
const offline: ApiFailure = { kind: "network", status: null, message: "Failed to fetch", code: null };

const EVENTS = [
  { type: "LOG_IN", email: "dispatch@example.com", password: "dispatch-safely" },
  { type: "LOG_OUT" },
  { type: "SESSION_EXPIRED" },
  { type: "xstate.done.actor.fetchCurrentStaffSession", output: session },
  { type: "xstate.done.actor.fetchCurrentStaffSession", output: null },
  { type: "xstate.error.actor.fetchCurrentStaffSession", error: offline },
  { type: "xstate.done.actor.logInStaff", output: session },
  { type: "xstate.error.actor.logInStaff", error: wrongPassword },
  { type: "xstate.error.actor.logInStaff", error: tooMany },
  { type: "xstate.error.actor.logInStaff", error: offline },
  { type: "xstate.done.actor.logOutStaff" },
  { type: "xstate.error.actor.logOutStaff", error: offline },
];

const ACTORS = ["fetchCurrentStaffSession", "logInStaff", "logOutStaff"] as const;

describe("console session machine (issue 27)", () => {
  const paths = transitionCoverPaths(consoleSessionMachine, {
    events: possibleEvents(EVENTS),
    serializeState: (s) => JSON.stringify([s.value, s.context]),
  });

  it.each(paths.map((path) => [pathName(path), path] as const))("replays %s", async (_name, path) => {
    const { snapshot, calls } = await replayPath(consoleSessionMachine, ACTORS, undefined, path);
    expect(snapshot.value).toEqual(path.state.value);
    expect(snapshot.context).toEqual(path.state.context);
    for (const call of calls.filter((c) => c.actor === "logInStaff")) {
      expect(call.input).toEqual({ email: "dispatch@example.com", password: "dispatch-safely" });
    }
    for (const call of calls.filter((c) => c.actor === "logOutStaff")) expect(call.input).toEqual({ csrfToken: "t" });
  });

  it("covers every state and transition", () => expectFullCoverage(consoleSessionMachine, paths));

  it("says in words: a wrong password, too many attempts, no network; an ended session; and forgets the staff member at logout", () => {
    const errors = new Set(paths.map((p) => p.state.context.error));
    expect(errors).toContain("The email or password is incorrect.");
    expect(errors).toContain("Too many login attempts. Please wait 15 minutes and try again.");
    expect(errors).toContain("No internet connection. Please connect to the internet to log in.");
    const expired = paths.find((p) => p.steps.at(-1)!.event.type === "SESSION_EXPIRED");
    expect(expired?.state.value).toBe("signedOut");
    expect(expired?.state.context).toEqual({ staff: null, csrfToken: null, serviceTimeZone: null, error: SESSION_ENDED_MESSAGE, reportTo: null });
    const loggedOut = paths.find((p) => p.steps.some((s) => s.event.type === "xstate.done.actor.logOutStaff"));
    expect(loggedOut?.state.context.staff).toBeNull();
    const signedIn = paths.find((p) => p.state.value === "signedIn");
    expect(signedIn?.state.context).toEqual({ staff: session.staff, csrfToken: "t", serviceTimeZone: "America/New_York", error: null, reportTo: null });
  });
});
