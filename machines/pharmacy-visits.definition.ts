import { assign, fromPromise, setup } from "xstate";
import type { PharmacyVisit } from "../domain/contract/entities.ts";
import { pendingVisits } from "../domain/pharmacy-list.ts";
import { fill, PROVIDER_NAME, TEXT } from "../domain/texts.ts";

/**
 * /confirm_pharmacy_visits (spec §2, §7, §8): the courier confirms
 * availability for each pending pharmacy visit (confirmed neither true nor
 * false). While any is pending, every other screen redirects here.
 */

export interface PharmacyVisitsInput {
  courierId: number;
  /** Today's visits; only the pending ones are asked about. */
  visits: PharmacyVisit[];
}

export interface VisitAnswer {
  id: number;
  confirmed: boolean;
}

export interface PharmacyVisitsContext {
  courierId: number;
  pending: PharmacyVisit[];
  answers: VisitAnswer[];
  /** The pending visits with their answers, once the server took them. */
  confirmed: PharmacyVisit[];
  error: string | null;
}

export type PharmacyVisitsEvent = { type: "ANSWER"; visitId: number; confirmed: boolean } | { type: "SUBMIT" };

export interface PharmacyVisitsOutput {
  visits: PharmacyVisit[];
}

/** What the app (or a test) provides, as stand-ins that fail until it does. */
const pharmacyVisitsCalls = {
  /** POST couriers/{id}/pharmacy_visits/confirm {pharmacy_visits:[{id, confirmed}]} */
  confirmVisits: fromPromise<unknown, { courierId: number; pharmacy_visits: VisitAnswer[] }>(async () => {
    throw new Error("provide confirmVisits");
  }),
};
export type PharmacyVisitsCalls = typeof pharmacyVisitsCalls;

/** The machine with these calls, built once by whoever runs it (the app with its own; see session.definition.ts). */
export const createPharmacyVisitsMachine = (calls: Partial<PharmacyVisitsCalls> = {}) =>
  setup({
    types: {
      context: {} as PharmacyVisitsContext,
      events: {} as PharmacyVisitsEvent,
      input: {} as PharmacyVisitsInput,
      output: {} as PharmacyVisitsOutput,
    },
    actors: {
      ...pharmacyVisitsCalls,
      ...calls,
    },
    guards: {
      noPendingVisits: ({ context }) => context.pending.length === 0,
      isPendingVisit: ({ context, event }) => event.type === "ANSWER" && context.pending.some((visit) => visit.id === event.visitId),
      /** Submit asks for an answer to every pending visit. */
      allAnswered: ({ context }) => context.pending.every((visit) => context.answers.some((answer) => answer.id === visit.id)),
    },
    actions: {
      setAnswer: assign(({ context, event }) => {
        if (event.type !== "ANSWER") return {};
        const others = context.answers.filter((answer) => answer.id !== event.visitId);
        const answers = [...others, { id: event.visitId, confirmed: event.confirmed }];
        // In the order the visits are listed, so the request reads like the screen.
        return { answers: context.pending.flatMap((visit) => answers.filter((answer) => answer.id === visit.id)) };
      }),
      markConfirmed: assign(({ context }) => ({
        confirmed: context.pending.map((visit) => ({
          ...visit,
          confirmed: context.answers.find((answer) => answer.id === visit.id)!.confirmed,
        })),
        error: null,
      })),
      /** Spec §8: the exact text, {provider} filled in; the submit stays disabled. */
      showSubmitError: assign({ error: fill(TEXT.visitConfirmError, { provider: PROVIDER_NAME }) }),
    },
  }).createMachine({
    id: "pharmacyVisits",
    description: "Confirm availability for each pending pharmacy visit.",
    context: ({ input }) => ({
      courierId: input.courierId,
      pending: pendingVisits(input.visits),
      answers: [],
      confirmed: [],
      error: null,
    }),
    initial: "opening",
    states: {
      opening: {
        always: [
          { guard: "noPendingVisits", target: "confirmed", description: "Nothing pending: nothing to confirm." },
          { target: "answering" },
        ],
      },
      answering: {
        description: "Each pending visit: will the courier be there?",
        on: {
          ANSWER: { guard: "isPendingVisit", actions: "setAnswer", description: "Yes or no for one pharmacy visit." },
          SUBMIT: { guard: "allAnswered", target: "submitting", description: "Submit, once every visit has an answer." },
        },
      },
      submitting: {
        description: "POST couriers/{id}/pharmacy_visits/confirm.",
        invoke: {
          id: "confirmVisits",
          src: "confirmVisits",
          input: ({ context }) => ({ courierId: context.courierId, pharmacy_visits: context.answers }),
          onDone: { target: "confirmed", actions: "markConfirmed" },
          onError: { target: "failed", actions: "showSubmitError" },
        },
      },
      failed: {
        description:
          "There was a technical error upon submit, please contact {provider} by pressing the HELP button to confirm your availability; submit disabled.",
      },
      confirmed: { type: "final", description: "No visit is pending: on to the rest of the day." },
    },
    output: ({ context }) => ({ visits: context.confirmed }),
  });
