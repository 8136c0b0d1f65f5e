import { z } from "zod";

export { API_MEDIA_TYPE, API_VERSION } from "../api-version.ts";

/** Money at the edge: a decimal string with two places ("0.00" means none). */
export const Money = z.string().regex(/^\d+\.\d{2}$/, "must be a decimal amount with two places, e.g. 12.50");
export const NullableMoney = Money.nullable();

/** Ids are PostgreSQL integers: a larger one is refused here, never handed to the database (it answered 500). */
export const Id = z.coerce.number().int().positive().max(2_147_483_647);
export const IdParams = z.object({ id: Id });

/** Every refusal has this body: a stable code and a sentence a person can read. */
export const ErrorBody = z.object({
  error: z.string(),
  message: z.string(),
  details: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
});
export type ErrorBody = z.infer<typeof ErrorBody>;

export const OkBody = z.object({ ok: z.literal(true) });
