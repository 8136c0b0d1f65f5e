import { and, assign, or, sendTo, setup } from "xstate";
import type { DeliverySurvey } from "../domain/contract/deliveries.ts";
import type { Order, Status } from "../domain/contract/entities.ts";
import type { DeliveryDraft, DraftPlace } from "../domain/delivery-draft.ts";
import { deliveryOutcomeOf, ordersAfterDelivery } from "../domain/delivery-outcome.ts";
import { photoRequired, type DeliveryPhoto } from "../domain/delivery-photo.ts";
import { COULD_NOT_PAY, EMPTY_SURVEY, FAILED_TICK, failureAskedBy, submissionOf, submittedFrom } from "../domain/delivery-record.ts";
import type { DeliveryRecord, DeliveryStep, FailureAsked } from "../domain/delivery-record.ts";
import { dobCanBeVerified, dobVerificationNeeded, EMPTY_IDENTIFICATION, EMPTY_SIGNATURE_FORM, groupableOrders, identificationComplete } from "../domain/delivery-rules.ts";
import { identificationNeeded, paymentStepNeeded, signatureComplete, type IdentificationForm } from "../domain/delivery-rules.ts";
import type { PaymentOutput } from "../domain/payment-step.ts";
import { changeRecipientFields, chooseRelationship, initialRecipientForm, isRelationshipOffered, regroupRecipient } from "../domain/recipient.ts";
import { recipientContinueEnabled, recipientCountsAsSelected, recipientSkipped, submittedAtRecipientStep } from "../domain/recipient.ts";
import type { RecipientFieldChanges } from "../domain/recipient.ts";
import { TEXT } from "../domain/texts.ts";
import { createDeliverySubmitMachine, type DeliverySubmitOutput } from "./delivery-submit.definition.ts";
import { nextOrderStatus } from "./order-status.ts";
import { createPaymentMachine } from "./payment.definition.ts";
import { photoProofMachine, type PhotoProofOutput } from "./photo-proof.machine.ts";
import { SYSTEM_IDS } from "./system-ids.ts";

/**
 * One order's delivery (spec §2 address … attempted, §4 Delivery flow order,
 * §5 recipient/ID/payment/signature rules, §7 submissions). The app's URL
 * mirrors `steps.<step>` (src/features/delivery/delivery-paths.ts); a deep link is GO_TO_STEP,
 * which the machine accepts or answers by staying where it is.
 */

export interface DeliveryFlowInput {
  order: Order;
  /** The courier's other orders; those that may be grouped with this one (spec §5) are offered. */
  otherOrders?: Order[];
  /** The support line for the 'unable to pay' confirmation. */
  supportPhone: string;
  /** The courier's calendar day, "YYYY-MM-DD" (an ID must not have expired). */
  today: string;
  /** The day's order status records (the ids the day shows); the vocabulary's when absent. */
  statuses?: Status[];
  /** The delivery as the courier left it before a reload: the flow starts where it names, with what was entered. */
  draft?: DeliveryDraft | null;
}

/** What the steps record (domain/delivery-record.ts builds the request bodies from it), and the flow's own state. */
export interface DeliveryFlowContext extends DeliveryRecord {
  /** The orders 'Group Orders' would deliver together with this one. */
  groupable: Order[];
  supportPhone: string;
  today: string;
  statuses: Status[];
  /** Steps entered so far: a deep link may only go back to one of these. */
  reached: DeliveryStep[];
  payment: PaymentOutput | null;
  queued: boolean;
  /** Where the flow opens: where a draft kept before a reload left the courier, or a deep link's step (null: a fresh start). */
  resumeAt: DraftPlace | null;
  /** The failed delivery the courier is asked to confirm (its reason and step), or null. */
  confirming: FailureAsked | null;
}

