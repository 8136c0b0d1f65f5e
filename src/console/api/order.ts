import { fromCallback, fromPromise } from "xstate";
import { isApiFailure, type ApiFailure } from "../../../domain/api-failure.ts";
import { changesRefusedText, orderChangeProblems } from "../../../domain/order-changes.ts";
import { OPS_API_PREFIX, OrderDetailResponse } from "../../../domain/contract/ops.ts";
import { Custody, Proof } from "../../../domain/contract/ops-proof.ts";
import { OrderWebhookDeliveriesResponse } from "../../../domain/contract/ops-webhooks.ts";
import type { OrderStatusName } from "../../../domain/vocabulary.ts";
import { consoleOrderMachine, type ConsoleOrderEvent, type OrderCourier, type OrderPageData } from "../../../machines/console-order.machine.ts";
import { opsRequest } from "./http.ts";

/** Statuses that have a proof (GET orders/{id}/proof answers 404 before an outcome). */
const WITH_PROOF: ReadonlySet<OrderStatusName> = new Set(["delivered", "delivery_attempted", "returned_to_pharmacy", "reconciled"]);

const getJson = async (path: string): Promise<unknown> => (await opsRequest("GET", path)).json();

async function couriers(): Promise<OrderCourier[]> {
  const body = (await getJson("couriers")) as { couriers: (OrderCourier & { deactivated_at?: string | null })[] };
  // A deactivated courier can be assigned nothing (the API says 409): they are not offered.
  return body.couriers.filter((courier) => !courier.deactivated_at).map(({ id, first_name, last_name }) => ({ id, first_name, last_name }));
}

async function proofOf(orderId: number): Promise<OrderPageData["proof"]> {
  try {
    return Proof.parse(await getJson(`orders/${orderId}/proof`));
  } catch (error) {
    if (isApiFailure(error) && error.status === 404) return null;
    throw error;
  }
}

/** The order page's calls (machines/console-order.machine.ts): each reads the operations API with the staff session. */
export const consoleOrderActors = {
  loadOrder: fromPromise<OrderPageData, { orderId: number; role: "dispatcher" | "pharmacist" }>(async ({ input }) => {
    const { order } = OrderDetailResponse.parse(await getJson(`orders/${input.orderId}`));
    const [custody, proof, deliveries, list] = await Promise.all([
      getJson(`orders/${input.orderId}/custody`).then((body) => Custody.parse(body).custody),
      WITH_PROOF.has(order.status.name) ? proofOf(input.orderId) : Promise.resolve(null),
      getJson(`orders/${input.orderId}/webhook-deliveries`).then((body) => OrderWebhookDeliveriesResponse.parse(body).deliveries),
      // Assigning is a dispatcher's: a pharmacist is offered no courier.
      input.role === "dispatcher" ? couriers() : Promise.resolve([]),
    ]);
    return { order, custody, proof, deliveries, couriers: list };
  }),
  updateOrder: fromPromise<void, { orderId: number; changes: object; csrfToken: string | null }>(async ({ input }) => {
    // The API's own rules first: a wrong field is said at once, and nothing is sent.
    const problems = orderChangeProblems(input.changes);
    if (problems.length) throw { kind: "refused", status: null, message: changesRefusedText(problems), code: "invalid_changes" } satisfies ApiFailure;
    await opsRequest("PATCH", `orders/${input.orderId}`, { body: input.changes, csrfToken: input.csrfToken });
  }),
  cancelOrder: fromPromise<void, { orderId: number; csrfToken: string | null }>(async ({ input }) => {
    await opsRequest("POST", `orders/${input.orderId}/cancellation`, { body: {}, csrfToken: input.csrfToken });
  }),
  assignOrder: fromPromise<void, { orderId: number; courierId: number; serviceDate: string; csrfToken: string | null }>(async ({ input }) => {
    await opsRequest("POST", "assignments", {
      body: { courier_id: input.courierId, service_date: input.serviceDate, order_ids: [input.orderId] },
      csrfToken: input.csrfToken,
    });
  }),
  unassignOrder: fromPromise<void, { orderId: number; csrfToken: string | null }>(async ({ input }) => {
    await opsRequest("DELETE", `assignments/${input.orderId}`, { csrfToken: input.csrfToken });
  }),
  /**
   * The live stream (GET /api/ops/v1/events) while the page is open: each
   * event about this order (its envelope names data.order.id) reloads the
   * page. The browser's EventSource reconnects by itself; a change made while
   * it was away is caught by the reload when the window regains focus.
   */
  orderEvents: fromCallback<ConsoleOrderEvent, { orderId: number }>(({ sendBack, input }) => {
    const source = new EventSource(`${OPS_API_PREFIX}/events`, { withCredentials: true });
    source.onmessage = (message) => {
      try {
        const envelope = JSON.parse(String(message.data)) as { data?: { order?: { id?: unknown } } };
        if (envelope.data?.order?.id === input.orderId) sendBack({ type: "ORDER_CHANGED" });
      } catch {
        // Not an event of ours (a comment or a proxy's page): nothing to reload.
      }
    };
    return () => {
      source.onmessage = null;
      source.close();
    };
  }),
};

export const consoleOrderLogic = consoleOrderMachine.provide({ actors: consoleOrderActors });
