import { assign, fromCallback, fromPromise, setup } from "xstate";
import { toApiFailure, type ApiFailure } from "../domain/api-failure.ts";
import type { OpsOrder } from "../domain/contract/ops.ts";

/**
 * The dispatch console's day board (issue 27): the day's orders and couriers
 * for a service date, kept current by the live event stream. Two regions:
 * the data (loading, ready, refreshing after a live event, failed) and the
 * connection to GET /api/ops/v1/events (connecting, live, reconnecting; the
 * browser's EventSource reconnects by itself with Last-Event-ID, so nothing
 * is lost while it does). The console provides the calls (src/console/api/board.ts).
 */
export interface BoardCourier {
  id: number;
  first_name: string;
  last_name: string;
}

export interface BoardData {
  orders: OpsOrder[];
  /** Every courier the caller may see by name (a pharmacist sees none: GET couriers is dispatch only). */
  couriers: BoardCourier[];
}

export interface ConsoleBoardContext extends BoardData {
  serviceDate: string;
  /** The last load's failure, in words; null once a load succeeds. */
  error: string | null;
  /** The failure itself, so the console can tell a session that ended (401) from the rest. */
  failure: ApiFailure | null;
  /** A live event arrived while a load was on its way: its answer may predate the change, so load again. */
  stale: boolean;
}

export type ConsoleBoardEvent =
  | { type: "SET_SERVICE_DATE"; serviceDate: string }
  | { type: "RETRY" }
  | { type: "STREAM_OPEN" }
  | { type: "STREAM_ERROR" }
  /** A change of the day was announced on the stream (any event: the board reloads what it shows). */
  | { type: "STREAM_EVENT" };

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

export const consoleBoardMachine = setup({
  types: {
    context: {} as ConsoleBoardContext,
    events: {} as ConsoleBoardEvent,
    input: {} as { serviceDate: string },
  },
  actors: {
    loadBoard: fromPromise<BoardData, { serviceDate: string }>(async () => {
      throw new Error("provide loadBoard");
    }),
    /** Opens the event stream and sends STREAM_OPEN, STREAM_ERROR and STREAM_EVENT back; closes it when stopped. */
    eventStream: fromCallback<ConsoleBoardEvent>(() => {
      throw new Error("provide eventStream");
    }),
  },
  guards: {
    isAnotherValidDay: ({ context, event }) =>
      event.type === "SET_SERVICE_DATE" && CALENDAR_DAY.test(event.serviceDate) && event.serviceDate !== context.serviceDate,
    boardIsStale: ({ context }) => context.stale,
  },
  actions: {
    setServiceDate: assign(({ event }) => (event.type === "SET_SERVICE_DATE" ? { serviceDate: event.serviceDate, orders: [], couriers: [], stale: false } : {})),
    storeBoard: assign((_, data: BoardData) => ({ orders: data.orders, couriers: data.couriers, error: null, failure: null, stale: false })),
    showLoadError: assign((_, failure: ApiFailure) => ({ error: boardFailureText(failure), failure, stale: false })),
    markStale: assign({ stale: true }),
  },
}).createMachine({
  id: "consoleBoard",
  description: "The day board: a service date's orders by courier, live.",
  context: ({ input }) => ({ serviceDate: input.serviceDate, orders: [], couriers: [], error: null, failure: null, stale: false }),
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
          description: "Reloading after a live event; the board stays on screen.",
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
  },
});
