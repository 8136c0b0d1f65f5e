import { z } from "zod";
import { RETURN_LINE_TYPES, STAFF_NAME_MAX_LENGTH } from "../returns.ts";
import { Money } from "./common.ts";
import { SignatureFilePart } from "./deliveries.ts";
import { RecordId } from "./pickup.ts";
import { MoneyAmount, StoredText } from "./scalars.ts";
import { MAX_RETURN_LINES, RETURNS_FIELD_MAX_LENGTH } from "./return-submissions.ts";

/**
 * POST /api/courier/pharmacies/{id}/returns (spec §7 "Reconcile signature"):
 * a multipart form with recipient_first_name, recipient_last_name,
 * signature[attachment][file] (signature.svg), courier_id, pharmacy_id,
 * cash_collected, check_collected, latitude, longitude and returns (a JSON
 * list of return lines). The CSRF token may travel as the `_csrf_token` field.
 */

/** What the app sends is zod-free (return-submissions.ts) so the returns screens do not load zod. */
export * from "./return-submissions.ts";

// ---------------------------------------------------------------- what the server accepts

/** One schema, not a pipe, so the OpenAPI document states the cap (spec §9). */
const StaffName = StoredText(STAFF_NAME_MAX_LENGTH, { min: 1, tooShort: "is required" });

/** Form fields arrive as text. */
const FormId = z.union([RecordId, z.string().regex(/^\d{1,10}$/, "must be an id").transform(Number).pipe(RecordId)], {
  error: (issue) => (issue.input === undefined ? "is required" : "must be an id"),
});
const Coordinate = (limit: number) =>
  z
    .union([z.number(), z.string().trim().regex(/^-?\d{1,3}(\.\d+)?$/, "must be a number").transform(Number)])
    .pipe(z.number().min(-limit).max(limit));

export const WireReturnLineSchema = z
  .object({
    type: z.enum(RETURN_LINE_TYPES, { error: "must be item, cash or check" }),
    amount: MoneyAmount,
    order_id: RecordId,
  })
  .strict();

/** A JSON list in the form, or a list already (a JSON body). */
const ReturnLines = z
  .union([
    z
      .string()
      .max(RETURNS_FIELD_MAX_LENGTH, "is too long")
      .transform((text, context) => {
        try {
          return JSON.parse(text) as unknown;
        } catch {
          context.addIssue({ code: "custom", message: "must be a JSON list of return lines" });
          return z.NEVER;
        }
      }),
    z.array(z.unknown()),
  ], { error: (issue) => (issue.input === undefined ? "is required" : "must be a JSON list of return lines") })
  .pipe(z.array(WireReturnLineSchema, { error: "must be a JSON list of return lines" }).max(MAX_RETURN_LINES, `at most ${MAX_RETURN_LINES} lines`));

export const ReturnRequest = z.object({
  /** The CSRF token travels here in a multipart form (read before validation). */
  _csrf_token: StoredText(200).optional(),
  recipient_first_name: StaffName,
  recipient_last_name: StaffName,
  signature: z.object(
    { attachment: z.object({ file: SignatureFilePart }) },
    { error: (issue) => (issue.input === undefined ? "is required: the pharmacy staff member signs for the items" : "must be a file") },
  ),
  courier_id: FormId,
  pharmacy_id: FormId,
  cash_collected: MoneyAmount,
  check_collected: MoneyAmount,
  latitude: Coordinate(90).optional(),
  longitude: Coordinate(180).optional(),
  returns: ReturnLines,
});
export type ReturnRequest = z.infer<typeof ReturnRequest>;

export const ReturnResponse = z.object({
  return: z.object({
    id: z.number().int(),
    order_ids: z.array(z.number().int()),
    cash_collected: Money,
    check_collected: Money,
  }),
});
export type ReturnResponse = z.infer<typeof ReturnResponse>;
