import type { FAILURE_REASON_NAMES } from "../vocabulary.ts";
import { PHOTO_FILE_NAMES, type DeliveryPhoto } from "../delivery-photo.ts";
import { flattenFormFields, type FormFile, type FormValue } from "./form-fields.ts";

/**
 * POST /api/courier/deliveries (spec §7): a failed delivery as JSON
 * {delivery:{failure_reason, client_occurred_at, order_ids}}, or a multipart
 * form: the recipient submission (No Recipient, contactless) or the delivery
 * completion with its signature.svg. Both encodings validate against one
 * schema; the form's bracketed names are nested first (form-fields.ts).
 */

export const SIGNATURE_FILE_NAME = "signature.svg";
export const SIGNATURE_MEDIA_TYPE = "image/svg+xml";

/** "image/svg+xml", with parameters (charset=utf-8) or in any case: the media type is what counts. */
export function isSignatureMediaType(contentType: string): boolean {
  const [essence, ...parameters] = contentType.split(";").map((part) => part.trim().toLowerCase());
  if (essence !== SIGNATURE_MEDIA_TYPE) return false;
  // The file is read as UTF-8; another declared charset would be misread.
  return parameters.every((parameter) => !parameter.startsWith("charset=") || /^charset="?utf-8"?$/.test(parameter));
}
/** Multipart limits: the signature file, all text fields together, and the number of parts. */
export const SIGNATURE_MAX_BYTES = 256 * 1024;
export const FORM_FIELDS_MAX_BYTES = 64 * 1024;
export const FORM_MAX_PARTS = 60;
/** A delivery groups at most this many orders (one door, one handover). */
export const MAX_ORDERS_PER_DELIVERY = 20;
export const NOTES_MAX_LENGTH = 1000;

export const SURVEY_QUESTIONS = [
  "have_you_left_prescription_at_pharmacy",
  "use_delivery_service_again",
  "refill_reminder_opt_in",
] as const;
export type SurveyQuestion = (typeof SURVEY_QUESTIONS)[number];
export type DeliverySurvey = Record<SurveyQuestion, boolean | null>;

/** Payment types on the wire: the card is sent as credit_card (spec §3). */
export const WIRE_PAYMENT_TYPES = ["cash", "check", "credit_card"] as const;
export type WirePaymentType = (typeof WIRE_PAYMENT_TYPES)[number];

// ---------------------------------------------------------------- what the app sends

/** A failed delivery (spec §3 "Delivery failure payload"); notes when the courier wrote some. */
export interface FailureSubmission {
  failure_reason: (typeof FAILURE_REASON_NAMES)[number];
  client_occurred_at: string;
  order_ids: number[];
  body?: string | null;
}

/** Spec §7 "Recipient submission": No Recipient, or contactless with notes. */
export interface RecipientSubmission {
  order_ids: number[];
  relationship: string;
  relationship_id: number;
  recipient_called_at: string | null;
  client_occurred_at: string;
  /** The courier's notes. */
  body: string;
  /** Issue 19: the photo of the drop-off, when one was taken. */
  photo?: DeliveryPhoto | null;
  latitude?: number | null;
  longitude?: number | null;
}

export interface DeliveryPayment {
  payment_type: WirePaymentType;
  /** What was collected, "12.50". */
  amount: string;
  /** The courier's corrected copay, when the copay was corrected. */
  new_copay: string | null;
  /** The card authorization's transaction id. */
  transaction_id: string | null;
}

/** Spec §7 "Delivery completion". latitude/longitude are added by the app where geolocation is granted. */
export interface DeliveryCompletion {
  order_ids: number[];
  /** The pad's SVG; null when not signed (a refusal reason is given instead). */
  signature_svg: string | null;
  /** Notes for a signature refusal. */
  body: string | null;
  signed_by: string | null;
  dob_verified: boolean | null;
  recipient_called_at: string | null;
  client_occurred_at: string;
  relationship_id: number;
  recipient_first_name: string | null;
  recipient_last_name: string | null;
  other_relationship_description: string | null;
  survey: DeliverySurvey;
  order_payment: DeliveryPayment | null;
  identification_state: string | null;
  identification_type: string | null;
  identification_number: string | null;
  /** YYYY-MM-DD. */
  identification_expiration: string | null;
  signature_refusal_reason: string | null;
  /** Issue 19: the photo of the drop-off where nobody signed. */
  photo?: DeliveryPhoto | null;
  latitude?: number | null;
  longitude?: number | null;
}

/** The signature as the form's file part. */
export function signatureFile(svg: string): FormFile {
  return { filename: SIGNATURE_FILE_NAME, type: SIGNATURE_MEDIA_TYPE, content: svg };
}

/** The photo as the form's file part: its content is the data: URL, turned into bytes by the app's form builder. */
export function photoFile(photo: DeliveryPhoto): FormFile {
  return { filename: PHOTO_FILE_NAMES[photo.media_type], type: photo.media_type, content: photo.data_url };
}

/** The multipart entries of a recipient submission or a completion (spec §7 field names). */
export function deliveryFormEntries(submission: RecipientSubmission | DeliveryCompletion, csrfToken?: string): [string, FormValue][] {
  const delivery: Record<string, unknown> = { ...submission };
  if ("signature_svg" in submission) {
    delete delivery.signature_svg;
    if (submission.signature_svg != null) delivery.signature = { attachment: { file: signatureFile(submission.signature_svg) } };
  }
  delete delivery.photo;
  if (submission.photo) delivery.photo = { attachment: { file: photoFile(submission.photo) } };
  const entries = flattenFormFields({ delivery });
  return csrfToken ? [["_csrf_token", csrfToken], ...entries] : entries;
}
