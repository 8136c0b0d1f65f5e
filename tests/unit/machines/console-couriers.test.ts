import { describe, expect, it } from "vitest";
import type { ApiFailure } from "../../../domain/api-failure.ts";
import type { CourierInviteResponse, OpsCourier } from "../../../domain/contract/ops.ts";
import { consoleCouriersMachine, inviteErrorsOf, type CouriersData } from "../../../machines/console-couriers.machine.ts";
import { expectFullCoverage, transitionCoverPaths } from "../../support/model-coverage.ts";
import { pathName, possibleEvents, replayPath } from "../../support/replay-paths.ts";

const dana: OpsCourier = {
  id: 3,
  first_name: "Dana",
  last_name: "Whitfield",
  email: "courier@example.com",
  phone_number: null,
  active: true,
  password_set: true,
  start_location: null,
  end_location: null,
  shift_start: null,
  shift_end: null,
  capacity: null,
  created_at: "2026-11-01T12:00:00.000Z",
};
const ana: OpsCourier = { ...dana, id: 9, first_name: "Ana", last_name: "Ruiz", email: "ana@example.com", password_set: false };
const DAY: CouriersData = { couriers: [dana], progress: { 3: { delivered: 2, attempted: 1, left: 4 } } };
const invited: CourierInviteResponse = { courier: ana, invite_token: "tok-ana", invite_expires_at: "2026-12-04T12:00:00.000Z" };
const reinvited: CourierInviteResponse = { courier: dana, invite_token: "tok-dana", invite_expires_at: "2026-12-04T12:00:00.000Z" };
/** The day after Dana delivered one more. */
const LATER: CouriersData = { couriers: [dana], progress: { 3: { delivered: 3, attempted: 1, left: 3 } } };
const offline: ApiFailure = { kind: "network", status: null, message: "Failed to fetch", code: null };
const taken: ApiFailure = { kind: "refused", status: 409, message: "A courier with this email already exists.", code: "conflict" };
const ended: ApiFailure = { kind: "unauthenticated", status: 401, message: "Log in to continue.", code: "unauthenticated" };

const EVENTS = [
  { type: "RETRY" },
  // One event fills the form (the model's shape is "complete or not"); the first name alone is left out on purpose.
  { type: "EDIT_INVITE", field: "email", value: "ana@example.com" },
  { type: "INVITE" },
  { type: "ASK_REINVITE", courierId: 3 },
  { type: "ASK_DEACTIVATE", courierId: 3 },
  { type: "CONFIRM" },
  { type: "CANCEL" },
  { type: "xstate.done.actor.loadCouriers", output: DAY },
  { type: "xstate.error.actor.loadCouriers", error: offline },
  { type: "xstate.error.actor.loadCouriers", error: ended },
  { type: "xstate.done.actor.inviteCourier", output: invited },
  { type: "xstate.error.actor.inviteCourier", error: taken },
  { type: "xstate.done.actor.reinviteCourier", output: reinvited },
  { type: "xstate.error.actor.reinviteCourier", error: offline },
  { type: "xstate.done.actor.deactivateCourier", output: { ...dana, active: false } },
  { type: "xstate.error.actor.deactivateCourier", error: taken },
];

/**
 * Live, walked apart from the form (together the model would be their
 * product): the load, the stream opening, dropping and announcing changes,
 * the list loaded again (refreshCouriers), and a confirmation open meanwhile.
 */
const LIVE_EVENTS = [
  { type: "xstate.done.actor.loadCouriers", output: DAY },
  { type: "xstate.error.actor.loadCouriers", error: offline },
  { type: "RETRY" },
  { type: "ASK_DEACTIVATE", courierId: 3 },
  { type: "CANCEL" },
  { type: "STREAM_OPEN" },
  { type: "STREAM_ERROR" },
  { type: "STREAM_EVENT" },
  { type: "xstate.done.actor.refreshCouriers", output: LATER },
  { type: "xstate.error.actor.refreshCouriers", error: offline },
  { type: "xstate.error.actor.refreshCouriers", error: ended },
];

const ACTORS = ["loadCouriers", "inviteCourier", "reinviteCourier", "deactivateCourier", "eventStream"] as const;
const INPUT = { serviceDate: "2026-11-27", csrfToken: "t", draft: { first_name: "Ana", last_name: "Ruiz", email: "", phone_number: "" } };

