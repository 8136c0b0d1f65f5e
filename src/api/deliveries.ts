import { isApiFailure } from "../../domain/api-failure.ts";
import {
  deliveryFormEntries,
  SIGNATURE_FILE_NAME,
  SIGNATURE_MEDIA_TYPE,
  type DeliveryCompletion,
  type FailureSubmission,
  type RecipientSubmission,
} from "../../domain/contract/delivery-submissions.ts";
import type { DeliveryResponse } from "../../domain/contract/deliveries.ts";
import type { SubmissionResult } from "../../machines/delivery-submit.machine.ts";
import type { FormFields, JsonValue, StoredOfflineOrder } from "../../domain/offline-queue.ts";
import { IDEMPOTENCY_KEY_HEADER } from "../offline/idempotency.ts";
import { call } from "./client.ts";
import { dataUrlBytes, PHOTO_FIELD, PHOTO_FILE_NAMES, PHOTO_MEDIA_TYPES } from "../../domain/delivery-photo.ts";

/** The form field that carries the signature as a file (spec §7 "Delivery completion"). */
export const SIGNATURE_FIELD = "delivery[signature][attachment][file]";

/** Form fields as stored on the device (the signature as SVG text) → the multipart body. */
export function toFormData(fields: FormFields): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) {
    if (name === PHOTO_FIELD && typeof value === "string") {
      // Stored as its data: URL (plain JSON in IndexedDB); sent as the image's bytes.
      const type = PHOTO_MEDIA_TYPES.find((candidate) => value.startsWith(`data:${candidate};`)) ?? "image/jpeg";
      form.append(name, new Blob([dataUrlBytes(value) as Uint8Array<ArrayBuffer>], { type }), PHOTO_FILE_NAMES[type]);
      continue;
    }
    if (name === SIGNATURE_FIELD && typeof value === "string") {
      form.append(name, new Blob([value], { type: SIGNATURE_MEDIA_TYPE }), SIGNATURE_FILE_NAME);
      continue;
    }
    for (const item of Array.isArray(value) ? value : [value]) form.append(name, item);
  }
  return form;
}

/**
 * Sends one delivery call — first time or resubmission alike — with the
 * Idempotency-Key made when the courier acted, so the server records it once.
 */
export async function sendStoredOrder(entry: StoredOfflineOrder): Promise<unknown> {
  const headers = { [IDEMPOTENCY_KEY_HEADER]: entry.idempotencyKey };
  if (entry.delivery) {
    const body = toFormData(entry.delivery);
    return call((http) => http.post("courier/deliveries", { body, headers }).json());
  }
  return call((http) => http.post("courier/deliveries", { json: entry.dataToSubmit, headers }).json());
}

// ---------------------------------------------------------------- the delivery flow's submissions

/** What every submission needs besides its payload: the courier's action, and the day it belongs to. */
export interface SubmissionContext {
  /** Made when the courier acted (newIdempotencyKey), reused if the same action is sent again. */
  idempotencyKey: string;
  /** The courier's calendar day (YYYY-MM-DD): stored offline orders expire at its end. */
  storedOn: string;
}

/** deliveryFormEntries → the stored shape: lists under "name[]", the signature file as its SVG text. */
export function formFieldsOf(submission: RecipientSubmission | DeliveryCompletion): FormFields {
  const fields: FormFields = {};
  for (const [name, value] of deliveryFormEntries(submission)) {
    const text = typeof value === "string" ? value : value.content;
    if (name.endsWith("[]")) {
      const list = fields[name];
      fields[name] = Array.isArray(list) ? [...list, text] : [text];
    } else {
      fields[name] = text;
    }
  }
  return fields;
}

type EntryContext = SubmissionContext;

type EntryBase = Pick<StoredOfflineOrder, "kind" | "status" | "delivery" | "dataToSubmit" | "payment">;

function entryOf(orderIds: number[], base: EntryBase, context: EntryContext): StoredOfflineOrder {
  return {
    ...base,
    id: orderIds[0]!,
    orderIds,
    idempotencyKey: context.idempotencyKey,
    storedOn: context.storedOn,
    createdAt: new Date().toISOString(),
  };
}

/** A failed delivery: JSON {delivery:{failure_reason, client_occurred_at, order_ids}}, stored as 'unsubmitted'. */
export function failureEntry(submission: FailureSubmission, context: EntryContext): StoredOfflineOrder {
  const dataToSubmit = JSON.parse(JSON.stringify({ delivery: submission })) as JsonValue;
  return entryOf(
    submission.order_ids,
    { kind: "unsubmitted", status: "delivery_attempted", delivery: null, dataToSubmit, payment: false },
    context,
  );
}

/** Spec §7 "Recipient submission" (No Recipient, contactless with notes), stored as 'recipient'. */
export function recipientEntry(submission: RecipientSubmission, context: EntryContext): StoredOfflineOrder {
  return entryOf(
    submission.order_ids,
    { kind: "recipient", status: "delivered", delivery: formFieldsOf(submission), dataToSubmit: null, payment: false },
    context,
  );
}

/** Spec §7 "Delivery completion" with its signature.svg, stored as 'signature'; the payment flag when money changed hands. */
export function completionEntry(submission: DeliveryCompletion, context: EntryContext): StoredOfflineOrder {
  return entryOf(
    submission.order_ids,
    {
      kind: "signature",
      status: "delivered",
      delivery: formFieldsOf(submission),
      dataToSubmit: null,
      payment: submission.order_payment != null,
    },
    context,
  );
}

function hasDelivery(response: unknown): response is DeliveryResponse {
  return typeof response === "object" && response !== null && typeof (response as { delivery?: unknown }).delivery === "object" &&
    (response as { delivery?: unknown }).delivery !== null;
}

/** Spec §4/§8: no response (or 503) on a delivery call means "store it on the device and carry on". */
const failedOnNetwork = (error: unknown) => isApiFailure(error) && (error.kind === "network" || error.kind === "unavailable");

/**
 * Sends the entry. On a network failure it answers {queued: true, entry}: the
 * delivery flow hands the entry to the offline queue and carries on as if
 * done; any other failure rejects with the ApiFailure for the machine to show.
 * `storeIfNoData`: spec §7, a recipient submission answered 200 without data
 * is stored for resubmission too.
 */
async function sendOrQueue(entry: StoredOfflineOrder, storeIfNoData = false): Promise<SubmissionResult> {
  let response: unknown;
  try {
    response = await sendStoredOrder(entry);
  } catch (error) {
    if (!failedOnNetwork(error)) throw error;
    return { queued: true, entry };
  }
  if (hasDelivery(response)) return { queued: false, delivery: response.delivery };
  if (storeIfNoData) return { queued: true, entry };
  return { queued: false, delivery: null };
}

export function submitFailure(submission: FailureSubmission, context: SubmissionContext): Promise<SubmissionResult> {
  return sendOrQueue(failureEntry(submission, context));
}

export function submitRecipient(submission: RecipientSubmission, context: SubmissionContext): Promise<SubmissionResult> {
  return sendOrQueue(recipientEntry(submission, context), true);
}

export function submitDelivery(submission: DeliveryCompletion, context: SubmissionContext): Promise<SubmissionResult> {
  return sendOrQueue(completionEntry(submission, context));
}
