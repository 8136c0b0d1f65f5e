import { inArray } from "drizzle-orm";
import { isSignatureMediaType, SURVEY_QUESTIONS, type DeliveryFields, type DeliveryResponse } from "../../domain/contract/deliveries.ts";
import type { Order } from "../../domain/contract/entities.ts";
import { isoToUsDate } from "../../domain/dates.ts";
import { copayCorrectionRefusal } from "../../domain/copay.ts";
import { deliveryOutcomePlan, recordedRecipientOf, type DeliveryOutcome, type OrderOutcomeFields } from "../../domain/delivery-outcome.ts";
import {
  amountOwedCents,
  correctedCopayCents,
  dobCanBeVerified,
  dobVerificationNeeded,
  dobVerifiedAtFailure,
  groupableWith,
  groupOrdersOffered,
  identificationNeeded,
  identificationProblems,
  normalizedIdentification,
  paymentMethodAllowed,
  paymentTotalCents,
  signatureProblem,
} from "../../domain/delivery-rules.ts";
import { centsToDecimal, parseDecimalToCents, type Cents } from "../../domain/money.ts";
import {
  isOther,
  isRelationshipOffered,
  namesLockedToPatient,
  recipientContinueEnabled,
  recipientProblems,
  recipientSkipped,
  relationshipName,
  submittedAtRecipientStep,
  type RecipientForm,
} from "../../domain/recipient.ts";
import { FAILURE_REASONS, type PaymentType } from "../../domain/vocabulary.ts";
import { nextOrderStatus } from "../../machines/order-status.ts";
import type { Db, Tx } from "../db/client.ts";
import { deliveries, deliveryOrders, deliveryPhotos, pharmacies } from "../db/schema.ts";
import { photoAllowed } from "../../domain/delivery-photo.ts";
import { badRequest, conflict, HttpError } from "../http/errors.ts";
import { applyMoves, lockOwnOrders, planTransition, type OrderChanges, type OrderRow } from "./order-transitions.ts";
import { settleCardsAfterDelivery } from "./card-settlement.ts";
import { holdingPayment, type PaymentServiceDeps } from "./payments.ts";
import { reencodePhoto, type StoredPhoto } from "./photo.ts";
import { checkSignatureSvg } from "./signature-svg.ts";
import { orderView, pharmacyView } from "./views.ts";

/**
 * POST /api/courier/deliveries (spec §4, §5, §7): a failed attempt, a
 * recipient submission (No Recipient, contactless with notes) or a delivery
 * completion. The same domain rules the app's machine applies decide what is
 * accepted; everything is written in one transaction, or nothing is.
 */

type DeliveryInsert = Omit<typeof deliveries.$inferInsert, "id" | "courierId" | "createdAt">;

interface Plan {
  delivery: DeliveryInsert;
  /** What the orders take on: domain/delivery-outcome.ts, the rule the app's copy of the day follows too. */
  outcome: DeliveryOutcome;
}

export interface RecordedDelivery {
  response: DeliveryResponse;
  /** Card authorizations to capture (a completed delivery) or release (a failed one) once committed. */
  settle: "capture" | "release";
}

type Kind = "failed" | "recipient" | "completion";

const instant = (iso: string | null | undefined) => (iso ? new Date(iso) : null);
const firstProblem = (problems: Record<string, string | undefined>) => Object.values(problems).find(Boolean) ?? null;

/** Which of the three submissions this is, from the fields sent. */
function kindOf(fields: DeliveryFields): Kind {
  if (fields.failure_reason) {
    if (fields.relationship_id != null || fields.signature || fields.signature_refusal_reason || fields.order_payment || fields.photo) {
      throw badRequest("A failed delivery has no recipient, signature, payment or photo.");
    }
    return "failed";
  }
  if (fields.relationship_id == null) {
    throw badRequest("Say who accepted the delivery (relationship_id), or why it failed (failure_reason).");
  }
  const name = relationshipName(fields.relationship_id);
  if (!name) throw badRequest(`Relationship ${fields.relationship_id} is not one of the product's relationships.`);
  if (fields.relationship != null && fields.relationship.toLowerCase() !== name.toLowerCase()) {
    throw badRequest(`The relationship "${fields.relationship}" is not relationship ${fields.relationship_id} (${name}).`);
  }
  const signing = fields.signature != null || fields.signature_refusal_reason != null;
  return !signing && recipientSkipped({ relationship_id: fields.relationship_id }) ? "recipient" : "completion";
}

