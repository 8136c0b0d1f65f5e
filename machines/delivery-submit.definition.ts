import { assign, fromPromise, sendTo, setup } from "xstate";
import { failureText, toApiFailure, type ApiFailure } from "../domain/api-failure.ts";
import type { DeliveryResponse } from "../domain/contract/deliveries.ts";
import type { DeliverySubmission } from "../domain/delivery-record.ts";
import type { StoredOfflineOrder } from "../domain/offline-queue.ts";
import { SYSTEM_IDS } from "./system-ids.ts";

/**
 * One of the delivery's three calls to POST /courier/deliveries (spec §7): a
 * failed delivery, a recipient submission or a delivery completion. The
 * delivery flow runs it as a child while the courier waits on the step it was
 * sent from; it answers whether the call went out (sent, or kept on the device
 * for the offline queue) or the courier cancelled after it failed.
 */

/** The call, as the flow's record makes it (domain/delivery-record.ts). */
export type { DeliverySubmission };

/** What the `send` actor resolves with. */
export interface SubmissionResult {
  /** The network failed (spec §4): the call is to be kept on the device, and the flow continues as if done. */
  queued: boolean;
  /** The call as stored for resubmission, when queued: the machine hands it to the offline queue. */
  entry?: StoredOfflineOrder;
  delivery?: DeliveryResponse["delivery"] | null;
}

export interface DeliverySubmitContext {
  submission: DeliverySubmission;
  /** The alert for a failed call (spec §8), or null. */
  error: string | null;
  queued: boolean;
  sent: boolean;
}

export interface DeliverySubmitOutput {
  /** false: the call failed and the courier chose Cancel, back to the step it was sent from. */
  sent: boolean;
  queued: boolean;
}

export type DeliverySubmitEvent = { type: "RETRY" } | { type: "CANCEL" };

/** What the app (or a test) provides, as a stand-in that fails until it does. */
const deliverySubmitCalls = {
  send: fromPromise<SubmissionResult, DeliverySubmission>(async () => {
    throw new Error("provide send");
  }),
};
export type DeliverySubmitCalls = typeof deliverySubmitCalls;

/** The machine with this call, built once by whoever runs it (the app with its own; see session.definition.ts). */
export const createDeliverySubmitMachine = (calls: Partial<DeliverySubmitCalls> = {}) =>
  setup({
    types: {
      input: {} as DeliverySubmission,
      context: {} as DeliverySubmitContext,
      events: {} as DeliverySubmitEvent,
      output: {} as DeliverySubmitOutput,
    },
    actors: {
      ...deliverySubmitCalls,
      ...calls,
    },
    guards: {
      /** The call failed on the network: the submission answered with the entry to keep on the device. */
      storedOffline: (_, result: SubmissionResult) => result.entry != null,
    },
    actions: {
      clearError: assign({ error: null }),
      showError: assign({ error: (_, failure: ApiFailure) => failureText(failure) }),
      recordSubmission: assign({ sent: true, queued: (_, result: SubmissionResult) => result.queued === true }),
      /** Spec §4 "Offline storage": the stored call goes to the application's offline queue, which resubmits it. */
      handToOfflineQueue: sendTo(
        ({ system }) => system.get(SYSTEM_IDS.offlineQueue),
        (_, result: SubmissionResult) => ({ type: "ENQUEUE", entry: result.entry! }),
      ),
    },
  }).createMachine({
    id: "deliverySubmit",
    description: "Sending one of the delivery's calls: the courier waits; a failure shows the alert, with Try again or Cancel.",
    context: ({ input }) => ({ submission: input, error: null, queued: false, sent: false }),
    initial: "sending",
    output: ({ context }) => ({ sent: context.sent, queued: context.queued }),
    states: {
      sending: {
        description: "The call is out; the courier sees 'Sending…'.",
        entry: "clearError",
        invoke: {
          id: "send",
          src: "send",
          input: ({ context }) => context.submission,
          onDone: [
            {
              guard: { type: "storedOffline", params: ({ event }) => event.output },
              target: "sent",
              actions: [
                { type: "recordSubmission", params: ({ event }) => event.output },
                { type: "handToOfflineQueue", params: ({ event }) => event.output },
              ],
              description: "No answer (network): the call is handed to the offline queue; the delivery carries on as if it was sent.",
            },
            { target: "sent", actions: { type: "recordSubmission", params: ({ event }) => event.output } },
          ],
          onError: { target: "failed", actions: { type: "showError", params: ({ event }) => toApiFailure(event.error) } },
        },
      },
      failed: {
        description: "The call failed (not for want of a network): the alert is shown; the courier may try again or cancel.",
        on: {
          RETRY: { target: "sending" },
          CANCEL: { target: "cancelled", actions: "clearError" },
        },
      },
      sent: { type: "final", description: "Recorded (or kept on the device to be sent): the delivery moves on." },
      cancelled: { type: "final", description: "Not recorded: the courier is back on the step the call was sent from." },
    },
  });
