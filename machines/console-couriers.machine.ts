import { and, assign, fromCallback, fromPromise, not, setup, stateIn } from "xstate";
import { toApiFailure, type ApiFailure } from "../domain/api-failure.ts";
import type { CourierProgress } from "../domain/courier-progress.ts";
import { CourierInviteRequest, type CourierInviteResponse, type OpsCourier } from "../domain/contract/ops.ts";
import { tellSessionEnded } from "./console-session-ended.ts";
import { liveConnectionRegion } from "./live-connection.ts";

/**
 * The console's Couriers screen (issue 27, dispatchers only): every courier
 * with today's progress; invite one (POST /api/ops/v1/couriers), invite again
 * (POST couriers/{id}/invitation) and deactivate (POST couriers/{id}/deactivation),
 * the last two after a confirmation. Every refusal is said in words; the
 * console provides the calls (src/console/api/couriers.ts).
 *
 * Live, as the board: the day's event stream (GET /api/ops/v1/events) tells
 * of every pickup, delivery, failure, return and assignment, and the list
 * with today's progress is loaded again (refreshing, while it stays on
 * screen); events that come meanwhile, or a stream back after a drop (events
 * may have been missed), load it once more when that is done.
 */
export interface CouriersData {
  couriers: OpsCourier[];
  /** Today's progress by courier id (a courier with no order today is absent). */
  progress: Record<number, CourierProgress>;
}

export interface InviteDraft {
  first_name: string;
  last_name: string;
  email: string;
  phone_number: string;
}
export type InviteField = keyof InviteDraft;

export interface PendingConfirmation {
  action: "reinvite" | "deactivate";
  courierId: number;
}

export interface CouriersNotice {
  text: string;
  /** The set-password token of a new invitation: the screen shows its link to send to the courier. */
  inviteToken: string | null;
}

export interface ConsoleCouriersContext extends CouriersData {
  serviceDate: string;
  csrfToken: string | null;
  draft: InviteDraft;
  /** The invite form's mistakes by field, in words. */
  fieldErrors: Partial<Record<InviteField, string>>;
  confirming: PendingConfirmation | null;
  notice: CouriersNotice | null;
  /** The last failure in words (loading or an action). */
  error: string | null;
  /** The failure itself, so the console can tell a session that ended (401) from the rest. */
  failure: ApiFailure | null;
  /** The day changed (a live event, or the stream resumed after a drop) since the list was loaded: load it again. */
  stale: boolean;
}

export type ConsoleCouriersEvent =
  | { type: "RETRY" }
  | { type: "EDIT_INVITE"; field: InviteField; value: string }
  | { type: "INVITE" }
  | { type: "ASK_REINVITE"; courierId: number }
  | { type: "ASK_DEACTIVATE"; courierId: number }
  | { type: "CONFIRM" }
  | { type: "CANCEL" }
  /** The event stream: opened, dropped, or a change of the day announced (what it names does not matter here: progress is counted anew). */
  | { type: "STREAM_OPEN" }
  | { type: "STREAM_ERROR" }
  | { type: "STREAM_EVENT" };

const EMPTY_DRAFT: InviteDraft = { first_name: "", last_name: "", email: "", phone_number: "" };

const FIELD_NAMES: Record<InviteField, string> = { first_name: "First name", last_name: "Last name", email: "Email", phone_number: "Phone number" };

/** The draft as the API takes it: a blank phone number is none. */
export function inviteRequestOf(draft: InviteDraft) {
  return CourierInviteRequest.safeParse({
    first_name: draft.first_name,
    last_name: draft.last_name,
    email: draft.email,
    phone_number: draft.phone_number.trim() === "" ? null : draft.phone_number,
  });
}

