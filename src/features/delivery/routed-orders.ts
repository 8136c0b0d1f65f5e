import { useEffect, useState } from "react";
import type { Order, Pharmacy } from "../../../domain/contract/entities.ts";
import type { RoutedOrdersResponse } from "../../../domain/contract/routing.ts";
import { ordersToRoute } from "../../../domain/routing.ts";
import { call } from "../../api/client.ts";

/** GET /api/routed_orders?pharmacy_id=…&order_ids[]=…: the remaining deliveries in driving order. */
export async function fetchRoutedOrderIds(pharmacyId: number, orderIds: readonly number[], signal?: AbortSignal): Promise<number[]> {
  const searchParams = new URLSearchParams({ pharmacy_id: String(pharmacyId) });
  for (const id of orderIds) searchParams.append("order_ids[]", String(id));
  const response = await call((http) => http.get("routed_orders", { searchParams, signal }).json<RoutedOrdersResponse>());
  return response.orders.map((order) => order.id);
}

/** Spec §2: the routing indicator (Routed, Not Routed, Routing...) where the pharmacy routes. */
export type RoutingStatus = "off" | "routing" | "routed" | "not_routed";

export interface Routing {
  status: RoutingStatus;
  /** The remaining deliveries in driving order, once routed. */
  order: number[] | null;
}

/**
 * Asks for a driving order only when domain/routing.ts says so (routing on,
 * more than one order and at most 150, more than one delivery left); a failure
 * leaves the list in its own order, marked Not Routed.
 */
export function useRoutedOrders(
  pharmacy: Pick<Pharmacy, "id" | "routing_enabled"> | null,
  orders: readonly Pick<Order, "id" | "status">[],
  fetchIds: typeof fetchRoutedOrderIds = fetchRoutedOrderIds,
): Routing {
  const ids = pharmacy ? ordersToRoute(pharmacy, orders) : null;
  const key = pharmacy && ids ? `${pharmacy.id}:${ids.join(",")}` : null;
  const [result, setResult] = useState<{ key: string; order: number[] | null } | null>(null);

  useEffect(() => {
    if (!pharmacy || !ids || !key) return;
    const abort = new AbortController();
    fetchIds(pharmacy.id, ids, abort.signal).then(
      (order) => {
        if (!abort.signal.aborted) setResult({ key, order });
      },
      () => {
        if (!abort.signal.aborted) setResult({ key, order: null });
      },
    );
    return () => abort.abort();
    // The key names the pharmacy and the ids: a new list of the same orders is not a new request.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key]);

  if (!pharmacy?.routing_enabled) return { status: "off", order: null };
  if (!key) return { status: "not_routed", order: null };
  if (result?.key !== key) return { status: "routing", order: null };
  return result.order ? { status: "routed", order: result.order } : { status: "not_routed", order: null };
}
