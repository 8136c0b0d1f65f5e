import { setup } from "xstate";

/**
 * The order lifecycle (spec §3 statuses, §4 transitions). The server accepts
 * or refuses a status change with this machine (an illegal one is 409), and
 * the app moves its local copy of an order with it.
 */
export interface OrderLifecycleContext {
  /** How the copay was paid at the door, if it was (cash and check go back to the pharmacy). */
  paymentType: string | null;
  paymentCollected: boolean;
}

export type OrderLifecycleEvent =
  | { type: "SUBMIT_TO_COURIER" }
  | { type: "UNASSIGN" }
  | { type: "VERIFY" }
  | { type: "PICK_UP" }
  | { type: "CANCEL" }
  | { type: "DELIVER" }
  | { type: "ATTEMPT_DELIVERY" }
  | { type: "RETURN_TO_PHARMACY" }
  | { type: "RECONCILE" };

/**
 * The lifecycle, built by whoever needs it: the server and the tests when they load
 * (order-lifecycle.machine.ts), the app on the first status change it computes
 * (order-status.ts), not when a screen's chunk loads.
 */
export const createOrderLifecycleMachine = () =>
  setup({
    types: {
      context: {} as OrderLifecycleContext,
      events: {} as OrderLifecycleEvent,
      input: {} as Partial<OrderLifecycleContext> | undefined,
    },
    guards: {
      /** Cash and checks collected at the door are handed back to the pharmacy at reconcile. */
      collectedCashOrCheck: ({ context }) =>
        context.paymentCollected && (context.paymentType === "cash" || context.paymentType === "check"),
    },
  }).createMachine({
    id: "orderLifecycle",
    description: "The life of one prescription order, from the pharmacy to the patient or back.",
    context: ({ input }) => ({ paymentType: input?.paymentType ?? null, paymentCollected: input?.paymentCollected ?? false }),
    initial: "new",
    states: {
      new: {
        description: "Created by the pharmacy; not yet assigned to a courier.",
        on: {
          SUBMIT_TO_COURIER: { target: "submitted_to_courier", description: "Dispatch assigns the order to a courier." },
          VERIFY: { target: "verified", description: "The courier asserts the copay at check-in." },
          PICK_UP: { target: "picked_up", description: "Verifying as correct: after the server returns 200, the order becomes picked_up." },
          CANCEL: { target: "cancelled", description: "Cancelling at verify sets status cancelled." },
        },
      },
      submitted_to_courier: {
        description: "Waiting at the pharmacy for the courier: shows a Check-in link.",
        on: {
          UNASSIGN: { target: "new", description: "Dispatch takes the order off the courier's day before pickup." },
          VERIFY: { target: "verified", description: "The courier asserts the copay at check-in." },
          PICK_UP: { target: "picked_up", description: "Verifying as correct: after the server returns 200, the order becomes picked_up." },
          CANCEL: { target: "cancelled", description: "Cancelling at verify sets status cancelled." },
        },
      },
      verified: {
        description: "The copay was asserted at check-in; the pickup is being recorded.",
        on: {
          PICK_UP: { target: "picked_up", description: "The pickup is recorded." },
          CANCEL: { target: "cancelled", description: "Cancelling at verify sets status cancelled." },
        },
      },
      picked_up: {
        description: "In the courier's bag: shows a Deliver link (or a verified tick on verify screens).",
        on: {
          DELIVER: { target: "delivered", description: "Successful delivery; grouped orders are delivered together." },
          ATTEMPT_DELIVERY: {
            target: "delivery_attempted",
            description: "Failed delivery (no answer, wrong address, ID not provided, date of birth not verified, patient could not pay).",
          },
          RETURN_TO_PHARMACY: {
            target: "returned_to_pharmacy",
            description: "Reconcile signature: an order never delivered is handed back and created as a delivery.",
          },
        },
      },
      delivered: {
        description: "Handed to the recipient.",
        on: {
          RECONCILE: {
            guard: "collectedCashOrCheck",
            target: "reconciled",
            description: "Reconcile signature: the cash or check collected for it is handed to the pharmacy.",
          },
        },
      },
      delivery_attempted: {
        description: "Delivery failed; the order must go back to the pharmacy.",
        on: {
          RETURN_TO_PHARMACY: { target: "returned_to_pharmacy", description: "Reconcile signature: the attempted order is handed back." },
        },
      },
      cancelled: { type: "final", description: "Cancelled at verification." },
      returned_to_pharmacy: { type: "final", description: "Handed back to the pharmacy with a staff signature." },
      reconciled: { type: "final", description: "Delivered, and its cash or check handed to the pharmacy." },
    },
  });