/** The form's mistakes, one per field, in words: "Email must be an email address". */
export function inviteErrorsOf(draft: InviteDraft): Partial<Record<InviteField, string>> {
  const parsed = inviteRequestOf(draft);
  if (parsed.success) return {};
  const errors: Partial<Record<InviteField, string>> = {};
  for (const issue of parsed.error.issues) {
    const field = issue.path[0] as InviteField;
    if (field in FIELD_NAMES && !errors[field]) errors[field] = `${FIELD_NAMES[field]} ${issue.message}.`;
  }
  return errors;
}

/** A failed call on this screen, in a dispatcher's words. */
export function couriersFailureText(failure: ApiFailure, doing: string): string {
  switch (failure.kind) {
    case "network":
    case "unavailable":
      return `The server cannot be reached, so ${doing} did not happen. Check the connection and try again.`;
    case "unauthenticated":
      return "Your session has ended. Please log in again.";
    case "forbidden":
      return failure.code === "csrf"
        ? "Your session could not be confirmed. Reload the page and try again."
        : "Only a dispatcher may manage couriers.";
    case "refused":
      return failure.message || `The server refused: ${doing} did not happen.`;
    case "server":
    case "other":
      return `Something went wrong: ${doing} did not happen. Try again.`;
  }
}

const nameOf = (couriers: OpsCourier[], id: number) => {
  const courier = couriers.find((candidate) => candidate.id === id);
  return courier ? `${courier.first_name} ${courier.last_name}` : `courier ${id}`;
};

const replaceCourier = (couriers: OpsCourier[], courier: OpsCourier) =>
  couriers.some((candidate) => candidate.id === courier.id) ? couriers.map((candidate) => (candidate.id === courier.id ? courier : candidate)) : [...couriers, courier];

