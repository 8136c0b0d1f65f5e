import { assign, fromCallback, fromPromise, setup } from "xstate";
import { toApiFailure, type ApiFailure } from "../domain/api-failure.ts";
import type { OpsOrderDetail, OrderUpdateOpsRequest } from "../domain/contract/ops.ts";
import type { CustodyEntry, Proof } from "../domain/contract/ops-proof.ts";
import type { OrderWebhookDelivery } from "../domain/contract/ops-webhooks.ts";
import { orderActions, type StaffRole } from "../domain/order-actions.ts";
import { tellSessionEnded } from "./console-session-ended.ts";

/**
 * The dispatch console's order page (issue 27, /dispatch/orders/{id}): the
 * order, its status history, chain of custody, proof of delivery and the
 * webhooks sent about it, and what may be done to it in its state (edit and
 * cancel before pickup; assign, move to another courier, unassign while not
 * picked up, a dispatcher only — domain/order-actions.ts). Each change goes
 * through the operations API; its answer reloads the page, a refusal is said
 * in the server's words. A live event naming the order (ORDER_CHANGED) or
 * the window regaining focus (REFRESH) loads the page again.
 */
export interface OrderCourier {
  id: number;
  first_name: string;
  last_name: string;
}

export interface OrderPageData {
  order: OpsOrderDetail;
  custody: CustodyEntry[];
  /** Null until the order has an outcome (delivered, attempted, returned). */
  proof: Proof | null;
  deliveries: OrderWebhookDelivery[];
  /** Who the order may be assigned to: every courier for a dispatcher, none for a pharmacist. */
  couriers: OrderCourier[];
}

export interface ConsoleOrderContext {
  orderId: number;
  role: StaffRole;
  /** The staff session's CSRF token, sent with every change. */
  csrfToken: string | null;
  data: OrderPageData | null;
  /** The page could not load, in words. */
  error: string | null;
  failure: ApiFailure | null;
  /** The last change refused or failed, in words; cleared by the next change. */
  actionError: string | null;
  /** What the last change did ("Order cancelled."), for the page's status line. */
  notice: string | null;
  /** A change was announced while a load was on its way: load again after it. */
  stale: boolean;
}

export type ConsoleOrderEvent =
  | { type: "RETRY" }
  | { type: "REFRESH" }
  /** The event stream named this order. */
  | { type: "ORDER_CHANGED" }
  | { type: "EDIT" }
  | { type: "SAVE"; changes: OrderUpdateOpsRequest }
  | { type: "DISCARD" }
  | { type: "CANCEL_ORDER" }
  | { type: "CONFIRM_CANCEL" }
  | { type: "KEEP_ORDER" }
  | { type: "ASSIGN"; courierId: number }
  | { type: "UNASSIGN" };

/** A failed call in a dispatcher's words; a refusal (409, 422, 404) in the server's own. */
export function orderFailureText(failure: ApiFailure, doing: string): string {
  switch (failure.kind) {
    case "network":
    case "unavailable":
      return `The server cannot be reached, so ${doing} did not happen. Check the connection and try again.`;
    case "unauthenticated":
      return "Your session has ended. Please log in again.";
    case "forbidden":
      return `You are not allowed to do this: ${doing} did not happen.`;
    case "refused":
      return failure.message || `The server refused ${doing}.`;
    case "server":
    case "other":
      return `Something went wrong: ${doing} did not happen. Try again.`;
  }
}

const actionsOf = (context: ConsoleOrderContext) =>
  context.data ? orderActions({ status: context.data.order.status.name, courierId: context.data.order.courier_id }, context.role) : null;

