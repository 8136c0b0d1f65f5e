import { ORDER_LIST_MAX_LIMIT, type OpsOrder } from "../../../domain/contract/ops.ts";
import { opsRequest } from "./http.ts";

/** The most the list endpoint gives per page (domain/contract/ops.ts OrderListQuery): a day of 2,000 orders is two requests. */
const PAGE = ORDER_LIST_MAX_LIMIT;

/** Every order of a service date the caller may see, page after page. */
export async function dayOrders(serviceDate: string): Promise<OpsOrder[]> {
  const orders: OpsOrder[] = [];
  let next: Promise<Response> | null = requestPage(serviceDate, null);
  while (next) {
    const response: Response = await next;
    // The next page is asked for as soon as this one's headers name it, while this one's body arrives and is parsed.
    const linked = nextCursorOf(response.headers.get("link"));
    next = linked ? requestPage(serviceDate, linked) : null;
    // Its failure is met by the next turn's await; until then it must not count as unhandled.
    next?.catch(() => undefined);
    const page = (await response.json()) as { orders: OpsOrder[]; next_cursor: string | null };
    orders.push(...page.orders);
    if (!linked && page.next_cursor) next = requestPage(serviceDate, page.next_cursor);
  }
  return orders;
}

function requestPage(serviceDate: string, cursor: string | null): Promise<Response> {
  const query = new URLSearchParams({ service_date: serviceDate, limit: String(PAGE) });
  if (cursor) query.set("cursor", cursor);
  return opsRequest("GET", `orders?${query}`);
}

/** The cursor of a `Link: <…>; rel="next"` header, or null. */
export function nextCursorOf(link: string | null): string | null {
  const target = link?.match(/<([^>]*)>\s*;\s*rel="?next"?/)?.[1];
  return target ? new URL(target, "http://link.invalid").searchParams.get("cursor") : null;
}
