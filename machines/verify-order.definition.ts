import { assign, fromPromise, sendTo, setup } from "xstate";
import { toApiFailure } from "../domain/api-failure.ts";
import type { Order, Status } from "../domain/contract/entities.ts";
import { copayAnswered, copayForApi } from "../domain/copay.ts";
import { showsCopaySection } from "../domain/pharmacy-progress.ts";
import { TEXT } from "../domain/texts.ts";
import { statusNamed, verifyFailureText } from "../domain/verify-order-rules.ts";
import { nextOrderStatus } from "./order-status.ts";
import { SYSTEM_IDS } from "./system-ids.ts";

/**
 * The verify-order screen (spec §2, §4 "Verify flow", §5 "Verify screen",
 * §8 "Verify" rows): the courier checks one order at the pharmacy counter,
 * asserts its copay and picks it up, or cancels it.
 */

export interface VerifyOrderInput {
  order: Order;
  /** The day's status list (itinerary `statuses`); null when the app never got one. */
  statuses: Status[] | null;
}

export interface VerifyOrderContext {
  order: Order;
  statuses: Status[] | null;
  /** 'No copay' is ticked. */
  noCopay: boolean;
  /** The copay as typed (masked as dollars, e.g. "12.50" or "$12.50"). */
  copay: string;
  /** The copay sent with PUT /orders/{id}, "0.00" for no copay; null when the section is hidden. */
  assertedCopay: string | null;
  /** The alert on screen, in the spec's words. */
  error: string | null;
}

export type VerifyOrderEvent =
  | { type: "SET_NO_COPAY"; checked: boolean }
  | { type: "CHANGE_COPAY"; value: string }
  | { type: "VERIFY" }
  | { type: "CANCEL" }
  | { type: "CONFIRM_CANCEL" }
  | { type: "KEEP_ORDER" }
  | { type: "DISMISS_ERROR" };

export interface VerifyOrderOutput {
  /** The order as it now stands on the device: picked_up or cancelled. */
  order: Order;
}

/** What the app (or a test) provides, as stand-ins that fail until it does. */
const verifyOrderCalls = {
  /** PUT /orders/{id} {order:{copay}} */
  assertCopay: fromPromise<unknown, { orderId: number; copay: string }>(async () => {
    throw new Error("provide assertCopay");
  }),
  /** POST /orders/{id}/pickups */
  pickUpOrder: fromPromise<unknown, { orderId: number }>(async () => {
    throw new Error("provide pickUpOrder");
  }),
  /** POST /courier/cancellation {order_id} */
  cancelOrder: fromPromise<unknown, { orderId: number }>(async () => {
    throw new Error("provide cancelOrder");
  }),
};
export type VerifyOrderCalls = typeof verifyOrderCalls;

