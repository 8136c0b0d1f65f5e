import { assign, fromCallback, fromPromise, setup } from "xstate";
import { toApiFailure, type ApiFailure } from "../domain/api-failure.ts";
import { moveRefusal } from "../domain/assignment-rules.ts";
import type { OpsOrder } from "../domain/contract/ops.ts";
import { statusByName } from "../domain/vocabulary.ts";

/**
 * The dispatch console's day board (issue 27): the day's orders and couriers
 * for a service date, kept current by the live event stream, and assigning.
 * Three regions:
 * - data: loading, ready, refreshing after a live event, failed;
 * - connection to GET /api/ops/v1/events: connecting, live, reconnecting
 *   (the browser's EventSource reconnects by itself with Last-Event-ID);
 * - assignment: idle, assigning, unassigning. A change shows at once (the
 *   pending change is laid over the orders as loaded: boardOrders) and the
 *   server's answer replaces it; when the server refuses, the pending change
 *   is dropped (the board rolls back) and the reason is said in words.
 * The selection (checkboxes, shift-click ranges) and the chosen courier are
 * context. The console provides the calls (src/console/api/board.ts).
 */
export interface BoardCourier {
  id: number;
  first_name: string;
  last_name: string;
}

export interface BoardData {
  orders: OpsOrder[];
  /** The couriers one may assign to (dispatch only; a pharmacist gets none and names couriers by their orders). */
  couriers: BoardCourier[];
}

/** A change shown before the server answers (optimistic). */
export type PendingChange = { kind: "assign"; orderIds: number[]; courier: BoardCourier } | { kind: "unassign"; orderIds: number[] };

export interface BoardNotice {
  tone: "done" | "refused";
  text: string;
}

export interface ConsoleBoardContext extends BoardData {
  serviceDate: string;
  /** The staff session's CSRF token, sent with every change. */
  csrfToken: string | null;
  /** The last load's failure, in words; null once a load succeeds. */
  error: string | null;
  /** The failure itself, so the console can tell a session that ended (401) from the rest. */
  failure: ApiFailure | null;
  /** A live event arrived while a load was on its way: its answer may predate the change, so load again. */
  stale: boolean;
  /** The selected orders' ids, in the order they were selected. */
  selected: number[];
  /** The last order checked or unchecked without shift: a shift-click selects from here. */
  anchor: number | null;
  /** The courier chosen in 'Courier'. */
  courierId: number | null;
  /** The assignment or unassignment on its way to the server, shown meanwhile. */
  pending: PendingChange | null;
  /** The last assignment's outcome in words. */
  notice: BoardNotice | null;
}

export type ConsoleBoardEvent =
  | { type: "SET_SERVICE_DATE"; serviceDate: string }
  | { type: "RETRY" }
  | { type: "STREAM_OPEN" }
  | { type: "STREAM_ERROR" }
  /** A change of the day was announced on the stream (any event: the board reloads what it shows). */
  | { type: "STREAM_EVENT" }
  /** A checkbox: checked if it was not, unchecked if it was. */
  | { type: "TOGGLE_ORDER"; orderId: number }
  /** A shift-click: the view's rows from the anchor to this one (the anchor's state is given to them all). */
  | { type: "SELECT_RANGE"; orderIds: number[] }
  | { type: "CLEAR_SELECTION" }
  | { type: "CHOOSE_COURIER"; courierId: number | null }
  | { type: "ASSIGN" }
  | { type: "UNASSIGN"; orderId: number }
  | { type: "DISMISS_NOTICE" };

const CALENDAR_DAY = /^\d{4}-\d{2}-\d{2}$/;

/** A failed load in a dispatcher's words (the courier's texts speak of a phone and its next page). */
export function boardFailureText(failure: ApiFailure): string {
  switch (failure.kind) {
    case "network":
    case "unavailable":
      return "The server cannot be reached. Check the connection, then choose 'Try again'.";
    case "unauthenticated":
      return "Your session has ended. Please log in again.";
    case "forbidden":
      return "You are not allowed to see this board.";
    case "refused":
      return failure.message || "The board could not be loaded. Choose 'Try again'.";
    case "server":
    case "other":
      return "Something went wrong loading the board. Choose 'Try again'.";
  }
}

