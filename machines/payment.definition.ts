import { and, assign, fromPromise, not, setup } from "xstate";
import { toApiFailure, type ApiFailure } from "../domain/api-failure.ts";
import type { Order } from "../domain/contract/entities.ts";
import { allowedPaymentMethods } from "../domain/delivery-rules.ts";
import {
  authorizationErrorText,
  authorizeCardInputOf,
  cardSetupErrorText,
  copayCorrectionValid,
  paymentOutputOf,
  type AuthorizeCardInput,
  type PaymentEntry,
  type PaymentOutput,
} from "../domain/payment-step.ts";
import { TEXT } from "../domain/texts.ts";
import type { PaymentType } from "../domain/vocabulary.ts";

/**
 * The delivery's payment step (spec §5 Payment step, §4 Unable to pay, §8
 * card errors). The delivery-flow machine invokes it; the app provides the
 * card adapters behind `setUpCardClient` and `authorizeCard`. Card data never
 * enters this machine: the hosted fields report only whether each field is
 * valid, and `authorizeCard` tokenizes them itself.
 */

export interface PaymentInput {
  order: Order;
  supportPhone: string;
}

/** setUpCardClient: set up the hosted card fields (client token, fields) for this order. */
export interface SetUpCardClientInput {
  order_id: number;
}

export interface AuthorizeCardOutput {
  transaction_id: string;
}

export interface CardFieldsValidity {
  number: boolean;
  cvv: boolean;
  expiration: boolean;
}

/** What the step records (domain/payment-step.ts turns it into the output), and the form's own state. */
export interface PaymentContext extends PaymentEntry {
  supportPhone: string;
  allowedMethods: PaymentType[];
  cardFields: CardFieldsValidity;
  /** The alert to show (spec §8), or null. */
  error: string | null;
}

export type PaymentEvent =
  | { type: "CHOOSE_METHOD"; method: PaymentType }
  | { type: "CORRECT_COPAY"; new_copay: string | null }
  | ({ type: "CARD_FIELDS_CHANGED" } & CardFieldsValidity)
  | { type: "CONTINUE" }
  | { type: "AUTHORIZE" }
  | { type: "UNABLE_TO_PAY" }
  | { type: "CONFIRM" }
  | { type: "CANCEL" };

const NO_CARD_FIELDS: CardFieldsValidity = { number: false, cvv: false, expiration: false };

/** What the app (or a test) provides, as stand-ins that fail until it does. */
const paymentCalls = {
  setUpCardClient: fromPromise<void, SetUpCardClientInput>(async () => {
    throw new Error("provide setUpCardClient");
  }),
  authorizeCard: fromPromise<AuthorizeCardOutput, AuthorizeCardInput>(async () => {
    throw new Error("provide authorizeCard");
  }),
};
export type PaymentCalls = typeof paymentCalls;

