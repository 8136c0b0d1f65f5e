import { fromPromise } from "xstate";
import { createDeliveryFlowMachine } from "../../../machines/delivery-flow.definition.ts";
import { createDeliverySubmitMachine, type DeliverySubmission, type SubmissionResult } from "../../../machines/delivery-submit.definition.ts";
import type { AuthorizeCardInput } from "../../../domain/payment-step.ts";
import { createPaymentMachine, type AuthorizeCardOutput, type SetUpCardClientInput } from "../../../machines/payment.definition.ts";
import { submitDelivery, submitFailure, submitRecipient } from "../../api/deliveries.ts";
import { saveChargeData } from "../../api/payments.ts";
import type { ActionMemo } from "./action-memo.ts";
import type { CardSession } from "./card-session.ts";
import { knownLocation } from "../../shell/geolocation.ts";
import { deliveryPosition } from "../../../domain/delivery-photo.ts";

/** What one delivery's calls are made with on this device: its action memo, its day, its card fields. */
export interface DeliveryAdapters {
  memo: ActionMemo;
  /** The courier's day: stored offline orders expire at its end. */
  storedOn: string;
  cards: CardSession;
}

/**
 * The deliveries opened on this device, by order: a delivery's calls go out
 * with its own memo (the Idempotency-Keys kept with its draft) and card
 * session. Kept after the screen closes: a flow still sending ends its call.
 */
const openDeliveries = new Map<number, DeliveryAdapters>();

/** The adapters of this order's delivery: the ones it already has on this page, else these. */
export function openDelivery(orderId: number, make: () => DeliveryAdapters): DeliveryAdapters {
  const adapters = openDeliveries.get(orderId) ?? make();
  openDeliveries.set(orderId, adapters);
  return adapters;
}

function adaptersOf(orderId: number): DeliveryAdapters {
  const adapters = openDeliveries.get(orderId);
  if (!adapters) throw new Error(`order ${orderId}'s delivery was not opened on this page`);
  return adapters;
}

const leadOrderOf = (submission: { order_ids: number[] }) => submission.order_ids[0]!;
const context = (orderId: number, action: string) => {
  const { memo, storedOn } = adaptersOf(orderId);
  return { idempotencyKey: memo.keyFor(action), storedOn };
};

const createAppPaymentMachine = () =>
  createPaymentMachine({
    setUpCardClient: fromPromise<void, SetUpCardClientInput>(({ input }) => adaptersOf(input.order_id).cards.setUp()),
    authorizeCard: fromPromise<AuthorizeCardOutput, AuthorizeCardInput>(async ({ input }) => {
      const result = await adaptersOf(input.order_id).cards.authorize(input);
      // The authorization already recorded the charge on the server; this re-save is the spec's
      // "delivery with charge data" and must not hold the courier at the door if it fails.
      const chargeData = { transaction_id: result.transaction_id, amount: input.total, new_copay: input.new_copay, payment_type: "credit_card" as const };
      void saveChargeData(input.order_id, chargeData).catch(() => undefined);
      return result;
    }),
  });

/**
 * The delivery's calls, each with the adapters its order's delivery was opened with: the three
 * POST /api/courier/deliveries submissions (a network failure answers with the entry the
 * submit machine hands to the offline queue).
 */
function send(submission: DeliverySubmission): Promise<SubmissionResult> {
  const orderId = leadOrderOf(submission.body);
  const action = `${submission.kind}:${submission.body.client_occurred_at}`;
  switch (submission.kind) {
    case "failure":
      return submitFailure(submission.body, context(orderId, action));
    case "recipient":
      // Spec §7 sends no position with a recipient submission (and none is read from a photo: issue 24).
      return submitRecipient(submission.body, context(orderId, action));
    case "delivery": {
      const location = adaptersOf(orderId).memo.once(`location:${action}`, knownLocation);
      // The phone's fix only (issue 24: never a photo's EXIF).
      return submitDelivery({ ...submission.body, ...(deliveryPosition(location) ?? {}) }, context(orderId, action));
    }
  }
}

const createAppDeliverySubmitMachine = () =>
  createDeliverySubmitMachine({
    send: fromPromise<SubmissionResult, DeliverySubmission>(({ input }) => send(input)),
  });

/**
 * The delivery-flow machine with the app's adapters (what the app's registry
 * of flows, src/app/flows.ts, loads for the delivery screens): its submit child's
 * calls, and the payment child's card fields and authorization — each with the
 * adapters its order's delivery was opened with (openDelivery). Each machine is built
 * once, with them (not defined, then built again by provide()), when the registry
 * asks for it: not while the delivery screens' chunk is evaluated, which on a
 * low-tier phone made that one long task (issue 29).
 */
export const appDeliveryFlowMachine = () => createDeliveryFlowMachine({ deliverySubmit: createAppDeliverySubmitMachine(), payment: createAppPaymentMachine() });