/** A refused assignment or unassignment in words; the board is back as it was. */
export function changeFailureText(failure: ApiFailure, kind: PendingChange["kind"]): string {
  const what = kind === "assign" ? "The orders were not assigned" : "The order was not unassigned";
  switch (failure.kind) {
    case "network":
    case "unavailable":
      return `${what}: the server cannot be reached. Check the connection and try again.`;
    case "unauthenticated":
      return "Your session has ended. Please log in again.";
    case "forbidden":
      return `${what}: only a dispatcher may assign orders.`;
    case "refused":
      return `${what}: ${failure.message}`;
    case "server":
    case "other":
      return `${what}: something went wrong. Try again.`;
  }
}

const NEW = statusByName("new");
const SUBMITTED = statusByName("submitted_to_courier");

/**
 * The orders as the board shows them: as loaded, with the pending change
 * laid over (a new order goes to the courier as submitted; an unassigned one
 * is new again, without a place in any plan).
 */
export function boardOrders(orders: OpsOrder[], pending: PendingChange | null): OpsOrder[] {
  if (!pending) return orders;
  const ids = new Set(pending.orderIds);
  return orders.map((order) => {
    if (!ids.has(order.id)) return order;
    if (pending.kind === "unassign") return { ...order, courier_id: null, courier: null, planned_position: null, status: { id: NEW.id, name: NEW.name } };
    const moved = order.courier_id !== pending.courier.id;
    return {
      ...order,
      courier_id: pending.courier.id,
      courier: { ...pending.courier },
      planned_position: moved ? null : order.planned_position,
      status: order.status.name === "new" ? { id: SUBMITTED.id, name: SUBMITTED.name } : order.status,
    };
  });
}

/** The server's answer replaces the orders it names; the rest stay. */
function mergeOrders(orders: OpsOrder[], changed: OpsOrder[]): OpsOrder[] {
  const byId = new Map(changed.map((order) => [order.id, order]));
  return orders.map((order) => byId.get(order.id) ?? order);
}

function ordersNamed(context: ConsoleBoardContext, ids: readonly number[]): OpsOrder[] {
  const wanted = new Set(ids);
  return context.orders.filter((order) => wanted.has(order.id));
}

function courierName(courier: BoardCourier): string {
  return `${courier.first_name} ${courier.last_name}`;
}

export interface AssignInput {
  csrfToken: string | null;
  courierId: number;
  serviceDate: string;
  orderIds: number[];
}

