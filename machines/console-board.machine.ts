import { assign, fromCallback, fromPromise, setup, stateIn } from "xstate";
import { toApiFailure, type ApiFailure } from "../domain/api-failure.ts";
import { moveRefusal } from "../domain/assignment-rules.ts";
import type { OpsOrder } from "../domain/contract/ops.ts";
import { statusByName } from "../domain/vocabulary.ts";
import { tellSessionEnded } from "./console-session-ended.ts";
import { liveConnectionRegion } from "./live-connection.ts";

/**
 * The dispatch console's day board (issue 27): the day's orders and couriers
 * for a service date, kept current by the live event stream, and assigning.
 * Three regions:
 * - data: loading, ready, updating the orders a live event names (only
 *   those: GET /api/ops/v1/orders/{id}), refreshing (the whole day again:
 *   an event it cannot apply, too many orders named at once, or the stream
 *   resumed after a drop), failed;
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

/** What a live event names: each order's id and the updated_at it has after the change (null: fetch it whatever the board has). */
export interface NamedOrder {
  id: number;
  updated_at: string | null;
}

/** GET /api/ops/v1/orders/{id} for the named orders: those still on the board's day; an id missing from `orders` has left it (another day, gone). */
export interface ChangedOrders {
  orderIds: number[];
  orders: OpsOrder[];
}

/** More orders named at once than this and the whole day is loaded again instead (two requests, not dozens). */
export const MOST_ORDERS_FETCHED = 50;

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
  /** A live event the board cannot apply arrived (or the stream resumed after a drop): load the whole day again. */
  stale: boolean;
  /** Orders live events named that the board has not fetched yet (their updated_at differs from the board's copy). */
  dirty: number[];
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
  /**
   * A change of the day was announced on the stream: the orders it names
   * (the board fetches those), or null for an event it cannot apply (an
   * unknown type, an unreadable message): the whole day is loaded again.
   */
  | { type: "STREAM_EVENT"; orders: NamedOrder[] | null }
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

/**
 * Orders fetched after live events: each replaces the board's copy, a new
 * one joins the board in the list's order (newest first), and an order
 * named but not returned (moved to another day, no longer visible) leaves.
 */
