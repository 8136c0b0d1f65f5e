import { fromPromise } from "xstate";
import { isApiFailure } from "../../../domain/api-failure.ts";
import type { OpsOrder, OpsOrderDetail } from "../../../domain/contract/ops.ts";
import { DISPATCH_EVENT_TYPES } from "../../../domain/dispatch-events.ts";
import {
  consoleBoardMachine,
  type AssignInput,
  type BoardCourier,
  type BoardData,
  type ChangedOrders,
  type ConsoleBoardEvent,
  type NamedOrder,
} from "../../../machines/console-board.machine.ts";
import { dayOrders } from "./day-orders.ts";
import { opsRequest } from "./http.ts";
import { liveEvents } from "./live-events.ts";

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

/** At most this many GET /api/ops/v1/orders/{id} at once (a browser opens six connections to a server). */
const FETCH_AT_ONCE = 6;

/** The orders live events named, one GET each: those still on the board's day; one gone or of another day is left out. */
async function namedOrders(serviceDate: string, orderIds: number[]): Promise<ChangedOrders> {
  const orders: OpsOrder[] = [];
  for (let start = 0; start < orderIds.length; start += FETCH_AT_ONCE) {
    const batch = orderIds.slice(start, start + FETCH_AT_ONCE);
    const answers = await Promise.all(
      batch.map(async (id) => {
        try {
          const { order } = (await (await opsRequest("GET", `orders/${id}`)).json()) as { order: OpsOrderDetail };
          const { status_history: _history, ...board } = order;
          return board;
        } catch (error) {
          // No longer visible (a pharmacist's, another pharmacy's now) or gone: it leaves the board.
          if (isApiFailure(error) && error.status === 404) return null;
          throw error;
        }
      }),
    );
    for (const order of answers) if (order && order.service_date === serviceDate) orders.push(order);
  }
  return { orderIds, orders };
}

/**
 * What a stream message names (the webhook envelope {type, timestamp, data},
 * decision 0029): the order an order or payment event carries; nothing for a
 * pharmacy visit (the board shows none); null when the board cannot apply it
 * (a type it does not know, a message it cannot read): the day is loaded again.
 */
export function namedByEvent(text: string): NamedOrder[] | null {
  let message: { type?: unknown; data?: { order?: { id?: unknown; updated_at?: unknown } } };
  try {
    message = JSON.parse(text) as typeof message;
  } catch {
    return null;
  }
  if (typeof message.type !== "string" || !(DISPATCH_EVENT_TYPES as readonly string[]).includes(message.type)) return null;
  if (message.type === "visit.confirmed") return [];
  const order = message.data?.order;
  if (typeof order?.id !== "number" || typeof order.updated_at !== "string") return null;
  // A failed card leaves the order's updated_at as it was; what changed is its card_payment_status: always fetched.
  return [{ id: order.id, updated_at: message.type === "payment.failed" ? null : order.updated_at }];
}

export const consoleBoardActors = {
  loadBoard: fromPromise<BoardData, { serviceDate: string }>(async ({ input }) => {
    const [orders, list] = await Promise.all([dayOrders(input.serviceDate), couriers()]);
    return { orders, couriers: list };
  }),
  loadOrders: fromPromise<ChangedOrders, { serviceDate: string; orderIds: number[] }>(({ input }) => namedOrders(input.serviceDate, input.orderIds)),
  assignOrders: fromPromise<OpsOrder[], AssignInput>(async ({ input }) => {
    const body = { courier_id: input.courierId, service_date: input.serviceDate, order_ids: input.orderIds };
    const answer = (await (await opsRequest("POST", "assignments", { body, csrfToken: input.csrfToken })).json()) as { orders: OpsOrder[] };
    return answer.orders;
  }),
  unassignOrder: fromPromise<OpsOrder, { csrfToken: string | null; orderId: number }>(async ({ input }) => {
    const answer = (await (await opsRequest("DELETE", `assignments/${input.orderId}`, { csrfToken: input.csrfToken })).json()) as { order: OpsOrder };
    return answer.order;
  }),
  /** The day's event stream (./live-events.ts): each message says which orders to fetch. */
  eventStream: liveEvents<ConsoleBoardEvent>((data) => ({ type: "STREAM_EVENT", orders: namedByEvent(data) })),
};

export const consoleBoardLogic = consoleBoardMachine.provide({ actors: consoleBoardActors });