export const consoleCouriersMachine = setup({
  types: {
    context: {} as ConsoleCouriersContext,
    events: {} as ConsoleCouriersEvent,
    /** draft: a form already begun (tests start from one). */
    input: {} as { serviceDate: string; csrfToken: string | null; draft?: InviteDraft },
  },
  actors: {
    loadCouriers: fromPromise<CouriersData, { serviceDate: string }>(async () => {
      throw new Error("provide loadCouriers");
    }),
    inviteCourier: fromPromise<CourierInviteResponse, { request: CourierInviteRequest; csrfToken: string | null }>(async () => {
      throw new Error("provide inviteCourier");
    }),
    reinviteCourier: fromPromise<CourierInviteResponse, { courierId: number; csrfToken: string | null }>(async () => {
      throw new Error("provide reinviteCourier");
    }),
    deactivateCourier: fromPromise<OpsCourier, { courierId: number; csrfToken: string | null }>(async () => {
      throw new Error("provide deactivateCourier");
    }),
    /** Opens the event stream and sends STREAM_OPEN, STREAM_ERROR and STREAM_EVENT back; closes it when stopped. */
    eventStream: fromCallback<ConsoleCouriersEvent>(() => {
      throw new Error("provide eventStream");
    }),
  },
  guards: {
    inviteIsValid: ({ context }) => inviteRequestOf(context.draft).success,
    confirmingReinvite: ({ context }) => context.confirming?.action === "reinvite",
    /** The day changed since the list on screen was loaded (none is on screen while it loads or could not). */
    listIsOutdated: and([({ context }) => context.stale, not(stateIn({ data: "loading" })), not(stateIn({ data: "failed" }))]),
  },
  actions: {
    /** A call answered 401: the console's session hears it, by its system id, and takes the console to the login. */
    tellSessionEnded,
    storeCouriers: assign((_, data: CouriersData) => ({ couriers: data.couriers, progress: data.progress, error: null, failure: null })),
    /** The list loaded again while on screen: what the dispatcher was told stays. */
    storeRefreshed: assign((_, data: CouriersData) => ({ couriers: data.couriers, progress: data.progress })),
    markStale: assign({ stale: true }),
    clearStale: assign({ stale: false }),
    showLoadError: assign((_, failure: ApiFailure) => ({ error: couriersFailureText(failure, "loading the couriers"), failure })),
    editDraft: assign(({ context, event }) =>
      event.type === "EDIT_INVITE" ? { draft: { ...context.draft, [event.field]: event.value }, fieldErrors: { ...context.fieldErrors, [event.field]: undefined } } : {},
    ),
    showInviteErrors: assign(({ context }) => ({ fieldErrors: inviteErrorsOf(context.draft), notice: null, error: null })),
    clearMessages: assign({ fieldErrors: {}, notice: null, error: null, failure: null }),
    askConfirmation: assign(({ event }) =>
      event.type === "ASK_REINVITE"
        ? { confirming: { action: "reinvite" as const, courierId: event.courierId }, notice: null, error: null }
        : event.type === "ASK_DEACTIVATE"
          ? { confirming: { action: "deactivate" as const, courierId: event.courierId }, notice: null, error: null }
          : {},
    ),
    forgetConfirmation: assign({ confirming: null }),
    showInvited: assign(({ context }, invited: CourierInviteResponse) => ({
      couriers: replaceCourier(context.couriers, invited.courier),
      notice: {
        text: `${invited.courier.first_name} ${invited.courier.last_name} is invited. Send them this link to set their password; it works once, until ${invited.invite_expires_at.slice(0, 10)}.`,
        inviteToken: invited.invite_token,
      },
      confirming: null,
      error: null,
      failure: null,
    })),
    clearDraft: assign({ draft: EMPTY_DRAFT, fieldErrors: {} }),
    showDeactivated: assign(({ context }, courier: OpsCourier) => ({
      couriers: replaceCourier(context.couriers, courier),
      notice: { text: `${courier.first_name} ${courier.last_name} is deactivated: they can no longer log in, and their sessions have ended.`, inviteToken: null },
      confirming: null,
      error: null,
      failure: null,
    })),
    showInviteFailure: assign((_, failure: ApiFailure) => ({ error: couriersFailureText(failure, "the invitation"), failure })),
    showActionFailure: assign(({ context }, failure: ApiFailure) => {
      const pending = context.confirming;
      const doing = pending?.action === "deactivate" ? `deactivating ${nameOf(context.couriers, pending.courierId)}` : "the new invitation";
      return { error: couriersFailureText(failure, doing), failure, confirming: null };
    }),
  },
}).createMachine({
  id: "consoleCouriers",
  description: "The Couriers screen: the list with today's progress; invite, re-invite, deactivate.",
  context: ({ input }) => ({
    serviceDate: input.serviceDate,
    csrfToken: input.csrfToken,
    couriers: [],
    progress: {},
    draft: input.draft ?? EMPTY_DRAFT,
    fieldErrors: {},
    confirming: null,
    notice: null,
    error: null,
    failure: null,
    stale: false,
  }),
  type: "parallel",
  // Any change of the day is noted; the list is loaded again once it is on screen (live.current).
  on: { STREAM_EVENT: { actions: "markStale", description: "A change of the day: the progress is counted anew." } },
  states: {
    data: {
      initial: "loading",
      states: {
        loading: {
          description: "GET /api/ops/v1/couriers and the day's orders (their progress).",
          entry: "clearStale",
          invoke: {
            id: "loadCouriers",
            src: "loadCouriers",
            input: ({ context }) => ({ serviceDate: context.serviceDate }),
            onDone: { target: "ready", actions: { type: "storeCouriers", params: ({ event }) => event.output } },
            onError: { target: "failed", actions: [{ type: "showLoadError", params: ({ event }) => toApiFailure(event.error) }, { type: "tellSessionEnded", params: ({ event }) => toApiFailure(event.error) }] },
          },
        },
        failed: {
          description: "The list could not load: the failure in words and 'Try again'.",
          on: { RETRY: { target: "loading", actions: "clearMessages" } },
        },
        ready: {
          description: "The list, the invite form, each courier's 'Invite again' and 'Deactivate'.",
          on: {
            EDIT_INVITE: { actions: "editDraft" },
            INVITE: [
              { guard: "inviteIsValid", target: "inviting", actions: "clearMessages" },
              { actions: "showInviteErrors", description: "The form's mistakes by field; nothing is sent." },
            ],
            ASK_REINVITE: { target: "confirming", actions: "askConfirmation" },
            ASK_DEACTIVATE: { target: "confirming", actions: "askConfirmation" },
          },
        },
        inviting: {
          description: "POST /api/ops/v1/couriers",
          invoke: {
            id: "inviteCourier",
            src: "inviteCourier",
            input: ({ context }) => ({ request: inviteRequestOf(context.draft).data!, csrfToken: context.csrfToken }),
            onDone: { target: "ready", actions: [{ type: "showInvited", params: ({ event }) => event.output }, "clearDraft"] },
            // The draft stays, so a taken email can be corrected.
            onError: { target: "ready", actions: [{ type: "showInviteFailure", params: ({ event }) => toApiFailure(event.error) }, { type: "tellSessionEnded", params: ({ event }) => toApiFailure(event.error) }] },
          },
        },
        confirming: {
          description: "'Invite … again?' or 'Deactivate …?': confirm or cancel.",
          on: {
            CONFIRM: [{ guard: "confirmingReinvite", target: "reinviting" }, { target: "deactivating" }],
            CANCEL: { target: "ready", actions: "forgetConfirmation" },
          },
        },
        reinviting: {
          description: "POST /api/ops/v1/couriers/{id}/invitation: a new link, the earlier one stops working.",
          invoke: {
            id: "reinviteCourier",
            src: "reinviteCourier",
            input: ({ context }) => ({ courierId: context.confirming!.courierId, csrfToken: context.csrfToken }),
            onDone: { target: "ready", actions: { type: "showInvited", params: ({ event }) => event.output } },
            onError: { target: "ready", actions: [{ type: "showActionFailure", params: ({ event }) => toApiFailure(event.error) }, { type: "tellSessionEnded", params: ({ event }) => toApiFailure(event.error) }] },
          },
        },
        deactivating: {
          description: "POST /api/ops/v1/couriers/{id}/deactivation: no more logins; every session ends at once.",
          invoke: {
            id: "deactivateCourier",
            src: "deactivateCourier",
            input: ({ context }) => ({ courierId: context.confirming!.courierId, csrfToken: context.csrfToken }),
            onDone: { target: "ready", actions: { type: "showDeactivated", params: ({ event }) => event.output } },
            onError: { target: "ready", actions: [{ type: "showActionFailure", params: ({ event }) => toApiFailure(event.error) }, { type: "tellSessionEnded", params: ({ event }) => toApiFailure(event.error) }] },
          },
        },
      },
    },
    live: {
      initial: "current",
      states: {
        current: {
          description: "The list on screen is the day as the last load found it.",
          always: { guard: "listIsOutdated", target: "refreshing", description: "The day changed: load the list again." },
        },
        refreshing: {
          description: "GET couriers and the day's orders again; the list stays on screen, and so do the form and any confirmation.",
          entry: "clearStale",
          invoke: {
            id: "refreshCouriers",
            src: "loadCouriers",
            input: ({ context }) => ({ serviceDate: context.serviceDate }),
            onDone: { target: "current", actions: { type: "storeRefreshed", params: ({ event }) => event.output } },
            // The list as last loaded stays, with the failure said above it.
            onError: { target: "current", actions: [{ type: "showLoadError", params: ({ event }) => toApiFailure(event.error) }, { type: "tellSessionEnded", params: ({ event }) => toApiFailure(event.error) }] },
          },
        },
      },
    },
    connection: liveConnectionRegion("'Live': progress shows as the couriers make it.", {
      actions: "markStale",
      description: "Back after a drop: the list again, nothing missed.",
    }),
  },
});
