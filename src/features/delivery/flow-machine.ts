import { fromPromise } from "xstate";
import type { DeliveryCompletion, FailureSubmission, RecipientSubmission } from "../../../domain/contract/deliveries.ts";
import { deliveryFlowMachine, type SubmissionResult } from "../../../machines/delivery-flow.machine.ts";
import type { AuthorizeCardInput } from "../../../domain/payment-step.ts";
import { paymentMachine, type AuthorizeCardOutput, type SetUpCardClientInput } from "../../../machines/payment.machine.ts";
import { submitDelivery, submitFailure, submitRecipient } from "../../api/deliveries.ts";
import { saveChargeData } from "../../api/payments.ts";
import type { ActionMemo } from "./action-memo.ts";
import type { CardSession } from "./card-session.ts";
import { knownLocation } from "../../app/geolocation.ts";
import { deliveryPosition } from "../../../domain/delivery-photo.ts";

export interface FlowAdapters {
  memo: ActionMemo;
  /** The courier's day: stored offline orders expire at its end. */
  storedOn: string;
  cards: CardSession;
}

/**
 * The delivery-flow machine with the app's adapters: the three POST
 * /api/courier/deliveries submissions (a network failure answers with the entry the flow hands to the offline queue),
 * and the payment child's card fields and authorization.
 */
export function provideDeliveryFlow({ memo, storedOn, cards }: FlowAdapters) {
  const context = (action: string) => ({ idempotencyKey: memo.keyFor(action), storedOn });

  const payment = paymentMachine.provide({
    actors: {
      setUpCardClient: fromPromise<void, SetUpCardClientInput>(() => cards.setUp()),
      authorizeCard: fromPromise<AuthorizeCardOutput, AuthorizeCardInput>(async ({ input }) => {
        const result = await cards.authorize(input);
        // The authorization already recorded the charge on the server; this re-save is the spec's
        // "delivery with charge data" and must not hold the courier at the door if it fails.
        const chargeData = { transaction_id: result.transaction_id, amount: input.total, new_copay: input.new_copay, payment_type: "credit_card" as const };
        void saveChargeData(input.order_id, chargeData).catch(() => undefined);
        return result;
      }),
    },
  });

  return deliveryFlowMachine.provide({
    actors: {
      submitFailure: fromPromise<SubmissionResult, FailureSubmission>(({ input }) =>
        submitFailure(input, context(`failure:${input.client_occurred_at}`)),
      ),
      // Spec §7 sends no position with a recipient submission (and none is read from a photo: issue 24).
      submitRecipient: fromPromise<SubmissionResult, RecipientSubmission>(({ input }) =>
        submitRecipient(input, context(`recipient:${input.client_occurred_at}`)),
      ),
      submitDelivery: fromPromise<SubmissionResult, DeliveryCompletion>(({ input }) => {
        const action = `delivery:${input.client_occurred_at}`;
        const location = memo.once(`location:${action}`, knownLocation);
        // The phone's fix only (issue 24: never a photo's EXIF).
        return submitDelivery({ ...input, ...(deliveryPosition(location) ?? {}) }, context(action));
      }),
      payment,
    },
  });
}