/** The machine with these calls, built once by whoever runs it (the app with its own; see session.definition.ts). */
export const createVerifyOrderMachine = (calls: Partial<VerifyOrderCalls> = {}) =>
  setup({
    types: {
      context: {} as VerifyOrderContext,
      events: {} as VerifyOrderEvent,
      input: {} as VerifyOrderInput,
      output: {} as VerifyOrderOutput,
    },
    actors: {
      ...verifyOrderCalls,
      ...calls,
    },
    guards: {
      /** The lifecycle lets this order be picked up (it is not picked up, cancelled or further along). */
      canBePickedUp: ({ context }) => nextOrderStatus(context.order.status.name, "PICK_UP") !== null,
      /** Spec §5: the button is enabled only when 'No copay' is ticked or the copay is valid (when the section shows). */
      copayReady: ({ context }) => !showsCopaySection(context.order) || copayAnswered(context.copay, context.noCopay),
      /** Spec §5: the copay is asserted only when the copay section shows. */
      showsCopaySection: ({ context }) => showsCopaySection(context.order),
      /** Spec §8: the status the order moves to must be in the day's status list. */
      pickedUpStatusMissing: ({ context }) =>
        statusNamed(context.statuses, nextOrderStatus(context.order.status.name, "PICK_UP")) === null,
      cancelledStatusMissing: ({ context }) =>
        statusNamed(context.statuses, nextOrderStatus(context.order.status.name, "CANCEL")) === null,
    },
    actions: {
      /** The day learns the order as verified or cancelled (every screen agrees): the machine runs in the application's system. */
      reportOrder: sendTo(
        ({ system }) => system.get(SYSTEM_IDS.courierDay),
        ({ context }) => ({ type: "ORDERS_CHANGED", orders: [context.order] }),
      ),
      setNoCopay: assign(({ context, event }) => {
        if (event.type !== "SET_NO_COPAY") return {};
        // Ticking 'No copay' clears the amount.
        return { noCopay: event.checked, copay: event.checked ? "" : context.copay };
      }),
      setCopay: assign(({ context, event }) => {
        if (event.type !== "CHANGE_COPAY") return {};
        // Typing an amount unticks 'No copay'; the mask emptying the field does not.
        return { copay: event.value, noCopay: event.value.trim() === "" ? context.noCopay : false };
      }),
      prepareCopay: assign(({ context }) => ({
        assertedCopay: showsCopaySection(context.order) ? copayForApi(context.copay, context.noCopay) : null,
      })),
      clearError: assign({ error: null }),
      showMissingStatuses: assign({ error: TEXT.verifyMissingStatuses }),
      showFailure: assign(({ context }, error: unknown) => ({ error: verifyFailureText(toApiFailure(error), context.order.id) })),
      /** Spec §4: after the server returns 200 the order becomes picked_up on the device. */
      markPickedUp: assign(({ context }) => {
        const status = statusNamed(context.statuses, nextOrderStatus(context.order.status.name, "PICK_UP"))!;
        return {
          order: { ...context.order, status: { ...status }, copay: context.assertedCopay ?? context.order.copay },
        };
      }),
      markCancelled: assign(({ context }) => {
        const status = statusNamed(context.statuses, nextOrderStatus(context.order.status.name, "CANCEL"))!;
        return { order: { ...context.order, status: { ...status } } };
      }),
    },
  }).createMachine({
    id: "verifyOrder",
    description: "Verify-order screen: check the order, assert its copay and pick it up, or cancel it.",
    context: ({ input }) => ({
      order: input.order,
      statuses: input.statuses,
      noCopay: false,
      copay: "",
      assertedCopay: null,
      error: null,
    }),
    initial: "opening",
    states: {
      opening: {
        description: "Is there anything left to verify for this order?",
        always: [{ guard: "canBePickedUp", target: "editing" }, { target: "alreadyHandled" }],
      },
      alreadyHandled: {
        description:
          "The order is already picked_up (verified tick), cancelled ('cancelled') or further along: verify and cancel are disabled.",
      },
      editing: {
        description: "Recipient, date of birth, address, phone, RX numbers, delivery instructions, copay entry, 'Other fees'.",
        on: {
          SET_NO_COPAY: { actions: "setNoCopay", description: "Tick or untick 'No copay'; ticking clears the amount." },
          CHANGE_COPAY: { actions: "setCopay", description: "Type the copay; typing an amount unticks 'No copay'." },
          VERIFY: [
            {
              guard: "copayReady",
              target: "submitting",
              description: "Verify: enabled only when 'No copay' is ticked or the copay is valid.",
            },
          ],
          CANCEL: { target: "confirmingCancel", description: "Cancel the order." },
          DISMISS_ERROR: { actions: "clearError", description: "Close the alert." },
        },
      },
      confirmingCancel: {
        description: "Are you sure you want to cancel this order?",
        on: {
          CONFIRM_CANCEL: [
            {
              guard: "cancelledStatusMissing",
              target: "editing",
              actions: "showMissingStatuses",
              description: "An error occurred. Please refresh and try again.",
            },
            { target: "cancelling", actions: "clearError", description: "Yes: cancel the order." },
          ],
          KEEP_ORDER: { target: "editing", description: "No: keep the order." },
        },
      },
      cancelling: {
        description: "POST /courier/cancellation {order_id}.",
        invoke: {
          id: "cancelOrder",
          src: "cancelOrder",
          input: ({ context }) => ({ orderId: context.order.id }),
          onDone: { target: "cancelled", actions: "markCancelled" },
          onError: { target: "editing", actions: { type: "showFailure", params: ({ event }: { event: { error: unknown } }) => event.error } },
        },
      },
      submitting: {
        description: "Verify pressed: the button stays disabled while the order is recorded.",
        entry: ["clearError", "prepareCopay"],
        initial: "choosing",
        states: {
          choosing: {
            always: [
              {
                guard: "pickedUpStatusMissing",
                target: "#verifyOrder.editing",
                actions: "showMissingStatuses",
                description: "An error occurred. Please refresh and try again.",
              },
              { guard: "showsCopaySection", target: "assertingCopay", description: "Assert the copay first." },
              { target: "pickingUp", description: "No copay section: straight to the pickup." },
            ],
          },
          assertingCopay: {
            description: "PUT /orders/{id} {order:{copay}}: the copay asserted correct ('0.00' for no copay).",
            invoke: {
              id: "assertCopay",
              src: "assertCopay",
              input: ({ context }) => ({ orderId: context.order.id, copay: context.assertedCopay ?? "0.00" }),
              onDone: { target: "pickingUp" },
              onError: { target: "#verifyOrder.editing", actions: { type: "showFailure", params: ({ event }: { event: { error: unknown } }) => event.error } },
            },
          },
          pickingUp: {
            description: "POST /orders/{id}/pickups.",
            invoke: {
              id: "pickUpOrder",
              src: "pickUpOrder",
              input: ({ context }) => ({ orderId: context.order.id }),
              onDone: { target: "#verifyOrder.pickedUp", actions: "markPickedUp" },
              onError: { target: "#verifyOrder.editing", actions: { type: "showFailure", params: ({ event }: { event: { error: unknown } }) => event.error } },
            },
          },
        },
      },
      pickedUp: {
        type: "final",
        entry: "reportOrder",
        description: "Verified: the order is picked_up on the device; back to the verify list.",
      },
      cancelled: {
        type: "final",
        entry: "reportOrder",
        description: "Cancelling at verify sets status cancelled; back to the verify list.",
      },
    },
    output: ({ context }) => ({ order: context.order }),
  });