/**
 * Issue 19: a photo goes only where nobody signs. Issue 24: it is kept only
 * as the server's own JPEG, re-encoded from bytes that are a bounded JPEG,
 * WebP or PNG (server/services/photo.ts; the declared type is not trusted).
 */
async function checkPhoto(fields: DeliveryFields, kind: Kind): Promise<StoredPhoto | null> {
  const file = fields.photo?.attachment.file;
  if (!file) return null;
  const nobodySigned = photoAllowed({
    signed: fields.signature != null,
    skippedRecipient: kind === "recipient",
    refusalReason: fields.signature_refusal_reason ?? null,
  });
  if (!nobodySigned) {
    throw badRequest("A photo of the drop-off goes only with a delivery nobody signed for: No Recipient, contactless, or a reason for not signing.");
  }
  return reencodePhoto(Buffer.from(file.content, "base64"));
}

async function orderViews(tx: Tx, rows: OrderRow[]): Promise<Map<number, Order>> {
  const pharmacyRows = await tx.select().from(pharmacies).where(inArray(pharmacies.id, [...new Set(rows.map((row) => row.pharmacyId))]));
  const byId = new Map(pharmacyRows.map((row) => [row.id, pharmacyView(row)]));
  return new Map(rows.map((row) => [row.id, orderView(row, byId.get(row.pharmacyId)!)]));
}

/** Spec §5 Group Orders: the first order leads; the others must be eligible with it. */
function checkGroup(primary: Order, others: Order[]): void {
  if (others.length === 0) return;
  if (!groupOrdersOffered(primary)) {
    throw new HttpError(400, "not_groupable", `Order ${primary.id} cannot be delivered as a group: it has a payment due, is a controlled substance or needs ID.`);
  }
  const stray = others.find((other) => !groupableWith(primary, other));
  if (stray) {
    throw new HttpError(
      400,
      "not_groupable",
      `Order ${stray.id} cannot be grouped with order ${primary.id}: grouped orders are picked up, from the same pharmacy and address, with copay 0.00, no delivery fee and no ID.`,
    );
  }
}

function checkOffered(primary: Order, relationshipId: number): void {
  if (!isRelationshipOffered(primary, relationshipId)) {
    throw badRequest(`${relationshipName(relationshipId)} is not offered as the recipient of order ${primary.id}.`);
  }
}

function failedPlan(fields: DeliveryFields): Plan {
  const reason = FAILURE_REASONS.find((r) => r.name === fields.failure_reason)!;
  return {
    delivery: {
      outcome: "failed",
      failureReasonId: reason.id,
      // 'Did not verify date of birth' answers the question (false); null stays "not asked".
      dobVerified: dobVerifiedAtFailure(reason.name),
      body: fields.body ?? null,
      clientOccurredAt: instant(fields.client_occurred_at),
      latitude: fields.latitude ?? null,
      longitude: fields.longitude ?? null,
    },
    outcome: { outcome: "attempted", orderIds: fields.order_ids },
  };
}

function recipientPlan(fields: DeliveryFields, primary: Order): Plan {
  const relationshipId = fields.relationship_id!;
  checkOffered(primary, relationshipId);
  const form: RecipientForm = {
    relationship_id: relationshipId,
    first_name: "",
    last_name: "",
    other_description: "",
    courier_notes: fields.body ?? "",
    failed: false,
  };
  if (!submittedAtRecipientStep(form) || !recipientContinueEnabled(form)) {
    throw badRequest(firstProblem(recipientProblems(form)) ?? "This recipient cannot be submitted without a signature.");
  }
  return {
    delivery: {
      outcome: "completed",
      relationshipId,
      body: form.courier_notes.trim(),
      dobVerified: fields.dob_verified ?? null,
      recipientCalledAt: instant(fields.recipient_called_at),
      clientOccurredAt: instant(fields.client_occurred_at),
      latitude: fields.latitude ?? null,
      longitude: fields.longitude ?? null,
    },
    outcome: {
      outcome: "delivered",
      orderIds: fields.order_ids,
      recipient: recordedRecipientOf(form, fields.recipient_called_at ?? null),
      identification: null,
      payment: null,
    },
  };
}