export const consoleOrderMachine = setup({
  types: {
    context: {} as ConsoleOrderContext,
    events: {} as ConsoleOrderEvent,
    input: {} as { orderId: number; role: StaffRole; csrfToken: string | null },
  },
  actors: {
    loadOrder: fromPromise<OrderPageData, { orderId: number; role: StaffRole }>(async () => {
      throw new Error("provide loadOrder");
    }),
    updateOrder: fromPromise<void, { orderId: number; changes: OrderUpdateOpsRequest; csrfToken: string | null }>(async () => {
      throw new Error("provide updateOrder");
    }),
    cancelOrder: fromPromise<void, { orderId: number; csrfToken: string | null }>(async () => {
      throw new Error("provide cancelOrder");
    }),
    assignOrder: fromPromise<void, { orderId: number; courierId: number; serviceDate: string; csrfToken: string | null }>(async () => {
      throw new Error("provide assignOrder");
    }),
    unassignOrder: fromPromise<void, { orderId: number; csrfToken: string | null }>(async () => {
      throw new Error("provide unassignOrder");
    }),
    /** The event stream, sending ORDER_CHANGED for each event about this order; closed when the page closes. */
    orderEvents: fromCallback<ConsoleOrderEvent, { orderId: number }>(() => {
      throw new Error("provide orderEvents");
    }),
  },
  guards: {
    mayEdit: ({ context }) => actionsOf(context)?.edit === true,
    mayCancel: ({ context }) => actionsOf(context)?.cancel === true,
    mayAssignTo: ({ context, event }) => {
      if (event.type !== "ASSIGN" || !context.data) return false;
      const actions = actionsOf(context)!;
      const known = context.data.couriers.some((courier) => courier.id === event.courierId);
      const another = event.courierId !== context.data.order.courier_id;
      return known && another && (actions.assign || actions.reassign);
    },
    mayUnassign: ({ context }) => actionsOf(context)?.unassign === true,
    hasChanges: ({ event }) => event.type === "SAVE" && Object.keys(event.changes).length > 0,
    pageIsStale: ({ context }) => context.stale,
  },
  actions: {
    /** A call answered 401: the console's session hears it, by its system id, and takes the console to the login. */
    tellSessionEnded,
    storePage: assign((_, data: OrderPageData) => ({ data, error: null, failure: null, stale: false })),
    showLoadError: assign((_, failure: ApiFailure) => ({ error: orderFailureText(failure, "loading the order"), failure, stale: false })),
    showRefreshError: assign((_, failure: ApiFailure) => ({ actionError: orderFailureText(failure, "reloading the order"), failure, stale: false })),
    showActionError: assign((_, params: { failure: ApiFailure; doing: string }) => ({ actionError: orderFailureText(params.failure, params.doing), failure: params.failure, notice: null })),
    showNothingChanged: assign({ actionError: "Nothing was changed: change a field, or choose 'Discard changes'.", notice: null }),
    clearMessages: assign({ actionError: null, notice: null }),
    say: assign((_, notice: string) => ({ notice, actionError: null })),
    markStale: assign({ stale: true }),
  },
}).createMachine({
  id: "consoleOrder",
  description: "An order's page in the dispatch console: its record, proof and webhooks, and the changes its state allows.",
  context: ({ input }) => ({ orderId: input.orderId, role: input.role, csrfToken: input.csrfToken, data: null, error: null, failure: null, actionError: null, notice: null, stale: false }),
  initial: "loading",
  states: {
    loading: {
      description: "GET the order, its custody, its proof (once it has an outcome), its webhooks and, for a dispatcher, the couriers.",
      invoke: {
        id: "loadOrder",
        src: "loadOrder",
        input: ({ context }) => ({ orderId: context.orderId, role: context.role }),
        onDone: { target: "ready", actions: { type: "storePage", params: ({ event }) => event.output } },
        onError: { target: "failed", actions: [{ type: "showLoadError", params: ({ event }) => toApiFailure(event.error) }, { type: "tellSessionEnded", params: ({ event }) => toApiFailure(event.error) }] },
      },
    },
    failed: {
      description: "The order could not load (not found, not the pharmacist's, the network): the reason and 'Try again'.",
      on: { RETRY: { target: "loading" } },
    },
    ready: {
      description: "The order page: live while open.",
      invoke: { id: "orderEvents", src: "orderEvents", input: ({ context }) => ({ orderId: context.orderId }) },
      initial: "idle",
      states: {
        idle: {
          description: "The order and the actions its state allows.",
          on: {
            EDIT: { guard: "mayEdit", target: "editing", actions: "clearMessages", description: "'Edit order': before pickup only." },
            CANCEL_ORDER: { guard: "mayCancel", target: "confirmingCancel", actions: "clearMessages", description: "'Cancel order': before pickup only; asks first." },
            ASSIGN: { guard: "mayAssignTo", target: "assigning", actions: "clearMessages", description: "'Assign' (or 'Move to courier'): a dispatcher, not picked up." },
            UNASSIGN: { guard: "mayUnassign", target: "unassigning", actions: "clearMessages", description: "'Unassign': a dispatcher, not picked up." },
            REFRESH: { target: "refreshing", description: "The window regained focus." },
            ORDER_CHANGED: { target: "refreshing", description: "The stream announced a change of this order." },
          },
        },
        editing: {
          description: "The edit form; a change elsewhere is loaded once the form is left.",
          on: {
            SAVE: [
              { guard: "hasChanges", target: "saving" },
              { actions: "showNothingChanged", description: "No field changed: nothing to send." },
            ],
            DISCARD: [
              { guard: "pageIsStale", target: "refreshing", actions: "clearMessages", description: "The order changed while the form was open: load it." },
              { target: "idle", actions: "clearMessages" },
            ],
            ORDER_CHANGED: { actions: "markStale" },
          },
        },
        saving: {
          description: "The changes checked by the API's rules (domain/order-changes.ts; a refusal is said, nothing sent), then PATCH /api/ops/v1/orders/{id}.",
          invoke: {
            id: "updateOrder",
            src: "updateOrder",
            input: ({ context, event }) => ({ orderId: context.orderId, changes: event.type === "SAVE" ? event.changes : {}, csrfToken: context.csrfToken }),
            onDone: { target: "refreshing", actions: { type: "say", params: "Changes saved." } },
            onError: { target: "editing", actions: [{ type: "showActionError", params: ({ event }) => ({ failure: toApiFailure(event.error), doing: "saving the changes" }) }, { type: "tellSessionEnded", params: ({ event }) => toApiFailure(event.error) }] },
          },
        },
        confirmingCancel: {
          description: "'Cancel this order?' with 'Yes, cancel order' and 'Keep order'.",
          on: { CONFIRM_CANCEL: { target: "cancelling" }, KEEP_ORDER: { target: "idle" } },
        },
        cancelling: {
          description: "POST /api/ops/v1/orders/{id}/cancellation",
          invoke: {
            id: "cancelOrder",
            src: "cancelOrder",
            input: ({ context }) => ({ orderId: context.orderId, csrfToken: context.csrfToken }),
            onDone: { target: "refreshing", actions: { type: "say", params: "Order cancelled." } },
            onError: { target: "idle", actions: [{ type: "showActionError", params: ({ event }) => ({ failure: toApiFailure(event.error), doing: "cancelling the order" }) }, { type: "tellSessionEnded", params: ({ event }) => toApiFailure(event.error) }] },
          },
        },
        assigning: {
          description: "POST /api/ops/v1/assignments for the order's service date.",
          invoke: {
            id: "assignOrder",
            src: "assignOrder",
            input: ({ context, event }) => ({
              orderId: context.orderId,
              courierId: event.type === "ASSIGN" ? event.courierId : 0,
              serviceDate: context.data!.order.service_date,
              csrfToken: context.csrfToken,
            }),
            onDone: { target: "refreshing", actions: { type: "say", params: "Order assigned." } },
            onError: { target: "idle", actions: [{ type: "showActionError", params: ({ event }) => ({ failure: toApiFailure(event.error), doing: "assigning the order" }) }, { type: "tellSessionEnded", params: ({ event }) => toApiFailure(event.error) }] },
          },
        },
        unassigning: {
          description: "DELETE /api/ops/v1/assignments/{order_id}",
          invoke: {
            id: "unassignOrder",
            src: "unassignOrder",
            input: ({ context }) => ({ orderId: context.orderId, csrfToken: context.csrfToken }),
            onDone: { target: "refreshing", actions: { type: "say", params: "Order unassigned." } },
            onError: { target: "idle", actions: [{ type: "showActionError", params: ({ event }) => ({ failure: toApiFailure(event.error), doing: "unassigning the order" }) }, { type: "tellSessionEnded", params: ({ event }) => toApiFailure(event.error) }] },
          },
        },
        refreshing: {
          description: "Loading the order again; the page stays on screen.",
          invoke: {
            id: "loadOrder",
            src: "loadOrder",
            input: ({ context }) => ({ orderId: context.orderId, role: context.role }),
            onDone: [
              { guard: "pageIsStale", target: "refreshing", reenter: true, actions: { type: "storePage", params: ({ event }) => event.output } },
              { target: "idle", actions: { type: "storePage", params: ({ event }) => event.output } },
            ],
            onError: { target: "idle", actions: [{ type: "showRefreshError", params: ({ event }) => toApiFailure(event.error) }, { type: "tellSessionEnded", params: ({ event }) => toApiFailure(event.error) }] },
          },
          on: { ORDER_CHANGED: { actions: "markStale" }, REFRESH: { actions: "markStale" } },
        },
      },
    },
  },
});