export function applyChangedOrders(orders: OpsOrder[], changed: ChangedOrders): OpsOrder[] {
  const byId = new Map(changed.orders.map((order) => [order.id, order]));
  const named = new Set(changed.orderIds);
  const kept = orders.flatMap((order) => (named.has(order.id) ? (byId.has(order.id) ? [byId.get(order.id)!] : []) : [order]));
  const present = new Set(kept.map((order) => order.id));
  const added = changed.orders.filter((order) => !present.has(order.id));
  if (added.length === 0) return kept;
  return [...kept, ...added].sort((a, b) => b.id - a.id);
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

/** Each order's updated_at by id, built once per orders list (a day of 2,000 and a burst of events: not once per event). */
const updatedAtIndex = new WeakMap<OpsOrder[], Map<number, string>>();
function updatedAtById(orders: OpsOrder[]): Map<number, string> {
  let index = updatedAtIndex.get(orders);
  if (!index) {
    index = new Map(orders.map((order) => [order.id, order.updated_at]));
    updatedAtIndex.set(orders, index);
  }
  return index;
}

/**
 * The named orders the board does not have as they are now: not on it, or
 * with another updated_at. An order of the board's own change on its way is
 * not fetched: the server's answer replaces it (the stream often announces
 * the change before the answer arrives).
 */
function changedBy(context: ConsoleBoardContext, named: readonly NamedOrder[]): number[] {
  const updatedAt = updatedAtById(context.orders);
  const own = new Set(context.pending?.orderIds ?? []);
  return named.filter((order) => !own.has(order.id) && (order.updated_at === null || updatedAt.get(order.id) !== order.updated_at)).map((order) => order.id);
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
    /** GET /api/ops/v1/orders/{id} for each order a live event named: those still on the day. */
    loadOrders: fromPromise<ChangedOrders, { serviceDate: string; orderIds: number[] }>(async () => {
      throw new Error("provide loadOrders");
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
    ordersAreDirty: ({ context }) => context.dirty.length > 0,
    /** Orders were named while those fetched were on their way (the guard sees the board before the answer is applied). */
    moreOrdersWereNamed: ({ context }, changed: ChangedOrders) => {
      const fetched = new Set(changed.orderIds);
      return context.dirty.some((id) => !fetched.has(id));
    },
    eventCannotBeApplied: ({ event }) => event.type === "STREAM_EVENT" && event.orders === null,
    /** Too many orders to fetch one by one (a whole assignment by another console, an import): the day is cheaper. */
    eventNamesTooMany: ({ context, event }) => event.type === "STREAM_EVENT" && event.orders !== null && changedBy(context, event.orders).length > MOST_ORDERS_FETCHED,
    /** The event names an order the board does not have as it is now (its own assignment's answer already is). */
    eventChangesTheBoard: ({ context, event }) => event.type === "STREAM_EVENT" && event.orders !== null && changedBy(context, event.orders).length > 0,
    /** The stream opened again after a drop: events may have been missed while it was down. */
    streamWasDown: stateIn({ connection: "reconnecting" }),
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
    /** A call answered 401: the console's session hears it, by its system id, and takes the console to the login. */
    tellSessionEnded,
    setServiceDate: assign(({ event }) =>
      event.type === "SET_SERVICE_DATE" ? { serviceDate: event.serviceDate, orders: [], couriers: [], stale: false, dirty: [], selected: [], anchor: null, notice: null } : {},
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
        // The day as loaded has every order as it was at the read; an event that came during the load may be newer: fetched next.
        selected: context.selected.filter((id) => present.has(id)),
        anchor: context.anchor !== null && present.has(context.anchor) ? context.anchor : null,
        courierId,
      };
    }),
    showLoadError: assign((_, failure: ApiFailure) => ({ error: boardFailureText(failure), failure, stale: false })),
    markStale: assign({ stale: true }),
    /** A live event while the board is busy: what it names is fetched next, or the whole day when it cannot be applied. */
    noteEvent: assign(({ context, event }) => {
      if (event.type !== "STREAM_EVENT") return {};
      if (event.orders === null) return { stale: true };
      const dirty = [...new Set([...context.dirty, ...changedBy(context, event.orders)])];
      return dirty.length > MOST_ORDERS_FETCHED ? { stale: true, dirty: [] } : { dirty };
    }),
    applyChangedOrders: assign(({ context }, changed: ChangedOrders) => {
      const orders = applyChangedOrders(context.orders, changed);
      const present = new Set(orders.map((order) => order.id));
      const fetched = new Set(changed.orderIds);
      return {
        orders,
        dirty: context.dirty.filter((id) => !fetched.has(id)),
        selected: context.selected.filter((id) => present.has(id)),
        anchor: context.anchor !== null && present.has(context.anchor) ? context.anchor : null,
      };
    }),
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
    dirty: [],
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
          description: "GET /api/ops/v1/orders?service_date=… (every page, 1,000 a page) and GET /api/ops/v1/couriers",
          invoke: {
            id: "loadBoard",
            src: "loadBoard",
            input: ({ context }) => ({ serviceDate: context.serviceDate }),
            onDone: [
              { guard: "boardIsStale", target: "refreshing", actions: { type: "storeBoard", params: ({ event }) => event.output } },
              { guard: "ordersAreDirty", target: "updating", actions: { type: "storeBoard", params: ({ event }) => event.output } },
              { target: "ready", actions: { type: "storeBoard", params: ({ event }) => event.output } },
            ],
            onError: { target: "failed", actions: [{ type: "showLoadError", params: ({ event }) => toApiFailure(event.error) }, { type: "tellSessionEnded", params: ({ event }) => toApiFailure(event.error) }] },
          },
          on: {
            STREAM_EVENT: { actions: "noteEvent", description: "Noted: fetched once the day is loaded." },
            STREAM_OPEN: { guard: "streamWasDown", actions: "markStale" },
          },
        },
        ready: {
          description: "The board shows the day.",
          on: {
            STREAM_EVENT: [
              { guard: "eventCannotBeApplied", target: "refreshing", description: "An event the board cannot apply: the whole day again." },
              { guard: "eventNamesTooMany", target: "refreshing", description: "More orders than are worth fetching one by one: the whole day again." },
              { guard: "eventChangesTheBoard", target: "updating", actions: "noteEvent", description: "Fetch only the orders the event names." },
            ],
            STREAM_OPEN: { guard: "streamWasDown", target: "refreshing", description: "The stream is back after a drop: the whole day again, nothing missed." },
          },
        },
        updating: {
          description: "GET /api/ops/v1/orders/{id} for each order live events named; the board stays on screen.",
          invoke: {
            id: "loadOrders",
            src: "loadOrders",
            input: ({ context }) => ({ serviceDate: context.serviceDate, orderIds: [...context.dirty] }),
            onDone: [
              { guard: "boardIsStale", target: "refreshing", actions: { type: "applyChangedOrders", params: ({ event }) => event.output } },
              { guard: { type: "moreOrdersWereNamed", params: ({ event }) => event.output }, target: "updating", reenter: true, actions: { type: "applyChangedOrders", params: ({ event }) => event.output } },
              { target: "ready", actions: { type: "applyChangedOrders", params: ({ event }) => event.output } },
            ],
            onError: { target: "refreshing", actions: { type: "tellSessionEnded", params: ({ event }) => toApiFailure(event.error) }, description: "The orders could not be fetched: the whole day again." },
          },
          on: {
            STREAM_EVENT: { actions: "noteEvent" },
            STREAM_OPEN: { guard: "streamWasDown", actions: "markStale" },
          },
        },
        refreshing: {
          description: "Loading the whole day again; the board stays on screen (a pending change stays laid over it).",
          invoke: {
            id: "loadBoard",
            src: "loadBoard",
            input: ({ context }) => ({ serviceDate: context.serviceDate }),
            onDone: [
              { guard: "boardIsStale", target: "refreshing", reenter: true, actions: { type: "storeBoard", params: ({ event }) => event.output } },
              { guard: "ordersAreDirty", target: "updating", actions: { type: "storeBoard", params: ({ event }) => event.output } },
              { target: "ready", actions: { type: "storeBoard", params: ({ event }) => event.output } },
            ],
            // The board as last loaded stays, with the failure said above it.
            onError: { target: "ready", actions: [{ type: "showLoadError", params: ({ event }) => toApiFailure(event.error) }, { type: "tellSessionEnded", params: ({ event }) => toApiFailure(event.error) }] },
          },
          on: {
            STREAM_EVENT: { actions: "noteEvent" },
            STREAM_OPEN: { guard: "streamWasDown", actions: "markStale" },
          },
        },
        failed: {
          description: "The board could not load: the failure in words and 'Try again'.",
          on: { RETRY: { target: "loading" }, STREAM_EVENT: { target: "loading", description: "The server is back and the day changed." } },
        },
      },
    },
    connection: liveConnectionRegion("'Live': changes show as they happen."),
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
            onError: { target: "idle", actions: [{ type: "rollBack", params: ({ event }) => toApiFailure(event.error) }, { type: "tellSessionEnded", params: ({ event }) => toApiFailure(event.error) }], description: "Refused: the board rolls back, the reason in words." },
          },
        },
        unassigning: {
          description: "DELETE /api/ops/v1/assignments/{order_id}; the board already shows it unassigned.",
          invoke: {
            id: "unassignOrder",
            src: "unassignOrder",
            input: ({ context }) => ({ csrfToken: context.csrfToken, orderId: context.pending?.orderIds[0] ?? 0 }),
            onDone: { target: "idle", actions: { type: "keepAssignment", params: ({ event }) => [event.output] } },
            onError: { target: "idle", actions: [{ type: "rollBack", params: ({ event }) => toApiFailure(event.error) }, { type: "tellSessionEnded", params: ({ event }) => toApiFailure(event.error) }], description: "Refused: the board rolls back, the reason in words." },
          },
        },
      },
    },
  },
});