interface PaymentTaken {
  method: PaymentType;
  amountCents: Cents;
  newCopayCents: Cents | null;
}

const WIRE_METHOD: Record<string, PaymentType> = { cash: "cash", check: "check", credit_card: "card" };

/** The completion's payment fields against what is owed (cash, check) or was authorized (card). */
async function checkPayment(tx: Tx, fields: DeliveryFields, primary: Order, grouped: boolean, form: RecipientForm): Promise<PaymentTaken | null> {
  const payment = fields.order_payment;
  if (!payment) return null;
  if (grouped) throw badRequest("A payment belongs to one order; grouped orders have nothing owed.");
  if (recipientSkipped(form)) throw badRequest("No payment is taken when nobody accepts the delivery.");
  const method = WIRE_METHOD[payment.payment_type]!;
  if (!paymentMethodAllowed(primary.pharmacy, method)) {
    throw badRequest(`${primary.pharmacy.name} does not accept ${method === "card" ? "cards" : method} at the door.`);
  }
  let newCopayCents: Cents | null = null;
  if (payment.new_copay != null) {
    newCopayCents = correctedCopayCents(payment.new_copay);
    if (newCopayCents == null) throw badRequest("The corrected copay must have at least 3 digits, not all zeros, and be at least 1.00.");
    const refusal = copayCorrectionRefusal(primary, newCopayCents);
    if (refusal) throw badRequest(refusal);
  }
  const amountCents = parseDecimalToCents(payment.amount)!;

  if (method === "card") {
    const held = await holdingPayment(tx, primary.id);
    if (!held || !payment.transaction_id || held.transactionId !== payment.transaction_id) {
      throw conflict(`Order ${primary.id} has no card authorization${payment.transaction_id ? ` with transaction ${payment.transaction_id}` : ""}.`);
    }
    if (held.amountCents !== amountCents || (held.newCopayCents ?? null) !== newCopayCents) {
      throw badRequest(`The card payment of order ${primary.id} was authorized for ${centsToDecimal(held.amountCents)}, not ${payment.amount}.`);
    }
    return { method, amountCents, newCopayCents };
  }

  if (amountOwedCents(primary) === 0) throw conflict(`Nothing is owed on order ${primary.id}.`);
  const total = paymentTotalCents(primary, newCopayCents);
  if (amountCents !== total) {
    throw badRequest(`The amount ${payment.amount} is not the ${centsToDecimal(total)} owed on order ${primary.id}.`);
  }
  return { method, amountCents, newCopayCents };
}

