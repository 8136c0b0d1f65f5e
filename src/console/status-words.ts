import type { OrderStatusName } from "../../domain/vocabulary.ts";

/** An order's status in a dispatcher's words (issue 27: 'Delivered', 'Delivery attempted', 'Picked up'). */
export const STATUS_WORDS: Record<OrderStatusName, string> = {
  new: "New",
  // At the pharmacy for a courier to collect, whether or not one has it on their day yet (the demo's add-ons have none).
  submitted_to_courier: "Ready for pickup",
  picked_up: "Picked up",
  verified: "Verified",
  delivered: "Delivered",
  delivery_attempted: "Delivery attempted",
  cancelled: "Cancelled",
  returned_to_pharmacy: "Returned to pharmacy",
  reconciled: "Reconciled",
};

/** The order the counts are shown in: the day's course. */
export const STATUS_ORDER = Object.keys(STATUS_WORDS) as OrderStatusName[];
