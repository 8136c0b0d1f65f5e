import { assign, fromPromise, sendTo, setup } from "xstate";
import { failureText, toApiFailure } from "../domain/api-failure.ts";
import type { Order } from "../domain/contract/entities.ts";
import { copayAnswered, copayForApi } from "../domain/copay.ts";
import { MAX_ADDON_ORDERS } from "../domain/pharmacy-progress.ts";
import { TEXT } from "../domain/texts.ts";
import { statusByName } from "../domain/vocabulary.ts";
import { nextOrderStatus } from "./order-status.ts";
import { SYSTEM_IDS } from "./system-ids.ts";

/**
 * Add-on check-in (spec §2 /{pharmacyId}/addons, §4, §5 Add-ons): orders the
 * pharmacy has that are not on the courier's list. The courier chooses at most
 * 3 in total, gives each its copay, confirms, and they join the day as
 * picked_up with addedOn=true.
 */

export interface AddonsInput {
  pharmacyId: number;
  /** The courier's service window (sent with the add-ons). */
  serviceWindowInstanceId: number | null;
  /** Add-ons the courier already took at this pharmacy today: they count toward the 3. */
  alreadyAdded: number;
}

export interface ChosenAddon {
  id: number;
  /** The copay as typed (masked as dollars). */
  copay: string;
  noCopay: boolean;
}

export interface AddonsContext extends AddonsInput {
  offered: Order[];
  chosen: ChosenAddon[];
  /** The add-ons as they now stand on the device, once the server took them. */
  added: Order[];
  /** What CONFIRM sends: the chosen add-ons with their copays as decimal strings. */
  submission: AddonsSubmission | null;
  error: string | null;
}

export type AddonsEvent =
  | { type: "RETRY" }
  | { type: "CHOOSE"; orderId: number }
  | { type: "UNCHOOSE"; orderId: number }
  | { type: "SET_NO_COPAY"; orderId: number; checked: boolean }
  | { type: "CHANGE_COPAY"; orderId: number; value: string }
  | { type: "HELP" }
  | { type: "BACK" }
  | { type: "REVIEW" }
  | { type: "CONFIRM" }
  | { type: "DISMISS_ERROR" };

export interface AddonsSubmission {
  pharmacyId: number;
  orders: { id: number; copay: string }[];
  service_window_instance_id: number | null;
}

export interface AddonsOutput {
  orders: Order[];
}

const targetId = (event: AddonsEvent) => ("orderId" in event ? event.orderId : null);

/** What the app (or a test) provides, as stand-ins that fail until it does. */
const addonsCalls = {
  /** GET courier/pharmacies/{id}/addons → data.orders */
  fetchAddons: fromPromise<Order[], { pharmacyId: number }>(async () => {
    throw new Error("provide fetchAddons");
  }),
  /** POST courier/pharmacies/{id}/addons {orders:[{id, copay}], service_window_instance_id} */
  submitAddons: fromPromise<unknown, AddonsSubmission>(async () => {
    throw new Error("provide submitAddons");
  }),
};
export type AddonsCalls = typeof addonsCalls;