async function completionPlan(tx: Tx, fields: DeliveryFields, ordered: Order[], today: string): Promise<Plan> {
  const [primary, ...others] = ordered as [Order, ...Order[]];
  const grouped = others.length > 0;
  const relationshipId = fields.relationship_id!;
  checkOffered(primary, relationshipId);

  // The recipient, as the recipient step builds it: Patient (not grouped) is the patient.
  let form: RecipientForm = {
    relationship_id: relationshipId,
    first_name: fields.recipient_first_name ?? "",
    last_name: fields.recipient_last_name ?? "",
    other_description: fields.other_relationship_description ?? "",
    courier_notes: recipientSkipped({ relationship_id: relationshipId }) ? (fields.body ?? "") : "",
    failed: false,
  };
  if (namesLockedToPatient(form, grouped)) form = { ...form, first_name: primary.patient_first_name, last_name: primary.patient_last_name };
  if (!isOther(form)) form.other_description = "";
  const recipientProblem = firstProblem(recipientProblems(form));
  if (recipientProblem) throw badRequest(recipientProblem);

  const file = fields.signature?.attachment.file ?? null;
  if (file && fields.signature_refusal_reason) throw badRequest("Send the signature or a reason for not signing, not both.");
  if (file) {
    if (!isSignatureMediaType(file.type)) throw badRequest("The signature must be an SVG image (image/svg+xml).");
    const verdict = checkSignatureSvg(file.content);
    if (!verdict.ok) throw new HttpError(400, "invalid_signature", verdict.reason);
  }
  const refusal = fields.signature_refusal_reason ?? null;
  const signatureIssue = signatureProblem({ signed: file != null, refusal_reason: refusal, refusal_notes: fields.body ?? "" }, primary);
  if (signatureIssue) throw new HttpError(400, "signature_required", signatureIssue);

  // The same rule as the delivery-flow machine's guard: no date on file, nothing to confirm.
  if (fields.dob_verified === true && !dobCanBeVerified(primary)) {
    throw badRequest(
      `Order ${primary.id} has no date of birth on file, so it cannot be verified. Choose 'Did not verify date of birth' and return the order to the pharmacy.`,
    );
  }
  if (dobVerificationNeeded(primary) && fields.dob_verified !== true) {
    throw badRequest("The patient's date of birth must be verified before the delivery is completed.");
  }

  const needsId = ordered.some(identificationNeeded);
  let id: ReturnType<typeof normalizedIdentification> = null;
  if (needsId) {
    const expiration = fields.identification_expiration ?? "";
    const idForm = {
      type: fields.identification_type ?? null,
      state: fields.identification_state ?? "",
      number: fields.identification_number ?? "",
      expiration: /^\d{4}-\d{2}-\d{2}$/.test(expiration) ? (isoToUsDate(expiration) ?? expiration) : expiration,
    };
    const idProblem = firstProblem(identificationProblems(idForm, today));
    if (idProblem) throw new HttpError(400, "identification_required", `ID: ${idProblem}`);
    id = normalizedIdentification(idForm);
  }

  const payment = await checkPayment(tx, fields, primary, grouped, form);
  const text = (value: string) => (value.trim() === "" ? null : value.trim());
  const calledAt = instant(fields.recipient_called_at);
  const recipient = {
    recipientRelationshipId: relationshipId,
    recipientFirstName: text(form.first_name),
    recipientLastName: text(form.last_name),
    otherRecipientDescription: text(form.other_description),
    recipientCalledAt: calledAt,
  };
  // Every question is kept, unanswered ones as null (a form does not send them).
  const survey = fields.survey ? Object.fromEntries(SURVEY_QUESTIONS.map((q) => [q, fields.survey?.[q] ?? null])) : null;

  return {
    delivery: {
      outcome: "completed",
      relationshipId,
      recipientFirstName: recipient.recipientFirstName,
      recipientLastName: recipient.recipientLastName,
      otherRelationshipDescription: recipient.otherRecipientDescription,
      signedBy: file ? (fields.signed_by ?? null) : null,
      signatureSvg: file?.content ?? null,
      signatureRefusalReason: refusal,
      body: fields.body ?? null,
      dobVerified: fields.dob_verified ?? null,
      recipientCalledAt: calledAt,
      clientOccurredAt: instant(fields.client_occurred_at),
      latitude: fields.latitude ?? null,
      longitude: fields.longitude ?? null,
      survey,
      identificationState: id?.identification_state ?? null,
      identificationType: id?.identification_type ?? null,
      identificationNumber: id?.identification_number ?? null,
      identificationExpiration: id?.identification_expiration ?? null,
      paymentType: fields.order_payment?.payment_type ?? null,
      paymentAmountCents: payment?.amountCents ?? null,
    },
    outcome: {
      outcome: "delivered",
      orderIds: fields.order_ids,
      // The names this request recorded (the delivery row above keeps the same).
      recipient: {
        relationship_id: relationshipId,
        first_name: recipient.recipientFirstName,
        last_name: recipient.recipientLastName,
        other_description: recipient.otherRecipientDescription,
        called_at: fields.recipient_called_at ?? null,
      },
      identification: id,
      payment: payment && fields.order_payment ? { payment_type: fields.order_payment.payment_type, new_copay: centsToDecimal(payment.newCopayCents) } : null,
    },
  };
}

