import { fromCallback, fromPromise } from "xstate";
import type { OpsOrder } from "../../../domain/contract/ops.ts";
import type { OrderStatusName } from "../../../domain/vocabulary.ts";
import { consoleBoardMachine, type BoardData, type ConsoleBoardEvent } from "../../../machines/console-board.machine.ts";

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
export function boardOrder(id: number, patient: string, status: OrderStatusName, courierId: number | null, externalId = `RX-${id}`): OpsOrder {
  const [first, last] = patient.split(" ");
  return {
    id,
    status: { id: STATUS_IDS[status], name: status },
    pharmacy: { id: 1, name: "Riverside Community Pharmacy" },
    patient_first_name: first,
    patient_last_name: last,
    external_id: externalId,
    courier_id: courierId,
    service_date: "2026-11-26",
  } as unknown as OpsOrder;
}

/** The board machine with a load the test answers and a stream the test drives. */
export function boardLogic(load: (serviceDate: string) => Promise<BoardData>, stream: { send?: (event: ConsoleBoardEvent) => void } = {}) {
  return consoleBoardMachine.provide({
    actors: {
      loadBoard: fromPromise(({ input }: { input: { serviceDate: string } }) => load(input.serviceDate)),
      eventStream: fromCallback<ConsoleBoardEvent>(({ sendBack }) => {
        stream.send = sendBack;
      }),
    },
  });
}