describe("console couriers machine (issue 27)", () => {
  const paths = transitionCoverPaths(consoleCouriersMachine, {
    input: INPUT,
    events: possibleEvents(EVENTS),
    // The screen's shape: the state, who is listed and active, the form's filled fields, what is pending or said.
    serializeState: (s) =>
      JSON.stringify([
        s.value,
        s.context.couriers.map((c: OpsCourier) => [c.id, c.active]),
        Object.values(s.context.draft).filter((v) => v !== "").length === 3,
        Object.keys(s.context.fieldErrors).length > 0,
        s.context.confirming?.action ?? null,
        s.context.notice !== null,
        s.context.failure?.kind ?? null,
      ]),
  });
  const livePaths = transitionCoverPaths(consoleCouriersMachine, {
    input: INPUT,
    events: possibleEvents(LIVE_EVENTS),
    serializeState: (s) => JSON.stringify([s.value, s.context.stale, s.context.failure?.kind ?? null, s.context.progress[3]?.delivered ?? 0, s.context.confirming !== null]),
  });

  it.each([...paths, ...livePaths].map((path) => [pathName(path), path] as const))("replays %s", async (_name, path) => {
    const { snapshot, calls } = await replayPath(consoleCouriersMachine, ACTORS, INPUT, path);
    expect(snapshot.value).toEqual(path.state.value);
    expect(snapshot.context).toEqual(path.state.context);
    for (const call of calls.filter((c) => c.actor === "inviteCourier")) {
      expect(call.input).toEqual({ request: { first_name: "Ana", last_name: "Ruiz", email: "ana@example.com", phone_number: null }, csrfToken: "t" });
    }
    for (const call of calls.filter((c) => c.actor === "reinviteCourier" || c.actor === "deactivateCourier")) expect(call.input).toEqual({ courierId: 3, csrfToken: "t" });
  });

  it("covers every state and transition, the form's paths and the live ones together", () => expectFullCoverage(consoleCouriersMachine, [...paths, ...livePaths], { input: INPUT }));

  it("invites only a complete form, says each mistake by field, and shows the new courier's link", () => {
    expect(inviteErrorsOf({ first_name: "", last_name: "Ruiz", email: "not an email", phone_number: "" })).toEqual({
      first_name: expect.stringMatching(/^First name /),
      email: "Email must be an email address.",
    });
    const invitedPath = paths.find((p) => p.steps.at(-1)!.event.type === "xstate.done.actor.inviteCourier");
    expect(invitedPath?.state.context.notice?.inviteToken).toBe("tok-ana");
    expect(invitedPath?.state.context.couriers.map((c: OpsCourier) => c.id)).toEqual([3, 9]);
    expect(invitedPath?.state.context.draft).toEqual({ first_name: "", last_name: "", email: "", phone_number: "" });
    const refused = paths.find((p) => p.steps.at(-1)!.event.type === "xstate.error.actor.inviteCourier");
    expect(refused?.state.context.error).toBe("A courier with this email already exists.");
    expect(refused?.state.context.draft.email).toBe("ana@example.com");
  });

  it("deactivates and invites again only after a confirmation, and says a failure in words", () => {
    const deactivated = paths.find((p) => p.steps.at(-1)!.event.type === "xstate.done.actor.deactivateCourier");
    expect(deactivated?.steps.map((s) => s.event.type)).toContain("CONFIRM");
    expect(deactivated?.state.context.couriers[0]?.active).toBe(false);
    expect(deactivated?.state.context.notice?.text).toBe("Dana Whitfield is deactivated: they can no longer log in, and their sessions have ended.");
    const offlineAgain = paths.find((p) => p.steps.at(-1)!.event.type === "xstate.error.actor.reinviteCourier");
    expect(offlineAgain?.state.context.error).toBe("The server cannot be reached, so the new invitation did not happen. Check the connection and try again.");
    const cancelled = paths.find((p) => p.steps.at(-1)!.event.type === "CANCEL");
    expect(cancelled?.state.value).toMatchObject({ data: "ready" });
    expect(cancelled?.state.context.confirming).toBeNull();
  });

  it("is live: a change of the day loads the list again while it stays on screen, once more for what came meanwhile, and after a drop", () => {
    const refreshed = livePaths.find((p) => p.steps.at(-1)!.event.type === "xstate.done.actor.refreshCouriers");
    expect(refreshed?.steps.map((s) => s.event.type)).toContain("STREAM_EVENT");
    expect(refreshed?.state.context.progress[3]).toEqual({ delivered: 3, attempted: 1, left: 3 });
    // An event during a refresh: another refresh once this one is done.
    const again = livePaths.find((p) => p.steps.some((s) => s.state.matches({ live: "refreshing" }) && s.state.context.stale));
    expect(again).toBeDefined();
    // Back after a drop: the list again, since events may have been missed.
    const afterDrop = livePaths.find((p) => p.steps.some((s) => s.state.matches({ connection: "reconnecting", data: "ready" })) && p.state.matches({ connection: "live", live: "refreshing" }));
    expect(afterDrop).toBeDefined();
    // A failed refresh keeps the list and says why; nothing refreshes while the list is loading or could not load.
    const failedRefresh = livePaths.find((p) => p.steps.at(-1)!.event.type === "xstate.error.actor.refreshCouriers");
    expect(failedRefresh?.state.context.couriers).toEqual([dana]);
    for (const p of livePaths) for (const step of p.steps) if (step.state.matches({ live: "refreshing" })) expect(step.state.matches({ data: "loading" }) || step.state.matches({ data: "failed" })).toBe(false);
  });
});
