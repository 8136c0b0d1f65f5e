import { z } from "zod";
import { ItineraryResponse } from "../../domain/contract/itinerary.ts";

/*
 * What a record on the device must look like to be used. Loaded only when
 * there is a record to read (offline-store.ts): most screens open with an
 * empty queue and never read the day copy, and need none of this.
 */

const FormFields = z.record(z.string(), z.union([z.string(), z.array(z.string())]));

/** Only what a resubmission relies on is checked strictly. */
export const StoredEntry = z.object({
  kind: z.enum(["unsubmitted", "recipient", "signature"]),
  id: z.number().int(),
  orderIds: z.array(z.number().int()),
  status: z.string(),
  delivery: FormFields.nullable(),
  dataToSubmit: z.json().nullable(),
  idempotencyKey: z.string().min(1),
  payment: z.boolean(),
  storedOn: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
  createdAt: z.string(),
});

export const StoredDay = z.object({ courierId: z.number().int(), savedOn: z.string(), itinerary: ItineraryResponse });
