import { fromCallback, fromPromise } from "xstate";
import { isApiFailure } from "../../../domain/api-failure.ts";
import { OPS_API_PREFIX, type OpsOrder } from "../../../domain/contract/ops.ts";
import { consoleBoardMachine, type AssignInput, type BoardCourier, type BoardData, type ConsoleBoardEvent } from "../../../machines/console-board.machine.ts";
import { opsRequest } from "./http.ts";

/** The most the list endpoint gives per page (domain/contract/ops.ts OrderListQuery). */
const PAGE = 200;

async function dayOrders(serviceDate: string): Promise<OpsOrder[]> {
  const orders: OpsOrder[] = [];
  let cursor: string | null = null;
  do {
    const query = new URLSearchParams({ service_date: serviceDate, limit: String(PAGE) });
    if (cursor) query.set("cursor", cursor);
    const page = (await (await opsRequest("GET", `orders?${query}`)).json()) as { orders: OpsOrder[]; next_cursor: string | null };
    orders.push(...page.orders);
    cursor = page.next_cursor;
  } while (cursor);
  return orders;
}

async function couriers(): Promise<BoardCourier[]> {
  try {
    const body = (await (await opsRequest("GET", "couriers")).json()) as { couriers: (BoardCourier & { active: boolean })[] };
    // Only a courier who can still log in can be given orders.
    return body.couriers.filter((courier) => courier.active).map(({ id, first_name, last_name }) => ({ id, first_name, last_name }));
  } catch (error) {
    // A pharmacist may not list couriers (dispatch only): their board names couriers by their orders (OpsOrder.courier).
    if (isApiFailure(error) && error.status === 403) return [];
    throw error;
  }
}

/** Reconnection after the server closed the stream for good (EventSource reconnects by itself otherwise). */
const FIRST_RETRY_MS = 1_000;
const LAST_RETRY_MS = 30_000;

export const consoleBoardActors = {
  loadBoard: fromPromise<BoardData, { serviceDate: string }>(async ({ input }) => {
    const [orders, list] = await Promise.all([dayOrders(input.serviceDate), couriers()]);
    return { orders, couriers: list };
  }),
  assignOrders: fromPromise<OpsOrder[], AssignInput>(async ({ input }) => {
    const body = { courier_id: input.courierId, service_date: input.serviceDate, order_ids: input.orderIds };
    const answer = (await (await opsRequest("POST", "assignments", { body, csrfToken: input.csrfToken })).json()) as { orders: OpsOrder[] };
    return answer.orders;
  }),
  unassignOrder: fromPromise<OpsOrder, { csrfToken: string | null; orderId: number }>(async ({ input }) => {
    const answer = (await (await opsRequest("DELETE", `assignments/${input.orderId}`, { csrfToken: input.csrfToken })).json()) as { order: OpsOrder };
    return answer.order;
  }),
  /**
   * GET /api/ops/v1/events as an EventSource: the browser sends the session
   * cookie, reconnects after a dropped connection and resumes with
   * Last-Event-ID. When the server ends the stream for good (an error
   * status), the console opens it again with back-off, from the last event
   * it saw (?last_event_id=), so nothing in between is lost.
   */
  eventStream: fromCallback<ConsoleBoardEvent>(({ sendBack }) => {
    let source: EventSource | null = null;
    let lastEventId: string | null = null;
    let retryMs = FIRST_RETRY_MS;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const open = () => {
      const url = `${OPS_API_PREFIX}/events${lastEventId ? `?last_event_id=${encodeURIComponent(lastEventId)}` : ""}`;
      source = new EventSource(url, { withCredentials: true });
      source.onopen = () => {
        retryMs = FIRST_RETRY_MS;
        sendBack({ type: "STREAM_OPEN" });
      };
      source.onmessage = (message) => {
        if (message.lastEventId) lastEventId = message.lastEventId;
        sendBack({ type: "STREAM_EVENT" });
      };
      source.onerror = () => {
        sendBack({ type: "STREAM_ERROR" });
        if (source?.readyState === EventSource.CLOSED) {
          timer = setTimeout(open, retryMs);
          retryMs = Math.min(retryMs * 2, LAST_RETRY_MS);
        }
      };
    };
    open();
    return () => {
      clearTimeout(timer);
      // Detached first: a stopped board never hears from this stream again, nor schedules a retry.
      if (source) source.onopen = source.onmessage = source.onerror = null;
      source?.close();
    };
  }),
};

export const consoleBoardLogic = consoleBoardMachine.provide({ actors: consoleBoardActors });
