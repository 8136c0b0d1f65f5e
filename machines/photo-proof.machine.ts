import { assign, enqueueActions, not, or, setup, type AnyActorRef } from "xstate";
import type { DeliveryPhoto } from "../domain/delivery-photo.ts";

/**
 * The photo of the drop-off where nobody signs (after No Recipient or a
 * contactless delivery at the recipient step, or a reason for not signing at
 * the signature step): the courier takes a photo of where the medication was
 * left, sees it back, retakes or removes it, then continues — with or without
 * one, unless the pharmacy requires it (pod_photo_required). The delivery flow
 * runs it as a child and keeps the photo in its record: every change is told
 * to the flow (PHOTO_CHANGED, to `reportTo`), so a reload finds it in the courier's draft.
 */

export interface PhotoProofInput {
  /** The photo already taken (a draft after a reload, or a photo taken before Back). */
  photo: DeliveryPhoto | null;
  /** The pharmacy requires a photo wherever nobody signs (pod_photo_required). */
  required: boolean;
  /** The delivery that runs it: told each photo kept (PHOTO_CHANGED). */
  reportTo?: AnyActorRef;
}

export interface PhotoProofContext extends Omit<PhotoProofInput, "reportTo"> {
  reportTo: AnyActorRef | null;
  /** Continue was tapped (the delivery goes on); false while taking, and after Back. */
  accepted: boolean;
}

export type PhotoProofEvent = { type: "PHOTO_TAKEN"; photo: DeliveryPhoto } | { type: "PHOTO_REMOVED" } | { type: "CONTINUE" } | { type: "BACK" };

/** accepted: Continue, the delivery goes on (with the photo told last, if any); not accepted: Back to the step before. */
export type PhotoProofOutput = Pick<PhotoProofContext, "accepted">;

export const photoProofMachine = setup({
  types: {
    input: {} as PhotoProofInput,
    context: {} as PhotoProofContext,
    events: {} as PhotoProofEvent,
    output: {} as PhotoProofOutput,
  },
  guards: {
    photoTaken: ({ context }) => context.photo != null,
    pharmacyRequiresPhoto: ({ context }) => context.required,
  },
  actions: {
    keepPhoto: assign({ photo: ({ context, event }) => (event.type === "PHOTO_TAKEN" ? event.photo : context.photo) }),
    forgetPhoto: assign({ photo: null }),
    accept: assign({ accepted: true }),
    /** The delivery keeps the photo with what the courier entered (its draft survives a reload). */
    tellDelivery: enqueueActions(({ context, enqueue }) => {
      if (context.reportTo) enqueue.sendTo(context.reportTo, { type: "PHOTO_CHANGED", photo: context.photo });
    }),
  },
}).createMachine({
  id: "photoProof",
  description: "The photo of where the medication was left, where nobody signs: taken, shown back, then Continue or Back.",
  context: ({ input }) => ({ photo: input.photo, required: input.required, reportTo: input.reportTo ?? null, accepted: false }),
  initial: "taking",
  states: {
    taking: {
      description: "The courier takes (or retakes) the photo and sees it back; Continue waits for one only where the pharmacy requires it.",
      on: {
        PHOTO_TAKEN: { actions: ["keepPhoto", "tellDelivery"], description: "The shrunk photo (or a retake replacing it)." },
        PHOTO_REMOVED: { actions: ["forgetPhoto", "tellDelivery"] },
        CONTINUE: { guard: or(["photoTaken", not("pharmacyRequiresPhoto")]), target: "accepted", actions: "accept" },
        BACK: { target: "withdrawn" },
      },
    },
    accepted: { type: "final", description: "Continue: the delivery is sent, with the photo when one was taken." },
    withdrawn: { type: "final", description: "Back: the courier returns to the step before the photo." },
  },
  output: ({ context }) => ({ accepted: context.accepted }),
});
