import type { SnapshotFrom } from "xstate";
import { DELIVERY_DRAFT_VERSION, deliveryDraftOf, type DeliveryDraft, type DraftPlace } from "../../../domain/delivery-draft.ts";
import { DELIVERY_STEPS, submissionKindOf, type DeliverySubmission } from "../../../domain/delivery-record.ts";
import type { deliveryFlowMachine } from "../../../machines/delivery-flow.machine.ts";
import type { MemoValue } from "./action-memo.ts";

/**
 * A delivery in progress survives a reload (issue 4): its draft — where the
 * courier was and what they entered (domain/delivery-draft.ts: plain data the
 * domain owns, a signature's SVG, a photo; never card data) — is kept per
 * order in localStorage with what each action was sent with, and the flow
 * starts from it again. Entries are for one courier and day only, and are
 * removed when the delivery is finished or attempted.
 */

import { flowKeys, PREFIX } from "../../offline/flow-keys.ts";
const VERSION = 2;

export interface StoredFlow {
  version: typeof VERSION;
  courierId: number;
  /** The courier's day (YYYY-MM-DD). */
  day: string;
  draft: DeliveryDraft;
  memo: Record<string, MemoValue>;
}


function storage(): Storage | null {
  try {
    return typeof window === "undefined" ? null : window.localStorage;
  } catch {
    // Storage disabled (private mode, policy): the flow still works, it just does not survive a reload.
    return null;
  }
}

const keyOf = (orderId: number) => `${PREFIX}${orderId}`;

function read(key: string): StoredFlow | null {
  try {
    const raw = storage()?.getItem(key);
    if (!raw) return null;
    const parsed = JSON.parse(raw) as Partial<StoredFlow>;
    if (parsed.version !== VERSION || typeof parsed.courierId !== "number" || typeof parsed.day !== "string") return null;
    const draft = deliveryDraftOf(parsed.draft, Number(key.slice(PREFIX.length)));
    if (!draft) return null;
    return { version: VERSION, courierId: parsed.courierId, day: parsed.day, draft, memo: parsed.memo ?? {} };
  } catch {
    return null;
  }
}

/** The saved flow of this order for this courier and day; anything else found under its key is removed. */
export function loadFlow(orderId: number, courierId: number, day: string): StoredFlow | null {
  const flow = read(keyOf(orderId));
  if (flow && flow.courierId === courierId && flow.day === day) return flow;
  clearFlow(orderId);
  return null;
}

export function saveFlow(orderId: number, flow: Omit<StoredFlow, "version">): void {
  try {
    storage()?.setItem(keyOf(orderId), JSON.stringify({ ...flow, version: VERSION }));
  } catch {
    // Quota or storage refused: the delivery goes on; only a reload would lose the step.
  }
}

export function clearFlow(orderId: number): void {
  try {
    storage()?.removeItem(keyOf(orderId));
  } catch {
    // Nothing stored, nothing to clear.
  }
}

/** Patient data of another courier or day has no business on the device. */
export function purgeStaleFlows(courierId: number, day: string): void {
  const store = storage();
  if (!store) return;
  for (const key of flowKeys(store)) {
    const flow = read(key);
    if (!flow || flow.courierId !== courierId || flow.day !== day) store.removeItem(key);
  }
}

type DeliveryFlowSnapshot = SnapshotFrom<typeof deliveryFlowMachine>;

const SENDING: Record<DeliverySubmission["kind"], DraftPlace> = { failure: "sendingFailure", recipient: "sendingRecipient", delivery: "sendingDelivery" };

/** Where the flow is, as a draft names it (a confirmation open is its step: a reload shows the step again). */
function placeOf(snapshot: DeliveryFlowSnapshot): DraftPlace {
  if (snapshot.matches("submitting")) return SENDING[submissionKindOf(snapshot.context)];
  if (snapshot.matches({ steps: "confirmingFailure" })) return snapshot.context.confirming?.step ?? "address";
  if (snapshot.matches({ steps: { recipient: "photo" } })) return "recipientPhoto";
  if (snapshot.matches({ steps: { signature: "photo" } })) return "signaturePhoto";
  return DELIVERY_STEPS.find((step) => snapshot.matches({ steps: step })) ?? "address";
}

/** The delivery as the courier has entered it so far: what the flow's snapshot shows, as the domain's draft. */
export function draftOf(snapshot: DeliveryFlowSnapshot): DeliveryDraft {
  const { context } = snapshot;
  return {
    version: DELIVERY_DRAFT_VERSION,
    orderId: context.order.id,
    place: placeOf(snapshot),
    reached: context.reached,
    record: {
      groupedOrderIds: context.groupedOrderIds,
      dobVerified: context.dobVerified,
      recipientCalledAt: context.recipientCalledAt,
      recipient: context.recipient,
      identification: context.identification,
      payment: context.payment,
      signature: context.signature,
      survey: context.survey,
      failure: context.failure,
      photo: context.photo,
      occurredAt: context.occurredAt,
    },
  };
}
