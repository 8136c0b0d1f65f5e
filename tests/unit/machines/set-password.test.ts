import { describe, expect, it } from "vitest";
import type { ApiFailure } from "../../../domain/api-failure.ts";
import { SET_PASSWORD_TEXT } from "../../../domain/set-password-texts.ts";
import { SetPasswordRequest } from "../../../domain/contract/onboarding.ts";
import { INVITE_TOKEN_FORM } from "../../../domain/invite-token.ts";
import { setPasswordMachine, type SetPasswordInput } from "../../../machines/set-password.machine.ts";
import { transitionCoverPaths } from "../../support/model-coverage.ts";
import { expectFullCoverageAcross, pathName, possibleEvents, pathOfEvents, replayPath } from "../../support/replay-paths.ts";

const GOOD = "plum orchard at noon";
const failure = (kind: ApiFailure["kind"], status: number | null, message: string, code: string | null = null): ApiFailure => ({ kind, status, message, code });
const TOKEN_REFUSED = failure("refused", 400, "This invitation has expired or was already used. Ask dispatch for a new one.", "invalid_token");
const PASSWORD_REFUSED = failure("refused", 400, "This password is too common. Choose one that is harder to guess.", "invalid_password");
const OFFLINE = failure("network", null, "Failed to fetch");
const RATE_LIMITED = failure("refused", 429, "Too many attempts. Please wait a minute and try again.", "rate_limited");

const EVENTS = [
  { type: "SUBMIT", password: GOOD, confirmation: GOOD },
  { type: "SUBMIT", password: GOOD, confirmation: "plum orchard at nine" },
  { type: "SUBMIT", password: "short", confirmation: "short" },
  { type: "xstate.done.actor.setPassword" },
  { type: "xstate.error.actor.setPassword", error: TOKEN_REFUSED },
  { type: "xstate.error.actor.setPassword", error: PASSWORD_REFUSED },
  { type: "xstate.error.actor.setPassword", error: OFFLINE },
  { type: "xstate.error.actor.setPassword", error: RATE_LIMITED },
];

const SCENARIOS: { name: string; input: SetPasswordInput; starts: string }[] = [
  { name: "a link with a token", input: { token: "tok_abc-123" }, starts: "editing" },
  { name: "no invite (the login screen's 'Forgot password?')", input: { token: null }, starts: "noInvite" },
  { name: "a link cut short or mangled", input: { token: "tok abc<" }, starts: "inviteUnusable" },
];

const scenarioPaths = SCENARIOS.map(({ name, input, starts }) => ({
  name,
  input,
  starts,
  paths: transitionCoverPaths(setPasswordMachine, {
    input,
    events: possibleEvents(EVENTS),
    serializeState: (s) => JSON.stringify([s.value, s.context]),
  }),
}));

describe("set-password machine", () => {
  for (const { name, input, starts, paths } of scenarioPaths) {
    describe(name, () => {
      it("starts where the link leads", async () => {
        const { snapshot } = await replayPath(setPasswordMachine, ["setPassword"], input, pathOfEvents([]));
        expect(snapshot.value).toBe(starts);
      });
      it.each(paths.map((path) => [pathName(path), path] as const))("replays %s", async (_name, path) => {
        const { snapshot, calls } = await replayPath(setPasswordMachine, ["setPassword"], input, path);
        expect(snapshot.value).toEqual(path.state.value);
        expect(snapshot.context).toEqual(path.state.context);
        // Only a password that passed both checks is ever sent, with the link's token.
        for (const call of calls) expect(call.input).toEqual({ token: "tok_abc-123", password: GOOD });
      });
    });
  }

  it("covers every state and transition", () => expectFullCoverageAcross(setPasswordMachine, scenarioPaths));

  const all = scenarioPaths.flatMap((scenario) => scenario.paths);
  const after = (type: string, error?: ApiFailure) =>
    all.find((p) => {
      const last = p.steps.at(-1)!.event as { type: string; error?: ApiFailure };
      return last.type === type && (error === undefined || last.error === error);
    })!;

  it("says why before sending anything: different passwords, or the rule in words", () => {
    const mismatch = all.find((p) => p.steps.at(-1)!.event.type === "SUBMIT" && p.state.context.error === SET_PASSWORD_TEXT.mismatch);
    expect(mismatch?.state.value).toBe("editing");
    const short = all.find((p) => (p.steps.at(-1)!.event as { password?: string }).password === "short");
    expect(short?.state.context.error).toBe("The password must be at least 12 characters long.");
  });

  it("a link without a token, or a token the server refuses, asks dispatch for a new invite", () => {
    expect(after("xstate.error.actor.setPassword", TOKEN_REFUSED).state.value).toBe("inviteUnusable");
  });

  it("a refused password shows the server's reason; offline a plain sentence; success is final", () => {
    expect(after("xstate.error.actor.setPassword", PASSWORD_REFUSED).state.context.error).toBe(PASSWORD_REFUSED.message);
    expect(after("xstate.error.actor.setPassword", OFFLINE).state.context.error).toBe(SET_PASSWORD_TEXT.noInternet);
    expect(after("xstate.error.actor.setPassword", RATE_LIMITED).state.context.error).toBe(RATE_LIMITED.message);
    expect(after("xstate.done.actor.setPassword").state.value).toBe("done");
  });

  it("reads a token as the contract does (SetPasswordRequest.token)", () => {
    const samples = ["tok_abc-123", "A".repeat(200), "A".repeat(201), "", "tok abc", "tok<", "töken", "abc.def", "_-_"];
    for (const token of samples) expect(INVITE_TOKEN_FORM.test(token), token).toBe(SetPasswordRequest.shape.token.safeParse(token).success);
  });
});