/** The machine with these calls, built once by whoever runs it (the app with its own card adapters; see session.definition.ts). */
export const createPaymentMachine = (calls: Partial<PaymentCalls> = {}) =>
  setup({
    types: {
      input: {} as PaymentInput,
      context: {} as PaymentContext,
      events: {} as PaymentEvent,
      output: {} as PaymentOutput,
    },
    actors: {
      ...paymentCalls,
      ...calls,
    },
    guards: {
      /** Spec §5: only methods the pharmacy allows. */
      methodAllowed: ({ context, event }) => event.type === "CHOOSE_METHOD" && context.allowedMethods.includes(event.method),
      choosesCard: ({ event }) => event.type === "CHOOSE_METHOD" && event.method === "card",
      cashOrCheckChosen: ({ context }) => context.method === "cash" || context.method === "check",
      /** Spec §5: a corrected copay needs at least 3 digits, not all zeros (and at least $1.00). */
      copayCorrectionValid: ({ context }) => copayCorrectionValid(context),
      /** Spec §5: the card form is enabled only when number, cvv and expiration are all valid. */
      cardFieldsValid: ({ context }) => context.cardFields.number && context.cardFields.cvv && context.cardFields.expiration,
      canSkipCopayCollection: ({ context }) => context.order.pharmacy.can_skip_copay_collection,
    },
    actions: {
      chooseMethod: assign({
        method: ({ event }) => (event.type === "CHOOSE_METHOD" ? event.method : null),
        error: null,
      }),
      resetMethod: assign({ method: null, cardFields: NO_CARD_FIELDS, error: (_, failure: ApiFailure) => cardSetupErrorText(failure) }),
      correctCopay: assign({
        newCopay: ({ event }) => {
          if (event.type !== "CORRECT_COPAY" || event.new_copay == null) return null;
          const typed = event.new_copay.trim();
          return typed === "" ? null : typed;
        },
      }),
      setCardFields: assign({
        cardFields: ({ event }) =>
          event.type === "CARD_FIELDS_CHANGED" ? { number: event.number, cvv: event.cvv, expiration: event.expiration } : NO_CARD_FIELDS,
      }),
      clearError: assign({ error: null }),
      recordTransaction: assign({ transactionId: (_, authorized: AuthorizeCardOutput) => authorized.transaction_id }),
      showAuthorizationError: assign({ error: (_, failure: ApiFailure) => authorizationErrorText(failure) }),
      markCollected: assign({ outcome: "collected" as const }),
      markNotCollected: assign({ outcome: "not_collected" as const }),
      markCouldNotPay: assign({ outcome: "could_not_pay" as const }),
    },
  }).createMachine({
    id: "payment",
    description:
      "Payment: method choice (cash, check, card), copay correction, card form. 'Unable to pay' asks as the flow does (meta.confirmation, CONFIRM/CANCEL); the skip has two states as Cancel differs: card.confirmingSkip keeps the set-up card fields behind the dialog, confirmingSkip goes back to the method choice.",
    context: ({ input }) => ({
      order: input.order,
      supportPhone: input.supportPhone,
      allowedMethods: allowedPaymentMethods(input.order.pharmacy),
      method: null,
      newCopay: null,
      cardFields: NO_CARD_FIELDS,
      transactionId: null,
      outcome: null,
      error: null,
    }),
    initial: "choosing",
    output: ({ context }) => paymentOutputOf(context),
    states: {
      choosing: {
        description: "The method must be cash, check or card before continuing.",
        on: {
          CHOOSE_METHOD: [
            { guard: and(["methodAllowed", "choosesCard"]), target: "card", actions: "chooseMethod" },
            { guard: "methodAllowed", actions: "chooseMethod" },
          ],
          CORRECT_COPAY: { actions: "correctCopay" },
          CONTINUE: {
            guard: and(["cashOrCheckChosen", "copayCorrectionValid"]),
            target: "collected",
            description: "Cash or check: the amount is collected at the door.",
          },
          UNABLE_TO_PAY: [
            { guard: "canSkipCopayCollection", target: "confirmingSkip" },
            { target: "confirmingFailure" },
          ],
        },
      },
      card: {
        description: "Card: the hosted card fields.",
        initial: "settingUp",
        states: {
          settingUp: {
            description: "The hosted-fields client is set up with a client token.",
            invoke: {
              id: "setUpCardClient",
              src: "setUpCardClient",
              input: ({ context }) => ({ order_id: context.order.id }),
              onDone: { target: "entering" },
              onError: { target: "#payment.choosing", actions: { type: "resetMethod", params: ({ event }) => toApiFailure(event.error) }, description: "Card client setup failure: payment method reset to empty." },
            },
          },
          entering: {
            description: "The card form is enabled only when all card fields are valid and no authorization is pending.",
            on: {
              CARD_FIELDS_CHANGED: { actions: "setCardFields" },
              CORRECT_COPAY: { actions: "correctCopay" },
              CHOOSE_METHOD: { guard: and(["methodAllowed", not("choosesCard")]), target: "#payment.choosing", actions: "chooseMethod" },
              AUTHORIZE: { guard: and(["cardFieldsValid", "copayCorrectionValid"]), target: "authorizing" },
              UNABLE_TO_PAY: { target: "confirmingSkip", description: "The method is card: the medication can still be delivered." },
            },
          },
          authorizing: {
            description: "Waiting for the card authorization; the form is disabled.",
            entry: "clearError",
            invoke: {
              id: "authorizeCard",
              src: "authorizeCard",
              input: ({ context }) => authorizeCardInputOf(context),
              onDone: { target: "#payment.collected", actions: { type: "recordTransaction", params: ({ event }) => event.output } },
              onError: { target: "entering", actions: { type: "showAuthorizationError", params: ({ event }) => toApiFailure(event.error) }, description: "The failure is shown and the waiting flag resets." },
            },
          },
          confirmingSkip: {
            description: "Unable to pay by card: confirm that the payment was not collected; Cancel returns to the card form as it was.",
            meta: { confirmation: TEXT.unableToPaySkip },
            on: {
              CONFIRM: { target: "#payment.notCollected" },
              CANCEL: { target: "entering" },
            },
          },
        },
      },
      confirmingSkip: {
        description: "Unable to pay where the pharmacy can skip copay collection: confirm, then go to the signature; Cancel returns to the method choice.",
        meta: { confirmation: TEXT.unableToPaySkip },
        on: {
          CONFIRM: { target: "notCollected" },
          CANCEL: { target: "choosing" },
        },
      },
      confirmingFailure: {
        description: "Unable to pay: confirm the failed delivery; the order is marked attempted.",
        meta: { confirmation: TEXT.failedDeliveryConfirm },
        on: {
          CONFIRM: { target: "couldNotPay" },
          CANCEL: { target: "choosing" },
        },
      },
      collected: { type: "final", entry: "markCollected", description: "Paid: cash or check collected, or the card authorized." },
      notCollected: { type: "final", entry: "markNotCollected", description: "Delivered without payment; the provider is told by phone." },
      couldNotPay: { type: "final", entry: "markCouldNotPay", description: "Patient Could Not Provide Copayment." },
    },
  });