/** The machine with these calls, built once by whoever runs it (the app with its own; see session.definition.ts). */
export const createAddonsMachine = (calls: Partial<AddonsCalls> = {}) =>
  setup({
    types: {
      context: {} as AddonsContext,
      events: {} as AddonsEvent,
      input: {} as AddonsInput,
      output: {} as AddonsOutput,
    },
    actors: {
      ...addonsCalls,
      ...calls,
    },
    guards: {
      /** Spec §5: maximum 3 add-ons, counting those already taken today. */
      atMaximum: ({ context, event }) =>
        context.offered.some((order) => order.id === targetId(event)) &&
        !context.chosen.some((choice) => choice.id === targetId(event)) &&
        context.alreadyAdded + context.chosen.length >= MAX_ADDON_ORDERS,
      canChoose: ({ context, event }) =>
        context.offered.some((order) => order.id === targetId(event)) &&
        !context.chosen.some((choice) => choice.id === targetId(event)),
      isChosen: ({ context, event }) => context.chosen.some((choice) => choice.id === targetId(event)),
      /** Confirm only with at least one add-on, each with 'No copay' ticked or a valid copay. */
      readyToReview: ({ context }) => context.chosen.length > 0 && context.chosen.every((choice) => copayAnswered(choice.copay, choice.noCopay)),
    },
    actions: {
      /** The add-ons join the day, picked up: the machine runs in the application's system. */
      reportAdded: sendTo(
        ({ system }) => system.get(SYSTEM_IDS.courierDay),
        ({ context }) => ({ type: "ORDERS_CHANGED", orders: context.added }),
      ),
      storeOffered: assign((_, offered: Order[]) => ({ offered, error: null })),
      choose: assign(({ context, event }) =>
        event.type === "CHOOSE" ? { chosen: [...context.chosen, { id: event.orderId, copay: "", noCopay: false }], error: null } : {},
      ),
      unchoose: assign(({ context, event }) =>
        event.type === "UNCHOOSE" ? { chosen: context.chosen.filter((choice) => choice.id !== event.orderId), error: null } : {},
      ),
      setNoCopay: assign(({ context, event }) => {
        if (event.type !== "SET_NO_COPAY") return {};
        // As on the verify screen: ticking 'No copay' clears the amount.
        return {
          chosen: context.chosen.map((choice) =>
            choice.id === event.orderId ? { ...choice, noCopay: event.checked, copay: event.checked ? "" : choice.copay } : choice,
          ),
        };
      }),
      setCopay: assign(({ context, event }) => {
        if (event.type !== "CHANGE_COPAY") return {};
        // Typing an amount unticks 'No copay'.
        return {
          chosen: context.chosen.map((choice) =>
            choice.id === event.orderId
              ? { ...choice, copay: event.value, noCopay: event.value.trim() === "" ? choice.noCopay : false }
              : choice,
          ),
        };
      }),
      prepareSubmission: assign(({ context }) => ({
        submission: {
          pharmacyId: context.pharmacyId,
          orders: context.chosen.map((choice) => ({ id: choice.id, copay: copayForApi(choice.copay, choice.noCopay) ?? "0.00" })),
          service_window_instance_id: context.serviceWindowInstanceId,
        },
      })),
      showMaxReached: assign({ error: TEXT.maxAddonCount }),
      showFailure: assign((_, error: unknown) => ({ error: failureText(toApiFailure(error)) })),
      clearError: assign({ error: null }),
      /** Spec §4: add-on orders are added locally with status picked_up, a copay and addedOn=true. */
      markAdded: assign(({ context }) => ({
        added: context.chosen.flatMap((choice) => {
          const order = context.offered.find((offer) => offer.id === choice.id);
          if (!order) return [];
          const { id, name } = statusByName(nextOrderStatus(order.status.name, "PICK_UP") ?? "picked_up");
          return [{ ...order, status: { id, name }, copay: copayForApi(choice.copay, choice.noCopay) ?? "0.00", addedOn: true, service_window_instance_id: context.serviceWindowInstanceId ?? order.service_window_instance_id }];
        }),
        error: null,
      })),
    },
  }).createMachine({
    id: "addons",
    description: "Add-on check-in: orders at the pharmacy that are not on the courier's list (at most 3).",
    context: ({ input }) => ({ ...input, offered: [], chosen: [], added: [], submission: null, error: null }),
    initial: "loading",
    states: {
      loading: {
        description: "GET courier/pharmacies/{id}/addons.",
        invoke: {
          id: "fetchAddons",
          src: "fetchAddons",
          input: ({ context }) => ({ pharmacyId: context.pharmacyId }),
          onDone: { target: "choosing", actions: { type: "storeOffered", params: ({ event }) => event.output } },
          onError: {
            target: "loadFailed",
            actions: { type: "showFailure", params: ({ event }: { event: { error: unknown } }) => event.error },
          },
        },
      },
      loadFailed: {
        description: "The add-ons could not be loaded: the alert says why.",
        on: { RETRY: { target: "loading", actions: "clearError", description: "Try again." } },
      },
      choosing: {
        description: "Choose the add-on orders in hand and give each its copay.",
        on: {
          CHOOSE: [
            { guard: "atMaximum", actions: "showMaxReached", description: "Max addon count reached" },
            { guard: "canChoose", actions: "choose", description: "Add this order." },
          ],
          UNCHOOSE: { guard: "isChosen", actions: "unchoose", description: "Leave this order out." },
          SET_NO_COPAY: { guard: "isChosen", actions: "setNoCopay", description: "Tick 'No copay'; ticking clears the amount." },
          CHANGE_COPAY: { guard: "isChosen", actions: "setCopay", description: "Type the copay; typing an amount unticks 'No copay'." },
          HELP: { target: "help", description: "The Help sub-view." },
          REVIEW: { guard: "readyToReview", target: "confirming", description: "On to the confirm sub-view." },
          DISMISS_ERROR: { actions: "clearError", description: "Close the alert." },
        },
      },
      help: {
        description: "Help sub-view: what an add-on is and whom to call.",
        on: { BACK: { target: "choosing", description: "Back to the add-ons." } },
      },
      confirming: {
        description: "Confirm sub-view: the chosen add-ons and their copays.",
        on: {
          CONFIRM: { target: "submitting", actions: ["clearError", "prepareSubmission"], description: "Add these orders." },
          BACK: { target: "choosing", actions: "clearError", description: "Change the choice." },
        },
      },
      submitting: {
        description: "POST courier/pharmacies/{id}/addons.",
        invoke: {
          id: "submitAddons",
          src: "submitAddons",
          input: ({ context }) => context.submission!,
          onDone: { target: "added", actions: "markAdded" },
          onError: {
            target: "confirming",
            actions: { type: "showFailure", params: ({ event }: { event: { error: unknown } }) => event.error },
          },
        },
      },
      added: { type: "final", entry: "reportAdded", description: "The add-ons are on the courier's list, picked up." },
    },
    output: ({ context }) => ({ orders: context.added }),
  });
