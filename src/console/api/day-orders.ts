import { ORDER_LIST_MAX_LIMIT, type OpsOrder } from "../../../domain/contract/ops.ts";
import { opsRequest } from "./http.ts";

/** The most the list endpoint gives per page (domain/contract/ops.ts OrderListQuery): a day of 2,000 orders is two requests. */
const PAGE = ORDER_LIST_MAX_LIMIT;

/** Every order of a service date the caller may see, page after page. */
export async function dayOrders(serviceDate: string): Promise<OpsOrder[]> {
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