export const consoleBoardMachine = setup({
  types: {
    context: {} as ConsoleBoardContext,
    events: {} as ConsoleBoardEvent,
    input: {} as { serviceDate: string; csrfToken?: string | null },
  },
  actors: {
    loadBoard: fromPromise<BoardData, { serviceDate: string }>(async () => {
      throw new Error("provide loadBoard");
    }),
    /** Opens the event stream and sends STREAM_OPEN, STREAM_ERROR and STREAM_EVENT back; closes it when stopped. */
    eventStream: fromCallback<ConsoleBoardEvent>(() => {
      throw new Error("provide eventStream");
    }),
    /** POST /api/ops/v1/assignments: the orders as the server now has them. */
    assignOrders: fromPromise<OpsOrder[], AssignInput>(async () => {
      throw new Error("provide assignOrders");
    }),
    /** DELETE /api/ops/v1/assignments/{order_id}: the order as the server now has it. */
    unassignOrder: fromPromise<OpsOrder, { csrfToken: string | null; orderId: number }>(async () => {
      throw new Error("provide unassignOrder");
    }),
  },
  guards: {
    isAnotherValidDay: ({ context, event }) =>
      event.type === "SET_SERVICE_DATE" && CALENDAR_DAY.test(event.serviceDate) && event.serviceDate !== context.serviceDate,
    boardIsStale: ({ context }) => context.stale,
    isOnTheBoard: ({ context, event }) => event.type === "TOGGLE_ORDER" && context.orders.some((order) => order.id === event.orderId),
    rangeIsOnTheBoard: ({ context, event }) =>
      event.type === "SELECT_RANGE" && event.orderIds.length > 0 && event.orderIds.every((id) => context.orders.some((order) => order.id === id)),
    isAKnownCourier: ({ context, event }) => event.type === "CHOOSE_COURIER" && (event.courierId === null || context.couriers.some((courier) => courier.id === event.courierId)),
    nothingSelected: ({ context }) => context.selected.length === 0,
    noCourierChosen: ({ context }) => context.courierId === null,
    selectionCannotMove: ({ context }) => ordersNamed(context, context.selected).some((order) => moveRefusal(order) !== null),
    orderCannotComeOff: ({ context, event }) => {
      if (event.type !== "UNASSIGN") return true;
      const order = context.orders.find((candidate) => candidate.id === event.orderId);
      return !order || order.courier_id === null || moveRefusal(order) !== null;
    },
  },
  actions: {
    setServiceDate: assign(({ event }) =>
      event.type === "SET_SERVICE_DATE" ? { serviceDate: event.serviceDate, orders: [], couriers: [], stale: false, selected: [], anchor: null, notice: null } : {},
    ),
    storeBoard: assign(({ context }, data: BoardData) => {
      // A selection keeps the orders still on the board; a courier no longer listed is chosen no more.
      const present = new Set(data.orders.map((order) => order.id));
      const courierId = context.courierId !== null && data.couriers.some((courier) => courier.id === context.courierId) ? context.courierId : null;
      return {
        orders: data.orders,
        couriers: data.couriers,
        error: null,
        failure: null,
        stale: false,
        selected: context.selected.filter((id) => present.has(id)),
        anchor: context.anchor !== null && present.has(context.anchor) ? context.anchor : null,
        courierId,
      };
    }),
    showLoadError: assign((_, failure: ApiFailure) => ({ error: boardFailureText(failure), failure, stale: false })),
    markStale: assign({ stale: true }),
    toggleOrder: assign(({ context, event }) => {
      if (event.type !== "TOGGLE_ORDER") return {};
      const selected = context.selected.includes(event.orderId) ? context.selected.filter((id) => id !== event.orderId) : [...context.selected, event.orderId];
      return { selected, anchor: event.orderId };
    }),
    /** The range takes the anchor's state: checking from a checked row checks them all, from an unchecked one unchecks them. */
    selectRange: assign(({ context, event }) => {
      if (event.type !== "SELECT_RANGE") return {};
      const check = context.anchor === null || context.selected.includes(context.anchor);
      const range = new Set(event.orderIds);
      const selected = check ? [...context.selected, ...event.orderIds.filter((id) => !context.selected.includes(id))] : context.selected.filter((id) => !range.has(id));
      return { selected, anchor: context.anchor ?? event.orderIds[event.orderIds.length - 1] ?? null };
    }),
    clearSelection: assign({ selected: [], anchor: null }),
    chooseCourier: assign(({ event }) => (event.type === "CHOOSE_COURIER" ? { courierId: event.courierId } : {})),
    sayNothingSelected: assign({ notice: { tone: "refused", text: "Select at least one order, then choose 'Assign'." } as BoardNotice }),
    sayNoCourier: assign({ notice: { tone: "refused", text: "Choose a courier in 'Courier', then choose 'Assign'." } as BoardNotice }),
    saySelectionCannotMove: assign(({ context }) => {
      const reasons = ordersNamed(context, context.selected).flatMap((order) => moveRefusal(order) ?? []);
      const text = reasons.length === 1 ? `Nothing was assigned: ${reasons[0]}` : `Nothing was assigned: ${reasons.length} of the selected orders are already picked up or done. ${reasons[0]}`;
      return { notice: { tone: "refused", text } as BoardNotice };
    }),
    sayCannotComeOff: assign(({ context, event }) => {
      const order = event.type === "UNASSIGN" ? context.orders.find((candidate) => candidate.id === event.orderId) : undefined;
      const reason = order ? moveRefusal(order) : null;
      const text = !order ? "That order is no longer on the board." : reason ? `Nothing was unassigned: ${reason}` : "That order has no courier.";
      return { notice: { tone: "refused", text } as BoardNotice };
    }),
    startAssigning: assign(({ context }) => ({
      pending: { kind: "assign", orderIds: [...context.selected], courier: context.couriers.find((courier) => courier.id === context.courierId)! } as PendingChange,
      notice: null,
    })),
    startUnassigning: assign(({ event }) => (event.type === "UNASSIGN" ? { pending: { kind: "unassign", orderIds: [event.orderId] } as PendingChange, notice: null } : {})),
    /** The server's orders replace the pending change; the selection is done with. */
    keepAssignment: assign(({ context }, changed: OpsOrder[]) => {
      const pending = context.pending;
      const count = pending?.orderIds.length ?? changed.length;
      const noun = count === 1 ? "order" : "orders";
      const text = pending?.kind === "assign" ? `${count} ${noun} assigned to ${courierName(pending.courier)}.` : `${count} ${noun} unassigned.`;
      const done = new Set(pending?.orderIds ?? []);
      return {
        orders: mergeOrders(context.orders, changed),
        pending: null,
        selected: context.selected.filter((id) => !done.has(id)),
        anchor: null,
        notice: { tone: "done", text } as BoardNotice,
      };
    }),
    /** Refused: the pending change goes, and the board is as the server has it; the selection stays for another try. */
    rollBack: assign(({ context }, failure: ApiFailure) => ({
      pending: null,
      failure: failure.kind === "unauthenticated" ? failure : context.failure,
      notice: { tone: "refused", text: changeFailureText(failure, context.pending?.kind ?? "assign") } as BoardNotice,
    })),
    dismissNotice: assign({ notice: null }),
  },
}).createMachine({
  id: "consoleBoard",
  description: "The day board: a service date's orders by courier, live, and assigning them.",
  context: ({ input }) => ({
    serviceDate: input.serviceDate,
    csrfToken: input.csrfToken ?? null,
    orders: [],
    couriers: [],
    error: null,
    failure: null,
    stale: false,
    selected: [],
    anchor: null,
    courierId: null,
    pending: null,
    notice: null,
  }),
  type: "parallel",
  states: {
    data: {
      initial: "loading",
      on: {
        SET_SERVICE_DATE: { guard: "isAnotherValidDay", target: ".loading", actions: "setServiceDate", description: "The 'Service date' input picks another day." },
      },
      states: {
        loading: {
          description: "GET /api/ops/v1/orders?service_date=… (every page) and GET /api/ops/v1/couriers",
          invoke: {
            id: "loadBoard",
            src: "loadBoard",
            input: ({ context }) => ({ serviceDate: context.serviceDate }),
            onDone: [
              { guard: "boardIsStale", target: "refreshing", actions: { type: "storeBoard", params: ({ event }) => event.output } },
              { target: "ready", actions: { type: "storeBoard", params: ({ event }) => event.output } },
            ],
            onError: { target: "failed", actions: { type: "showLoadError", params: ({ event }) => toApiFailure(event.error) } },
          },
          on: { STREAM_EVENT: { actions: "markStale" } },
        },
        ready: {
          description: "The board shows the day.",
          on: { STREAM_EVENT: { target: "refreshing", description: "A change of the day: load the board again, showing the current one meanwhile." } },
        },
        refreshing: {
          description: "Reloading after a live event; the board stays on screen (a pending change stays laid over it).",
          invoke: {
            id: "loadBoard",
            src: "loadBoard",
            input: ({ context }) => ({ serviceDate: context.serviceDate }),
            onDone: [
              { guard: "boardIsStale", target: "refreshing", reenter: true, actions: { type: "storeBoard", params: ({ event }) => event.output } },
              { target: "ready", actions: { type: "storeBoard", params: ({ event }) => event.output } },
            ],
            // The board as last loaded stays, with the failure said above it.
            onError: { target: "ready", actions: { type: "showLoadError", params: ({ event }) => toApiFailure(event.error) } },
          },
          on: { STREAM_EVENT: { actions: "markStale" } },
        },
        failed: {
          description: "The board could not load: the failure in words and 'Try again'.",
          on: { RETRY: { target: "loading" }, STREAM_EVENT: { target: "loading", description: "The server is back and the day changed." } },
        },
      },
    },
    connection: {
      initial: "connecting",
      invoke: { id: "eventStream", src: "eventStream" },
      states: {
        connecting: {
          description: "Opening GET /api/ops/v1/events.",
          on: { STREAM_OPEN: { target: "live" }, STREAM_ERROR: { target: "reconnecting" } },
        },
        live: {
          description: "'Live': changes show as they happen.",
          on: { STREAM_ERROR: { target: "reconnecting" } },
        },
        reconnecting: {
          description: "'Reconnecting…': the browser reopens the stream and resumes after the last event (Last-Event-ID).",
          on: { STREAM_OPEN: { target: "live" } },
        },
      },
    },
    assignment: {
      initial: "idle",
      on: {
        TOGGLE_ORDER: { guard: "isOnTheBoard", actions: "toggleOrder", description: "A checkbox named by the patient and the pharmacy's reference." },
        SELECT_RANGE: { guard: "rangeIsOnTheBoard", actions: "selectRange", description: "Shift-click: every row from the last checkbox to this one." },
        CLEAR_SELECTION: { actions: "clearSelection" },
        CHOOSE_COURIER: { guard: "isAKnownCourier", actions: "chooseCourier", description: "The select labelled 'Courier'." },
        DISMISS_NOTICE: { actions: "dismissNotice" },
      },
      states: {
        idle: {
          description: "Select orders, choose a courier, 'Assign'; or 'Unassign' an order not yet picked up.",
          on: {
            ASSIGN: [
              { guard: "nothingSelected", actions: "sayNothingSelected" },
              { guard: "noCourierChosen", actions: "sayNoCourier" },
              { guard: "selectionCannotMove", actions: "saySelectionCannotMove", description: "The API's rule: a picked-up order cannot move; said in words, nothing is sent." },
              { target: "assigning", actions: "startAssigning" },
            ],
            UNASSIGN: [
              { guard: "orderCannotComeOff", actions: "sayCannotComeOff" },
              { target: "unassigning", actions: "startUnassigning" },
            ],
          },
        },
        assigning: {
          description: "POST /api/ops/v1/assignments; the board already shows them with the courier.",
          invoke: {
            id: "assignOrders",
            src: "assignOrders",
            input: ({ context }) => ({
              csrfToken: context.csrfToken,
              courierId: context.pending?.kind === "assign" ? context.pending.courier.id : 0,
              serviceDate: context.serviceDate,
              orderIds: context.pending?.orderIds ?? [],
            }),
            onDone: { target: "idle", actions: { type: "keepAssignment", params: ({ event }) => event.output } },
            onError: { target: "idle", actions: { type: "rollBack", params: ({ event }) => toApiFailure(event.error) }, description: "Refused: the board rolls back, the reason in words." },
          },
        },
        unassigning: {
          description: "DELETE /api/ops/v1/assignments/{order_id}; the board already shows it unassigned.",
          invoke: {
            id: "unassignOrder",
            src: "unassignOrder",
            input: ({ context }) => ({ csrfToken: context.csrfToken, orderId: context.pending?.orderIds[0] ?? 0 }),
            onDone: { target: "idle", actions: { type: "keepAssignment", params: ({ event }) => [event.output] } },
            onError: { target: "idle", actions: { type: "rollBack", params: ({ event }) => toApiFailure(event.error) }, description: "Refused: the board rolls back, the reason in words." },
          },
        },
      },
    },
  },
});
