import { toFormData } from "../../domain/contract/form-fields.ts";
import type { ReturnResponse } from "../../domain/contract/returns.ts";
import { returnFormEntries, type ReturnSubmission } from "../../domain/contract/return-submissions.ts";
import { IDEMPOTENCY_KEY_HEADER, newIdempotencyKey } from "../offline/idempotency.ts";
import { call } from "./client.ts";

/**
 * The Idempotency-Key of each return as sent: the same return sent again
 * (a retry after a timeout whose answer was lost) carries the same key, so
 * the server answers it from the first and records the return once. A changed
 * return (another name, a new signature) is a new request with a new key.
 */
const keys = new Map<string, string>();

function keyOf(pharmacyId: number, submission: ReturnSubmission): string {
  const fingerprint = JSON.stringify([pharmacyId, submission]);
  let key = keys.get(fingerprint);
  if (!key) {
    key = newIdempotencyKey();
    keys.set(fingerprint, key);
  }
  return key;
}

/** POST /courier/pharmacies/{id}/returns: the reconcile signature form (spec §7), CSRF in the header. */
export async function submitReturn(submission: ReturnSubmission): Promise<ReturnResponse> {
  const pharmacyId = submission.pharmacy_id;
  const body = toFormData(returnFormEntries(submission));
  const headers = { [IDEMPOTENCY_KEY_HEADER]: keyOf(pharmacyId, submission) };
  return call((http) => http.post(`courier/pharmacies/${pharmacyId}/returns`, { body, headers }).json<ReturnResponse>());
}
