import { z } from "zod";

export { API_MEDIA_TYPE, API_VERSION } from "../api-version.ts";

/** Money at the edge: a decimal string with two places ("0.00" means none). */
export const Money = z.string().regex(/^\d+\.\d{2}$/, "must be a decimal amount with two places, e.g. 12.50");
export const NullableMoney = Money.nullable();

/** Ids are PostgreSQL integers (serial): from 1 to 2,147,483,647. */
export const MAX_ID = 2_147_483_647;
const ID_WORDS = `must be a record id: decimal digits only, from 1 to ${MAX_ID}`;

/** Digits and nothing else ("0x10", "1e3", " 1", "+1" and "1.0" are not ids), and within the integer range. */
export function isIdText(value: string): boolean {
  return /^\d{1,10}$/.test(value) && Number(value) >= 1 && Number(value) <= MAX_ID;
}

/**
 * An id in a path or a query string, where it arrives as text. One strict parse
 * for every route: a lenient Number() would read "0x10" as 16 and revoke key 16.
 * A well-formed id that does not exist is the route's 404.
 */
export const PathId = z
  .string()
  .refine(isIdText, { message: ID_WORDS })
  .transform(Number)
  .meta({ description: `Record id: decimal digits, 1 to ${MAX_ID}.`, pattern: "^[0-9]{1,10}$" });

/** An id of a bigint table (webhook deliveries) in a path or query: digits only, at most 2^53 - 1. */
export const BigPathId = z
  .string()
  .refine((value) => /^\d{1,16}$/.test(value) && Number(value) >= 1 && Number.isSafeInteger(Number(value)), {
    message: `must be a record id: decimal digits only, from 1 to ${Number.MAX_SAFE_INTEGER}`,
  })
  .transform(Number)
  .meta({ description: `Record id: decimal digits, 1 to ${Number.MAX_SAFE_INTEGER}.`, pattern: "^[0-9]{1,16}$" });

/** A count in a query string (limit=50): decimal digits only, like ids, from 1 to `max`. */
export const QueryCount = (max: number, fallback: number) =>
  z
    .string()
    .refine((value) => /^\d{1,6}$/.test(value) && Number(value) >= 1 && Number(value) <= max, { message: `must be a whole number from 1 to ${max}, in decimal digits` })
    .transform(Number)
    .optional()
    .transform((value) => value ?? fallback)
    .meta({ description: `A whole number from 1 to ${max}; ${fallback} when left out.` });

/** An id in a path of a courier route (/api/orders/{id}). */
export const Id = PathId;
export const IdParams = z.object({ id: PathId });

/** Every refusal has this body: a stable code and a sentence a person can read. */
export const ErrorBody = z.object({
  error: z.string(),
  message: z.string(),
  details: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
});
export type ErrorBody = z.infer<typeof ErrorBody>;

export const OkBody = z.object({ ok: z.literal(true) });
