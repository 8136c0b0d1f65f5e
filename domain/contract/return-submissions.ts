import { centsToDecimal } from "../money.ts";
import type { ReturnLine, ReturnLineType } from "../returns.ts";
import { signatureFile } from "./delivery-submissions.ts";
import { flattenFormFields, type FormValue } from "./form-fields.ts";

/**
 * POST /api/courier/pharmacies/{id}/returns (spec §7 "Reconcile signature"):
 * what the app sends, zod-free, so the returns screens do not load zod and
 * build the server's schemas (returns.ts, which re-exports this) when they open.
 */

/** More lines than any courier's day holds at one pharmacy. */
export const MAX_RETURN_LINES = 500;
/** The returns field is JSON text inside the form. */
export const RETURNS_FIELD_MAX_LENGTH = 48 * 1024;

/** A return line on the wire: its amount as a decimal string. */
export interface WireReturnLine {
  type: ReturnLineType;
  amount: string;
  order_id: number;
}

/** What the app sends. latitude/longitude only where geolocation was granted (never on the local host). */
export interface ReturnSubmission {
  recipient_first_name: string;
  recipient_last_name: string;
  /** The pad's SVG, sent as signature.svg. */
  signature_svg: string;
  courier_id: number;
  pharmacy_id: number;
  cash_collected: string;
  check_collected: string;
  latitude: number | null;
  longitude: number | null;
  returns: WireReturnLine[];
}

export function toWireReturnLine(line: ReturnLine): WireReturnLine {
  return { type: line.type, amount: centsToDecimal(line.amount)!, order_id: line.order_id };
}

/** The multipart entries of a return (spec §7 field names). */
export function returnFormEntries(submission: ReturnSubmission, csrfToken?: string): [string, FormValue][] {
  const { signature_svg, returns, ...fields } = submission;
  const entries = flattenFormFields({
    ...fields,
    signature: { attachment: { file: signatureFile(signature_svg) } },
    returns: JSON.stringify(returns),
  });
  return csrfToken ? [["_csrf_token", csrfToken], ...entries] : entries;
}
