import { assign, fromPromise, setup } from "xstate";
import { toApiFailure, type ApiFailure } from "../domain/api-failure.ts";
import { inviteUnusable, refusalMessage, wellFormedToken } from "../domain/invite-token.ts";
import { passwordProblem } from "../domain/password-rules.ts";
import { SET_PASSWORD_TEXT } from "../domain/set-password-texts.ts";

/** An invited courier sets their password from the link dispatch sent (`/set-password?token=…`). */
export interface SetPasswordContext {
  /** The invite token from the link; empty when the link carries none. */
  token: string;
  /** Why the last try was refused, in words; null when there is nothing to say. */
  error: string | null;
}

export interface SetPasswordInput {
  token: string | null;
}

export type SetPasswordEvent = { type: "SUBMIT"; password: string; confirmation: string };

export const setPasswordMachine = setup({
  types: { context: {} as SetPasswordContext, events: {} as SetPasswordEvent, input: {} as SetPasswordInput },
  actors: {
    setPassword: fromPromise<void, { token: string; password: string }>(async () => {
      throw new Error("provide setPassword");
    }),
  },
  guards: {
    linkHasNoToken: ({ context }) => context.token === "",
    linkHasToken: ({ context }) => wellFormedToken(context.token),
    passwordsDiffer: ({ event }) => event.type === "SUBMIT" && event.password !== event.confirmation,
    passwordBreaksRule: ({ event }) => event.type === "SUBMIT" && passwordProblem(event.password) !== null,
    inviteUnusable: (_, failure: ApiFailure) => inviteUnusable(failure),
  },
  actions: {
    showMismatch: assign({ error: SET_PASSWORD_TEXT.mismatch }),
    showRuleBroken: assign((_, password: string) => ({ error: passwordProblem(password) })),
    showRefusal: assign((_, failure: ApiFailure) => ({ error: refusalMessage(failure) })),
    clearError: assign({ error: null }),
  },
}).createMachine({
  id: "setPassword",
  description: "An invited courier opens dispatch's link and chooses a password, then logs in as usual.",
  context: ({ input }) => ({ token: input.token?.trim() ?? "", error: null }),
  initial: "opening",
  states: {
    opening: {
      description: "Reading the invite token from the link.",
      always: [{ guard: "linkHasNoToken", target: "noInvite" }, { guard: "linkHasToken", target: "editing" }, { target: "inviteUnusable" }],
    },
    editing: {
      description: "The form: a new password, typed twice, with the rule shown in words.",
      on: {
        SUBMIT: [
          { guard: "passwordsDiffer", actions: "showMismatch", description: "The two passwords differ: say so, send nothing." },
          {
            guard: "passwordBreaksRule",
            actions: { type: "showRuleBroken", params: ({ event }) => event.password },
            description: "The password breaks the rule: say which part, send nothing.",
          },
          { target: "submitting", actions: "clearError", description: "Send the token and the password." },
        ],
      },
    },
    submitting: {
      description: "POST /api/courier/password {token, password}.",
      invoke: {
        id: "setPassword",
        src: "setPassword",
        input: ({ context, event }) => {
          if (event.type !== "SUBMIT") throw new Error("setPassword needs SUBMIT");
          return { token: context.token, password: event.password };
        },
        onDone: { target: "done" },
        onError: [
          { guard: { type: "inviteUnusable", params: ({ event }) => toApiFailure(event.error) }, target: "inviteUnusable" },
          { target: "editing", actions: { type: "showRefusal", params: ({ event }) => toApiFailure(event.error) } },
        ],
      },
    },
    done: {
      description: "The password is set: the courier goes to the login screen and logs in as usual.",
      type: "final",
    },
    noInvite: {
      description: "Opened without an invite (the login screen's 'Forgot password?'): ask dispatch for a new invite.",
      type: "final",
    },
    inviteUnusable: {
      description: "The link is cut short, or the invite was used or has expired: ask dispatch for a new invite.",
      type: "final",
    },
  },
});
