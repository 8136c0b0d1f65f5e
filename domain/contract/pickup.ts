import { z } from "zod";
import { MAX_ID, PathId } from "./common.ts";
import { Order, PharmacyVisit } from "./entities.ts";
import { Instant, MoneyAmount } from "./scalars.ts";

/**
 * The pickup calls of spec §7: order status and copay, pickups, cancellation,
 * add-ons and pharmacy visits.
 */

/** Ids are PostgreSQL integers: anything larger is refused as input, never passed to the database. */
export const RecordId = z.number().int().positive().max(MAX_ID);

export const OrderIdParams = z.object({ id: PathId });
export const PharmacyIdParams = z.object({ id: PathId });
export const CourierParams = z.object({ courierId: PathId });
export const PharmacyVisitParams = z.object({ courierId: PathId, visitId: PathId });

/**
 * PUT /orders/{id}: either a status change {order:{status_id}} or a copay
 * assertion {order:{copay}} ("0.00" for no copay), never both.
 */
export const OrderUpdateRequest = z.object({
  order: z
    .object({
      status_id: RecordId.optional(),
      copay: MoneyAmount.optional(),
    })
    .strict()
    .refine((order) => (order.status_id === undefined) !== (order.copay === undefined), {
      message: "send either status_id or copay",
    }),
});
export type OrderUpdateRequest = z.infer<typeof OrderUpdateRequest>;

/** POST /orders/{id}/pickups: when the courier tapped verify, if the device knows. */
export const PickupRequest = z
  .object({ client_occurred_at: Instant.optional() })
  .nullish();
export type PickupRequest = z.infer<typeof PickupRequest>;

/** POST /courier/cancellation */
export const CancellationRequest = z.object({ order_id: RecordId });
export type CancellationRequest = z.infer<typeof CancellationRequest>;

/** GET and POST /courier/pharmacies/{id}/addons */
export const AddonsResponse = z.object({ orders: z.array(Order) });
export type AddonsResponse = z.infer<typeof AddonsResponse>;

/**
 * POST /courier/pharmacies/{id}/addons. The list is bounded only to keep
 * requests small: the limit of 3 in total is a rule of the day, answered with
 * 409 'Max addon count reached'.
 */
export const AddonsRequest = z.object({
  orders: z
    .array(z.object({ id: RecordId, copay: MoneyAmount }))
    .min(1, "choose at least one add-on order")
    .max(20)
    .refine((orders) => new Set(orders.map((order) => order.id)).size === orders.length, {
      message: "each add-on order may appear once",
    }),
  service_window_instance_id: RecordId.nullable(),
});
export type AddonsRequest = z.infer<typeof AddonsRequest>;

/** PUT couriers/{id}/pharmacy_visits/{visitId}/arrived_at_pharmacy carries no data. */
export const ArrivedRequest = z.object({}).nullish();

/** POST couriers/{id}/pharmacy_visits/confirm */
export const ConfirmVisitsRequest = z.object({
  pharmacy_visits: z
    .array(z.object({ id: RecordId, confirmed: z.boolean() }))
    .min(1, "answer at least one pharmacy visit")
    .max(100)
    .refine((visits) => new Set(visits.map((visit) => visit.id)).size === visits.length, {
      message: "each pharmacy visit may appear once",
    }),
});
export type ConfirmVisitsRequest = z.infer<typeof ConfirmVisitsRequest>;

export const PharmacyVisitsResponse = z.object({ pharmacy_visits: z.array(PharmacyVisit) });
export type PharmacyVisitsResponse = z.infer<typeof PharmacyVisitsResponse>;
