import type { Order, PharmacyVisit } from "../../domain/contract/entities.ts";
import type {
  AddonsRequest,
  AddonsResponse,
  CancellationRequest,
  ConfirmVisitsRequest,
  OrderUpdateRequest,
  PharmacyVisitsResponse,
  PickupRequest,
} from "../../domain/contract/pickup.ts";
import { call } from "./client.ts";

/**
 * The pickup calls of spec §7, one function per machine actor. Each rejects
 * with an ApiFailure (via call()) so the machines pick the spec §8 text.
 */

/** PUT /orders/{id} {order:{copay}}: the copay asserted correct ("0.00" for none). */
export async function assertCopay(orderId: number, copay: string): Promise<Order> {
  const json: OrderUpdateRequest = { order: { copay } };
  return call((http) => http.put(`orders/${orderId}`, { json }).json<Order>());
}

/** POST /orders/{id}/pickups, with the moment the courier tapped verify. */
export async function pickUpOrder(orderId: number, occurredAt: Date = new Date()): Promise<Order> {
  const json: PickupRequest = { client_occurred_at: occurredAt.toISOString() };
  return call((http) => http.post(`orders/${orderId}/pickups`, { json }).json<Order>());
}

/** POST /courier/cancellation {order_id} */
export async function cancelOrder(orderId: number): Promise<Order> {
  const json: CancellationRequest = { order_id: orderId };
  return call((http) => http.post("courier/cancellation", { json }).json<Order>());
}

/** GET courier/pharmacies/{id}/addons → the add-on orders on offer. */
export async function fetchAddons(pharmacyId: number): Promise<Order[]> {
  const body = await call((http) => http.get(`courier/pharmacies/${pharmacyId}/addons`).json<AddonsResponse>());
  return body.orders;
}

/** POST courier/pharmacies/{id}/addons {orders:[{id, copay}], service_window_instance_id} */
export async function submitAddons(pharmacyId: number, request: AddonsRequest): Promise<Order[]> {
  const body = await call((http) => http.post(`courier/pharmacies/${pharmacyId}/addons`, { json: request }).json<AddonsResponse>());
  return body.orders;
}

/** PUT couriers/{id}/pharmacy_visits/{visitId}/arrived_at_pharmacy (no body: the server keeps the first arrival). */
export async function markArrived(courierId: number, visitId: number): Promise<PharmacyVisit> {
  return call((http) => http.put(`couriers/${courierId}/pharmacy_visits/${visitId}/arrived_at_pharmacy`).json<PharmacyVisit>());
}

/** POST couriers/{id}/pharmacy_visits/confirm {pharmacy_visits:[{id, confirmed}]} */
export async function confirmVisits(courierId: number, answers: ConfirmVisitsRequest["pharmacy_visits"]): Promise<PharmacyVisit[]> {
  const json: ConfirmVisitsRequest = { pharmacy_visits: answers };
  const body = await call((http) => http.post(`couriers/${courierId}/pharmacy_visits/confirm`, { json }).json<PharmacyVisitsResponse>());
  return body.pharmacy_visits;
}
