import { z } from "zod";
import { MAX_ROUTED_ORDERS } from "../routing.ts";
import { isIdText, MAX_ID } from "./common.ts";
import { Order } from "./entities.ts";

/** Ids in the query are the path ids' rule (common.ts): decimal digits only, within PostgreSQL's integer range. */
const idText = (what: string) =>
  z
    .string()
    .refine(isIdText, `must be ${what}: decimal digits only, from 1 to ${MAX_ID}`)
    .transform(Number);

/** One value or the same parameter repeated. */
const OneOrMany = z.union([z.string(), z.array(z.string())]).optional();

/**
 * GET /api/routed_orders query. The order ids may come as repeated
 * `order_ids[]` (what the spec's client sends), repeated `order_ids`, or
 * comma-separated in either; repeats of one id count once.
 */
export const RoutedOrdersQuery = z
  .object({
    pharmacy_id: z.string().describe("The pharmacy whose delivery list is routed."),
    "order_ids[]": OneOrMany.describe("The orders to route, repeated or comma-separated."),
    order_ids: OneOrMany.describe("Same as order_ids[]."),
  })
  .transform(({ pharmacy_id, "order_ids[]": bracketed, order_ids }) => ({
    pharmacy_id,
    order_ids: [bracketed, order_ids]
      .flat()
      .filter((value) => value !== undefined)
      .flatMap((value) => value.split(",")),
  }))
  .pipe(
    z.object({
      pharmacy_id: idText("a pharmacy id"),
      order_ids: z
        .array(idText("an order id"))
        .min(1, "give the orders to route as order_ids[]")
        .transform((ids) => [...new Set(ids)])
        .refine((ids) => ids.length <= MAX_ROUTED_ORDERS, `routing takes at most ${MAX_ROUTED_ORDERS} orders`),
    }),
  );
export type RoutedOrdersQuery = z.output<typeof RoutedOrdersQuery>;

/**
 * The courier's remaining deliveries among the given orders (status
 * picked_up), in the order to drive them from the pharmacy. Orders already
 * delivered, attempted or not yet picked up are left out; orders without
 * coordinates come last, in the order given.
 */
export const RoutedOrdersResponse = z.object({ orders: z.array(Order) });
export type RoutedOrdersResponse = z.infer<typeof RoutedOrdersResponse>;