/** The order's columns for the fields a delivery writes (domain/delivery-outcome.ts names them as the API does). */
function rowChangesOf(fields: OrderOutcomeFields): OrderChanges {
  const changes: OrderChanges = {};
  if (fields.recipient_relationship_id !== undefined) changes.recipientRelationshipId = fields.recipient_relationship_id;
  if (fields.recipient_first_name !== undefined) changes.recipientFirstName = fields.recipient_first_name;
  if (fields.recipient_last_name !== undefined) changes.recipientLastName = fields.recipient_last_name;
  if (fields.other_recipient_description !== undefined) changes.otherRecipientDescription = fields.other_recipient_description;
  if (fields.recipient_called_at !== undefined) changes.recipientCalledAt = instant(fields.recipient_called_at);
  if (fields.identification_type !== undefined) changes.identificationType = fields.identification_type;
  if (fields.identification_state !== undefined) changes.identificationState = fields.identification_state;
  if (fields.identification_number !== undefined) changes.identificationNumber = fields.identification_number;
  if (fields.identification_expiration !== undefined) changes.identificationExpiration = fields.identification_expiration;
  if (fields.copay !== undefined) changes.copayCents = parseDecimalToCents(fields.copay);
  if (fields.payment_type !== undefined) changes.paymentType = fields.payment_type;
  if (fields.payment_collected !== undefined) changes.paymentCollected = fields.payment_collected;
  if (fields.payment_authorized !== undefined) changes.paymentAuthorized = fields.payment_authorized;
  return changes;
}

export interface RecordDeliveryOptions {
  /**
   * The request's Idempotency-Key, kept on the delivery. Its unique index
   * (courier, key) is a safety net only: a replay is answered by the HTTP
   * layer's stored response (server/http/idempotency.ts), never looked up here.
   */
  idempotencyKey?: string | null;
  /**
   * Runs inside the delivery's transaction, after every write: the HTTP layer
   * stores its answer here, so the delivery and the answer to its retry
   * commit together (a crash between them cannot record it twice).
   */
  beforeCommit?: (tx: Tx, response: DeliveryResponse) => Promise<void>;
}

export async function recordDelivery(
  db: Db,
  courierId: number,
  fields: DeliveryFields,
  today: string,
  options: RecordDeliveryOptions = {},
): Promise<RecordedDelivery> {
  const idempotencyKey = options.idempotencyKey ?? null;
  const kind = kindOf(fields);
  const photo = await checkPhoto(fields, kind);
  const event = kind === "failed" ? "ATTEMPT_DELIVERY" : "DELIVER";
  return db.transaction(async (tx) => {
    const rows = await lockOwnOrders(tx, courierId, fields.order_ids);
    planTransition(rows, event);
    const views = await orderViews(tx, rows);
    const ordered = fields.order_ids.map((orderId) => views.get(orderId)!);
    checkGroup(ordered[0]!, ordered.slice(1));

    const plan =
      kind === "failed"
        ? failedPlan(fields)
        : kind === "recipient"
          ? recipientPlan(fields, ordered[0]!)
          : await completionPlan(tx, fields, ordered, today);

    const [delivery] = await tx
      .insert(deliveries)
      .values({ courierId, ...plan.delivery, idempotencyKey })
      .returning({ id: deliveries.id });
    await tx.insert(deliveryOrders).values(fields.order_ids.map((orderId) => ({ deliveryId: delivery!.id, orderId })));
    // Keyed by the delivery: a replay (same Idempotency-Key) is answered before the route runs, so a photo is stored once.
    if (photo) await tx.insert(deliveryPhotos).values({ deliveryId: delivery!.id, mediaType: photo.mediaType, byteSize: photo.bytes.length, bytes: photo.bytes });
    const occurredAt = instant(fields.client_occurred_at);
    const position = { latitude: fields.latitude ?? null, longitude: fields.longitude ?? null };
    const moves = new Map(
      deliveryOutcomePlan(ordered, plan.outcome, nextOrderStatus).map(({ order, status, fields }) => [order.id, { to: status, changes: rowChangesOf(fields) }]),
    );
    for (const row of rows) await applyMoves(tx, courierId, [row], event, moves, occurredAt, position);

    const response: DeliveryResponse = {
      delivery: { id: delivery!.id, status: kind === "failed" ? "delivery_attempted" : "delivered", order_ids: fields.order_ids },
    };
    await options.beforeCommit?.(tx, response);
    return { response, settle: kind === "failed" ? "release" : "capture" };
  });
}

/**
 * POST /courier/deliveries: records the delivery, then (committed) captures
 * the cards of a completed one or releases those of a failed one.
 */
export async function recordDeliveryAndSettleCards(
  deps: PaymentServiceDeps,
  courierId: number,
  fields: DeliveryFields,
  today: string,
  options: RecordDeliveryOptions = {},
): Promise<DeliveryResponse> {
  const { response, settle } = await recordDelivery(deps.db, courierId, fields, today, options);
  await settleCardsAfterDelivery(deps, response.delivery.order_ids, settle);
  return response;
}