export type DeliveryFlowEvent =
  | { type: "GO_TO_STEP"; step: DeliveryStep }
  | { type: "PRESENT_AT_ADDRESS" }
  | { type: "ADDRESS_INCORRECT" }
  | { type: "DOB_VERIFIED" }
  | { type: "DOB_NOT_VERIFIED" }
  | { type: "SELECT_RELATIONSHIP"; relationship_id: number }
  | { type: "RECIPIENT_CHANGED"; changes: RecipientFieldChanges }
  | { type: "SET_GROUPED"; grouped: boolean }
  | { type: "TICK_FAILED" }
  | { type: "UNTICK_FAILED" }
  | { type: "RECIPIENT_CALLED"; at: string }
  | { type: "ID_CHANGED"; changes: Partial<IdentificationForm> }
  | { type: "ID_NOT_PROVIDED" }
  | { type: "SIGNATURE_CHANGED"; svg: string | null }
  | { type: "REFUSAL_CHANGED"; reason: string | null; notes: string }
  | { type: "SURVEY_CHANGED"; answers: Partial<DeliverySurvey> }
  | { type: "PHOTO_CHANGED"; photo: DeliveryPhoto | null }
  | { type: "CONTINUE" }
  | { type: "CONFIRM" }
  | { type: "CANCEL" };

export interface DeliveryFlowOutput {
  outcome: "delivered" | "attempted";
  queued: boolean;
}

/**
 * The children the app gives the flow: its submit machine and payment machine, each built with
 * the app's adapters. Without them (tests, the visualizer), their stand-ins, built only then.
 */
export interface DeliveryFlowChildren {
  deliverySubmit: ReturnType<typeof createDeliverySubmitMachine>;
  payment: ReturnType<typeof createPaymentMachine>;
}

