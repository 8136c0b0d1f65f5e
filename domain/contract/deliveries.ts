import { z } from "zod";
import { FAILURE_REASON_NAMES, ID_TYPES } from "../vocabulary.ts";
import { PHOTO_MAX_BYTES } from "../delivery-photo.ts";
import { NAME_MAX_LENGTH, OTHER_DESCRIPTION_MAX_LENGTH } from "../recipient.ts";
import { RecordId } from "./pickup.ts";
import { Instant, MoneyAmount, StoredText } from "./scalars.ts";
import {
  MAX_ORDERS_PER_DELIVERY,
  NOTES_MAX_LENGTH,
  SIGNATURE_MAX_BYTES,
  WIRE_PAYMENT_TYPES,
} from "./delivery-submissions.ts";

/** What the app sends is zod-free (delivery-submissions.ts) so the delivery screens do not load zod. */
export * from "./delivery-submissions.ts";

// ---------------------------------------------------------------- what the server accepts

/** Form fields arrive as text: "true"/"false" and "1"/"0" are booleans. */
const Bool = z.union([z.boolean(), z.enum(["true", "false", "1", "0"]).transform((v) => v === "true" || v === "1")]);
/** Names and short codes: one line. Notes may hold line breaks. */
const Text = (max: number) => StoredText(max);
const Notes = StoredText(NOTES_MAX_LENGTH, { multiline: true });
const FormId = z.union([RecordId, z.string().regex(/^\d{1,10}$/, "must be an id").transform(Number).pipe(RecordId)]);
const Coordinate = (limit: number) => z.union([z.number(), z.string().trim().regex(/^-?\d{1,3}(\.\d+)?$/).transform(Number)]).pipe(z.number().min(-limit).max(limit));

export const SignatureFilePart = z.object({
  filename: StoredText(255),
  type: StoredText(255),
  /** Checked as XML and against the drawing allow-list (server/services/signature-svg.ts); bounded by the multipart file limit. */
  content: z.string().max(SIGNATURE_MAX_BYTES, "is too large"),
});

/** The photo of the drop-off (issue 19): its bytes arrive base64-encoded from the form parser; checked by their signature in the service. */
export const PhotoFilePart = z.object({
  filename: StoredText(255),
  type: StoredText(255),
  content: z.string().max(Math.ceil((PHOTO_MAX_BYTES * 4) / 3) + 4, "is too large").regex(/^[A-Za-z0-9+/]*={0,2}$/, "must be the image's bytes"),
});

export const DeliveryFields = z.object({
  order_ids: z
    .array(FormId)
    .min(1, "name at least one order")
    .max(MAX_ORDERS_PER_DELIVERY, `at most ${MAX_ORDERS_PER_DELIVERY} orders`)
    .refine((ids) => new Set(ids).size === ids.length, "each order may appear once"),
  client_occurred_at: Instant,
  failure_reason: z.enum(FAILURE_REASON_NAMES, { error: "must be one of the failure reasons" }).optional(),
  relationship: Text(64).optional(),
  relationship_id: FormId.optional(),
  recipient_called_at: Instant.nullish(),
  body: Notes.nullish(),
  signature: z.object({ attachment: z.object({ file: SignatureFilePart }) }).optional(),
  /** Issue 19: where nobody signs, a photo of where the medication was left. */
  photo: z.object({ attachment: z.object({ file: PhotoFilePart }) }).optional(),
  latitude: Coordinate(90).optional(),
  longitude: Coordinate(180).optional(),
  signed_by: Text(80).optional(),
  dob_verified: Bool.optional(),
  other_relationship_description: Text(OTHER_DESCRIPTION_MAX_LENGTH).optional(),
  // Spec §9: the recipient step's own caps, so the document states what the server refuses.
  recipient_first_name: Text(NAME_MAX_LENGTH).optional(),
  recipient_last_name: Text(NAME_MAX_LENGTH).optional(),
  survey: z
    .object({
      have_you_left_prescription_at_pharmacy: Bool.nullish(),
      use_delivery_service_again: Bool.nullish(),
      refill_reminder_opt_in: Bool.nullish(),
    })
    .optional(),
  order_payment: z
    .object({
      payment_type: z.enum(WIRE_PAYMENT_TYPES, { error: "must be cash, check or credit_card" }),
      amount: MoneyAmount,
      new_copay: MoneyAmount.nullish(),
      transaction_id: Text(128).nullish(),
    })
    .optional(),
  identification_state: Text(8).optional(),
  identification_type: z.enum(ID_TYPES.map((t) => t.key) as [string, ...string[]], { error: "must be driver, military, passport or state" }).optional(),
  identification_number: Text(64).optional(),
  /** YYYY-MM-DD, or MM/DD/YYYY as typed. */
  identification_expiration: Text(10).optional(),
  signature_refusal_reason: Text(64).optional(),
});
export type DeliveryFields = z.infer<typeof DeliveryFields>;

export const DeliveryRequest = z.object({
  /** The CSRF token travels here in a multipart form (read before validation). */
  _csrf_token: StoredText(200).optional(),
  delivery: DeliveryFields,
});
export type DeliveryRequest = z.infer<typeof DeliveryRequest>;

/** The JSON failure body alone, for clients and docs. */
export const FailedDeliveryRequest = z.object({
  delivery: z.object({
    failure_reason: z.enum(FAILURE_REASON_NAMES),
    client_occurred_at: Instant,
    order_ids: z.array(RecordId).min(1).max(MAX_ORDERS_PER_DELIVERY),
    body: Notes.nullish(),
  }),
});
export type FailedDeliveryRequest = z.infer<typeof FailedDeliveryRequest>;

export const DeliveryResponse = z.object({
  delivery: z.object({
    id: z.number().int(),
    status: z.enum(["delivered", "delivery_attempted"]),
    order_ids: z.array(z.number().int()),
  }),
});
export type DeliveryResponse = z.infer<typeof DeliveryResponse>;
