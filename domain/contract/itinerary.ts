import { z } from "zod";
import { Courier, FailureReason, Order, PharmacyVisit, Relationship, Status } from "./entities.ts";

export const FeatureFlags = z.object({ self_service_addons_enabled: z.boolean() });
export type FeatureFlags = z.infer<typeof FeatureFlags>;

/** GET /api/courier/itinerary: the courier's whole day in one call. */
export const ItineraryResponse = z.object({
  courier: Courier,
  service_date: z.string(),
  support_phone: z.string(),
  feature_flags: FeatureFlags,
  pharmacy_visits: z.array(PharmacyVisit),
  orders: z.array(Order),
  statuses: z.array(Status),
  relationships: z.array(Relationship),
  failure_reasons: z.array(FailureReason),
});
export type ItineraryResponse = z.infer<typeof ItineraryResponse>;