/** The machine with these children, built once by whoever runs it (see session.definition.ts). */
export const createDeliveryFlowMachine = ({
  deliverySubmit = createDeliverySubmitMachine(),
  payment = createPaymentMachine(),
}: Partial<DeliveryFlowChildren> = {}) =>
  setup({
    types: {
      input: {} as DeliveryFlowInput,
      context: {} as DeliveryFlowContext,
      events: {} as DeliveryFlowEvent,
      output: {} as DeliveryFlowOutput,
    },
    actors: {
      deliverySubmit,
      payment,
      photoProof: photoProofMachine,
    },
    guards: {
      /** Spec §2: the date-of-birth step only when the pharmacy has dob_verification_enabled. */
      dobVerificationEnabled: ({ context }) => dobVerificationNeeded(context.order),
      /** A date of birth is confirmed only when the step shows one: none on file leaves 'Did not verify date of birth'. */
      dobOnFile: ({ context }) => dobCanBeVerified(context.order),
      /** Spec §4: the ID step only when the order has collect_identification. */
      collectIdentification: ({ context }) => identificationNeeded(context.order),
      /** Spec §4: payment if copay or fee is due and the recipient is not skipped (and not yet paid). */
      paymentDue: ({ context }) => context.payment == null && paymentStepNeeded(context.order, recipientSkipped(context.recipient)),
      /** Spec §4: the payment step redirects to signature if nothing is owed. */
      nothingOwed: ({ context }) => context.payment != null || !paymentStepNeeded(context.order, recipientSkipped(context.recipient)),
      /** Spec §4: a signature step without a chosen relationship redirects to recipient. */
      noRelationshipChosen: ({ context }) => !recipientCountsAsSelected(context.recipient),
      /** The courier cancelled after the call failed: nothing went out (nor is kept on the device for the offline queue). */
      submissionCancelled: (_, submitted: DeliverySubmitOutput) => !submitted.sent,
      /** Spec §4: No Recipient, contactless or a failed tick is submitted at the recipient step, never signed for. */
      recipientSkippedOrFailed: ({ context }) => context.recipient.failed || recipientSkipped(context.recipient),
      relationshipOffered: ({ context, event }) =>
        event.type === "SELECT_RELATIONSHIP" && isRelationshipOffered(context.order, event.relationship_id),
      /** Spec §5: Group Orders is offered only when some order may be grouped with this one. */
      groupingAvailable: ({ context }) => context.groupable.length > 0,
      /** The failed box is ticked and its notes are written. */
      recipientFailed: ({ context }) => context.recipient.failed && recipientContinueEnabled(context.recipient),
      /** Spec §4: No Recipient, or contactless with notes, is submitted at the recipient step. */
      submittedAtRecipientStep: ({ context }) =>
        !context.recipient.failed && submittedAtRecipientStep(context.recipient) && recipientContinueEnabled(context.recipient),
      /** Spec §5: Continue is enabled. */
      recipientComplete: ({ context }) => recipientContinueEnabled(context.recipient),
      /** Spec §5 ID step: type, number, expiry (and state unless passport or military). */
      identificationComplete: ({ context }) => identificationComplete(context.identification, context.today),
      /** Spec §5 Signature step. */
      signatureComplete: ({ context }) => signatureComplete({ signed: context.signature.svg != null, ...context.signature }, context.order),
      patientCouldNotPay: (_, payment: PaymentOutput) => payment.outcome === "could_not_pay",
      /** A failed delivery is recorded: once sent, the delivery was attempted. */
      failureRecorded: ({ context }) => context.failure != null,
      /** A deep link to a step already reached (never ahead of the courier). */
      reachedBefore: ({ context, event }) => event.type === "GO_TO_STEP" && context.reached.includes(event.step),
      /** The flow opens at this place (a draft's, a deep link's). */
      resumesAt: ({ context }, params: { place: DraftPlace }) => context.resumeAt === params.place,
      /** A reload while a call was being sent. */
      resumesSending: ({ context }) => context.resumeAt?.startsWith("sending") === true,
      /** A refusal reason instead of a signature: nobody signs, so a photo of the drop-off may be taken. */
      nobodySigned: ({ context }) => context.signature.svg == null,
      /** Continue on the photo of the drop-off (not Back). */
      photoAccepted: (_, photo: PhotoProofOutput) => photo.accepted,
    },
    actions: {
      markReached: assign({
        reached: ({ context }, params: { step: DeliveryStep }) =>
          context.reached.includes(params.step) ? context.reached : [...context.reached, params.step],
      }),
      verifyDob: assign({ dobVerified: true }),
      /** A deep link: the flow opens the step it names again (starting routes it). */
      aimAtStep: assign({ resumeAt: ({ context, event }) => (event.type === "GO_TO_STEP" ? event.step : context.resumeAt) }),
      /** The failed delivery the courier's answer asks to confirm: its reason and step (the domain's FAILURE_ANSWERS). */
      noteFailure: assign({ confirming: ({ event }) => failureAskedBy(event.type) }),
      /** The failed delivery confirmed: recorded as of now. */
      recordFailure: assign(({ context }) => ({
        failure: context.confirming && { ...context.confirming, occurred_at: new Date().toISOString(), body: null },
        confirming: null,
      })),
      /** Unable to pay, confirmed in the payment step: recorded as of now. */
      recordCouldNotPay: assign({ failure: () => ({ ...COULD_NOT_PAY, occurred_at: new Date().toISOString(), body: null }) }),
      /** Not confirmed: the courier goes back to the step that gave the reason. */
      withdrawFailure: assign(({ context }) => ({ resumeAt: context.confirming?.step ?? "address", confirming: null })),
      /** The recipient step's failed tick, with the courier's notes. */
      recordRecipientFailure: assign(({ context }) => ({
        failure: { ...FAILED_TICK, occurred_at: new Date().toISOString(), body: context.recipient.courier_notes.trim() },
      })),
      /** A call cancelled after it failed: the courier goes back to the step it was sent from, a failed delivery forgotten. */
      returnToSentStep: assign(({ context }) => ({ resumeAt: submittedFrom(context), failure: null })),
      chooseRelationship: assign({
        recipient: ({ context, event }) =>
          event.type === "SELECT_RELATIONSHIP"
            ? chooseRelationship(context.recipient, event.relationship_id, context.order, context.groupedOrderIds.length > 0)
            : context.recipient,
      }),
      changeRecipient: assign({
        recipient: ({ context, event }) =>
          event.type === "RECIPIENT_CHANGED" ? changeRecipientFields(context.recipient, event.changes, context.groupedOrderIds.length > 0) : context.recipient,
      }),
      setGrouped: assign(({ context, event }) => {
        const on = event.type === "SET_GROUPED" && event.grouped;
        return {
          groupedOrderIds: on ? context.groupable.map((order) => order.id) : [],
          recipient: regroupRecipient(context.recipient, context.order, on),
        };
      }),
      tickFailed: assign({ recipient: ({ context }) => ({ ...context.recipient, failed: true }) }),
      untickFailed: assign({ recipient: ({ context }) => ({ ...context.recipient, failed: false }) }),
      recordCall: assign({ recipientCalledAt: ({ event }) => (event.type === "RECIPIENT_CALLED" ? event.at : null) }),
      changeIdentification: assign({
        identification: ({ context, event }) =>
          event.type === "ID_CHANGED" ? { ...context.identification, ...event.changes } : context.identification,
      }),
      changeSignature: assign({
        signature: ({ context, event }) => (event.type === "SIGNATURE_CHANGED" ? { ...context.signature, svg: event.svg } : context.signature),
      }),
      changeRefusal: assign({
        signature: ({ context, event }) =>
          event.type === "REFUSAL_CHANGED" ? { ...context.signature, refusal_reason: event.reason, refusal_notes: event.notes } : context.signature,
      }),
      changeSurvey: assign({
        survey: ({ context, event }) => (event.type === "SURVEY_CHANGED" ? { ...context.survey, ...event.answers } : context.survey),
      }),
      recordPayment: assign({ payment: (_, payment: PaymentOutput) => payment }),
      stampOccurredAt: assign({ occurredAt: () => new Date().toISOString() }),
      keepPhoto: assign({ photo: ({ context, event }) => (event.type === "PHOTO_CHANGED" ? event.photo : context.photo) }),
      /**
       * The day learns what became of the orders (grouped ones together): the domain's delivery-outcome
       * rule on the orders the flow started with (its input; the rule stays out of the first screen's bundle).
       */
      reportOutcome: sendTo(
        ({ system }) => system.get(SYSTEM_IDS.courierDay),
        ({ context }, params: { outcome: "delivered" | "attempted" }) => ({
          type: "DELIVERY_RECORDED",
          orders: ordersAfterDelivery(context.groupable, context.order, deliveryOutcomeOf(context, params.outcome), nextOrderStatus, context.statuses),
        }),
      ),
      recordSubmission: assign({ queued: (_, submitted: DeliverySubmitOutput) => submitted.queued }),
    },
  }).createMachine({
    id: "deliveryFlow",
    description: "One order's delivery: address, date of birth, recipient, ID, payment, signature; or a failed attempt.",
    context: ({ input }) => ({
      order: input.order,
      groupable: groupableOrders(input.order, input.otherOrders ?? []),
      supportPhone: input.supportPhone,
      today: input.today,
      statuses: input.statuses ?? [],
      reached: input.draft?.reached ?? [],
      groupedOrderIds: [],
      dobVerified: false,
      recipientCalledAt: null,
      recipient: initialRecipientForm(input.order),
      identification: EMPTY_IDENTIFICATION,
      payment: null,
      signature: { svg: null, refusal_reason: EMPTY_SIGNATURE_FORM.refusal_reason, refusal_notes: EMPTY_SIGNATURE_FORM.refusal_notes },
      survey: EMPTY_SURVEY,
      failure: null,
      photo: null,
      occurredAt: null,
      // What the courier entered before a reload, over the fresh start.
      ...input.draft?.record,
      queued: false,
      resumeAt: input.draft?.place ?? null,
      confirming: null,
    }),
    initial: "starting",
    output: ({ context }) => ({ outcome: context.failure ? "attempted" : "delivered", queued: context.queued }),
    states: {
      starting: {
        description:
          "Opening the delivery: at the address, where the courier was before a reload (with what they entered), or at the step a deep link names.",
        always: [
          { guard: { type: "resumesAt", params: { place: "verifyDob" } }, target: "steps.verifyDob" },
          { guard: { type: "resumesAt", params: { place: "recipient" } }, target: "steps.recipient" },
          { guard: { type: "resumesAt", params: { place: "recipientPhoto" } }, target: "steps.recipient.photo" },
          { guard: { type: "resumesAt", params: { place: "idVerification" } }, target: "steps.idVerification" },
          { guard: { type: "resumesAt", params: { place: "payment" } }, target: "steps.payment" },
          { guard: { type: "resumesAt", params: { place: "signature" } }, target: "steps.signature" },
          { guard: { type: "resumesAt", params: { place: "signaturePhoto" } }, target: "steps.signature.photo" },
          {
            guard: "resumesSending",
            target: "submitting",
            description: "A reload while a call was being sent: it is sent again (with the same Idempotency-Key).",
          },
          { target: "steps", description: "A fresh delivery (or a draft at the address) starts at the address." },
        ],
      },
      steps: {
        description: "The wizard's steps; the URL shows the active one.",
        initial: "address",
        on: {
          GO_TO_STEP: {
            guard: "reachedBefore",
            target: "#deliveryFlow.starting",
            actions: "aimAtStep",
            description: "A deep link to a step already reached opens it (through starting); to any other the courier stays on the current step.",
          },
          RECIPIENT_CALLED: { actions: "recordCall", description: "The courier called the recipient (recipient_called_at)." },
        },
        states: {
          address: {
            description: "Confirm the address; call the patient if unsure.",
            entry: { type: "markReached", params: { step: "address" } },
            on: {
              PRESENT_AT_ADDRESS: [
                { guard: "dobVerificationEnabled", target: "verifyDob", description: "'I am present at the address above'" },
                { target: "recipient" },
              ],
              ADDRESS_INCORRECT: { target: "confirmingFailure", actions: "noteFailure", description: "'The address is incorrect'" },
            },
          },
          verifyDob: {
            description: "Confirm the patient's date of birth with the recipient.",
            entry: { type: "markReached", params: { step: "verifyDob" } },
            on: {
              DOB_VERIFIED: {
                guard: "dobOnFile",
                target: "recipient",
                actions: "verifyDob",
                description: "'Date of birth verified': only when the order has a date of birth on file to check.",
              },
              DOB_NOT_VERIFIED: { target: "confirmingFailure", actions: "noteFailure", description: "'Did not verify date of birth'" },
            },
          },
          recipient: {
            description: "Choose who accepts the delivery.",
            entry: { type: "markReached", params: { step: "recipient" } },
            initial: "editing",
            states: {
              editing: {
                on: {
                  SELECT_RELATIONSHIP: { guard: "relationshipOffered", actions: "chooseRelationship" },
                  RECIPIENT_CHANGED: { actions: "changeRecipient" },
                  SET_GROUPED: { guard: "groupingAvailable", actions: "setGrouped", description: "'Group Orders'" },
                  TICK_FAILED: { target: "confirmingFailedTick", description: "'Failed delivery - must be returned to pharmacy'" },
                  UNTICK_FAILED: { actions: "untickFailed" },
                  CONTINUE: [
                    { guard: "recipientFailed", target: "#deliveryFlow.submitting", actions: "recordRecipientFailure" },
                    {
                      guard: "submittedAtRecipientStep",
                      target: "photo",
                      description: "No Recipient, or contactless with notes: nobody signs, so the photo of the drop-off comes next.",
                    },
                    { guard: and(["recipientComplete", "collectIdentification"]), target: "#deliveryFlow.steps.idVerification" },
                    { guard: and(["recipientComplete", "paymentDue"]), target: "#deliveryFlow.steps.payment" },
                    { guard: "recipientComplete", target: "#deliveryFlow.steps.signature" },
                  ],
                },
              },
              confirmingFailedTick: {
                description: "The courier is asked to confirm ticking 'Failed delivery': the order then goes back to the pharmacy.",
                meta: { confirmation: TEXT.failedDeliveryTickConfirm },
                on: {
                  CONFIRM: { target: "editing", actions: "tickFailed" },
                  CANCEL: { target: "editing" },
                },
              },
              photo: {
                description:
                  "Nobody signs: the photo of the drop-off, taken and shown back (the photo machine runs as child 'photo'); Continue submits at the recipient step (spec §4), with the photo when one was taken.",
                on: { PHOTO_CHANGED: { actions: "keepPhoto", description: "The photo as the photo machine has it, kept with the draft." } },
                invoke: {
                  id: "photo",
                  src: "photoProof",
                  input: ({ context, self }) => ({ photo: context.photo, required: photoRequired(context.order), reportTo: self }),
                  onDone: [
                    { guard: { type: "photoAccepted", params: ({ event }) => event.output }, target: "#deliveryFlow.submitting", actions: "stampOccurredAt" },
                    { target: "editing", description: "Back to the recipient step." },
                  ],
                },
              },
            },
          },
          idVerification: {
            description: "Capture the recipient's ID: type, state, number, expiry.",
            entry: { type: "markReached", params: { step: "idVerification" } },
            on: {
              ID_CHANGED: { actions: "changeIdentification" },
              CONTINUE: [
                { guard: and(["identificationComplete", "paymentDue"]), target: "payment" },
                { guard: "identificationComplete", target: "signature" },
              ],
              ID_NOT_PROVIDED: { target: "confirmingFailure", actions: "noteFailure", description: "'Unable to provide ID'" },
            },
          },
          payment: {
            description: "Payment: the payment machine runs as child 'payment'.",
            entry: { type: "markReached", params: { step: "payment" } },
            always: { guard: "nothingOwed", target: "signature", description: "The payment step redirects to signature if nothing is owed." },
            invoke: {
              id: "payment",
              src: "payment",
              input: ({ context }) => ({ order: context.order, supportPhone: context.supportPhone }),
              onDone: [
                {
                  guard: { type: "patientCouldNotPay", params: ({ event }) => event.output },
                  target: "#deliveryFlow.submitting",
                  actions: "recordCouldNotPay",
                  description: "Unable to pay, confirmed in the payment step: the failed delivery is recorded.",
                },
                { target: "signature", actions: { type: "recordPayment", params: ({ event }) => event.output } },
              ],
            },
          },
          signature: {
            description: "The recipient signs, or (where allowed) a reason for not signing.",
            entry: { type: "markReached", params: { step: "signature" } },
            always: {
              guard: or(["noRelationshipChosen", "recipientSkippedOrFailed"]),
              target: "recipient",
              description: "A signature step without a chosen relationship, or whose recipient is submitted at the recipient step, redirects to recipient.",
            },
            initial: "signing",
            states: {
              signing: {
                on: {
                  SIGNATURE_CHANGED: { actions: "changeSignature" },
                  REFUSAL_CHANGED: { actions: "changeRefusal" },
                  SURVEY_CHANGED: { actions: "changeSurvey" },
                  CONTINUE: [
                    {
                      guard: and(["signatureComplete", "nobodySigned"]),
                      target: "photo",
                      description: "A reason for not signing: the photo of the drop-off comes next.",
                    },
                    { guard: "signatureComplete", target: "#deliveryFlow.submitting", actions: "stampOccurredAt" },
                  ],
                },
              },
              photo: {
                description: "A reason for not signing: the photo of the drop-off (child 'photo', as at the recipient step).",
                on: { PHOTO_CHANGED: { actions: "keepPhoto" } },
                invoke: {
                  id: "photo",
                  src: "photoProof",
                  input: ({ context, self }) => ({ photo: context.photo, required: photoRequired(context.order), reportTo: self }),
                  onDone: [{ guard: { type: "photoAccepted", params: ({ event }) => event.output }, target: "#deliveryFlow.submitting", actions: "stampOccurredAt" }, { target: "signing" }],
                },
              },
            },
          },
          confirmingFailure: {
            description:
              "The courier is asked to confirm the failed delivery a step gave a reason for (the address, the date of birth, the ID); the step stays on screen.",
            meta: { confirmation: TEXT.failedDeliveryConfirm },
            on: {
              CONFIRM: { target: "#deliveryFlow.submitting", actions: "recordFailure" },
              CANCEL: { target: "#deliveryFlow.starting", actions: "withdrawFailure", description: "Back to the step, as it was." },
            },
          },
        },
      },
      submitting: {
        description:
          "Sending the delivery's call (spec §7) while the courier waits on the step it was sent from: the failed delivery, the recipient submission where nobody signs, or the delivery completion.",
        invoke: {
          id: "submit",
          src: "deliverySubmit",
          input: ({ context }) => submissionOf(context),
          onDone: [
            {
              guard: { type: "submissionCancelled", params: ({ event }) => event.output },
              target: "starting",
              actions: "returnToSentStep",
              description: "Cancelled after the call failed: back to the step it was sent from, as entered (a failed delivery forgotten).",
            },
            { guard: "failureRecorded", target: "attempted", actions: { type: "recordSubmission", params: ({ event }) => event.output } },
            { target: "finished", actions: { type: "recordSubmission", params: ({ event }) => event.output } },
          ],
        },
      },
      finished: {
        type: "final",
        entry: { type: "reportOutcome", params: { outcome: "delivered" } },
        description: "'The order has been delivered.' — 'Back to orders'.",
      },
      attempted: {
        type: "final",
        entry: { type: "reportOutcome", params: { outcome: "attempted" } },
        description: "'Please return this order back to the pharmacy.' — 'Back to orders'.",
      },
    },
  });
