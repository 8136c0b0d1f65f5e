import { fromCallback, fromPromise } from "xstate";
import type { OpsOrder } from "../../../domain/contract/ops.ts";
import type { OrderStatusName } from "../../../domain/vocabulary.ts";
import { consoleBoardMachine, type AssignInput, type BoardCourier, type BoardData, type ChangedOrders, type ConsoleBoardEvent } from "../../../machines/console-board.machine.ts";

const STATUS_IDS: Record<OrderStatusName, number> = {
  new: 1,
  submitted_to_courier: 2,
  picked_up: 3,
  verified: 4,
  delivered: 5,
  delivery_attempted: 6,
  cancelled: 7,
  returned_to_pharmacy: 8,
  reconciled: 9,
};

/** An ops order with what the board reads; the rest of the contract's fields are not shown. */
export function boardOrder(
  id: number,
  patient: string,
  status: OrderStatusName,
  courier: BoardCourier | null,
  extra: Partial<Pick<OpsOrder, "external_id" | "planned_position" | "card_payment_status" | "service_date" | "updated_at">> & { closing_time?: string | null } = {},
): OpsOrder {
  const [first, last] = patient.split(" ");
  return {
    id,
    status: { id: STATUS_IDS[status], name: status },
    pharmacy: { id: 1, name: "Riverside Community Pharmacy", closing_time: extra.closing_time ?? null },
    patient_first_name: first,
    patient_last_name: last,
    external_id: extra.external_id ?? `RX-${id}`,
    courier_id: courier?.id ?? null,
    courier: courier ? { ...courier } : null,
    planned_position: extra.planned_position ?? null,
    card_payment_status: extra.card_payment_status ?? null,
    service_date: extra.service_date ?? "2026-11-26",
    updated_at: extra.updated_at ?? "2026-11-26T12:00:00.000Z",
  } as unknown as OpsOrder;
}

export interface BoardCalls {
  assign?: (input: AssignInput) => Promise<OpsOrder[]>;
  unassign?: (input: { csrfToken: string | null; orderId: number }) => Promise<OpsOrder>;
  /** The orders a live event named; by default those of the day the test's load answers now. */
  fetchOrders?: (input: { serviceDate: string; orderIds: number[] }) => Promise<ChangedOrders>;
}

/** The board machine with a load the test answers, a stream the test drives, and the assignment calls the test gives. */
export function boardLogic(load: (serviceDate: string) => Promise<BoardData>, stream: { send?: (event: ConsoleBoardEvent) => void } = {}, calls: BoardCalls = {}) {
  return consoleBoardMachine.provide({
    actors: {
      loadBoard: fromPromise(({ input }: { input: { serviceDate: string } }) => load(input.serviceDate)),
      eventStream: fromCallback<ConsoleBoardEvent>(({ sendBack }) => {
        stream.send = sendBack;
      }),
      loadOrders: fromPromise(async ({ input }: { input: { serviceDate: string; orderIds: number[] } }) => {
        if (calls.fetchOrders) return calls.fetchOrders(input);
        const day = await load(input.serviceDate);
        return { orderIds: input.orderIds, orders: day.orders.filter((order) => input.orderIds.includes(order.id)) };
      }),
      assignOrders: fromPromise(({ input }: { input: AssignInput }) => (calls.assign ? calls.assign(input) : Promise.reject(new Error("no assign call in this test")))),
      unassignOrder: fromPromise(({ input }: { input: { csrfToken: string | null; orderId: number } }) =>
        calls.unassign ? calls.unassign(input) : Promise.reject(new Error("no unassign call in this test")),
      ),
    },
  });
}
