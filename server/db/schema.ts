import { sql } from "drizzle-orm";
import {
  bigint,
  boolean,
  date,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
} from "drizzle-orm/pg-core";

/* Money columns hold integer cents; the API turns them into "0.00" strings. */

const createdAt = () => timestamp("created_at", { withTimezone: true }).notNull().defaultNow();

export const couriers = pgTable("couriers", {
  id: integer("id").primaryKey().generatedByDefaultAsIdentity(),
  email: text("email").notNull().unique(),
  passwordHash: text("password_hash").notNull(),
  firstName: text("first_name").notNull(),
  lastName: text("last_name").notNull(),
  selfServiceAddonsEnabled: boolean("self_service_addons_enabled").notNull().default(false),
  createdAt: createdAt(),
});

export const sessions = pgTable(
  "sessions",
  {
    /** sha256 of the cookie value: a database leak does not hand out live sessions. */
    idHash: text("id_hash").primaryKey(),
    courierId: integer("courier_id")
      .notNull()
      .references(() => couriers.id, { onDelete: "cascade" }),
    csrfToken: text("csrf_token").notNull(),
    createdAt: createdAt(),
    lastSeenAt: timestamp("last_seen_at", { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
  },
  (t) => [index("sessions_courier_idx").on(t.courierId)],
);

export const orderStatuses = pgTable("order_statuses", {
  id: integer("id").primaryKey(),
  name: text("name").notNull().unique(),
});

export const relationships = pgTable("relationships", {
  id: integer("id").primaryKey(),
  name: text("name").notNull().unique(),
});

export const failureReasons = pgTable("failure_reasons", {
  id: integer("id").primaryKey(),
  name: text("name").notNull().unique(),
});

export const signatureRefusalReasons = pgTable("signature_refusal_reasons", {
  key: text("key").primaryKey(),
  displayName: text("display_name").notNull(),
});

export const pharmacies = pgTable("pharmacies", {
  id: integer("id").primaryKey().generatedByDefaultAsIdentity(),
  name: text("name").notNull(),
  phoneNumber: text("phone_number"),
  streetAddress: text("street_address").notNull(),
  streetAddress2: text("street_address_2"),
  city: text("city").notNull(),
  stateAbbreviation: text("state_abbreviation").notNull(),
  zipcode: text("zipcode").notNull(),
  latitude: doublePrecision("latitude"),
  longitude: doublePrecision("longitude"),
  /** [{type: cash|check|card, allowed}] */
  paymentMethods: jsonb("payment_methods").$type<{ type: "cash" | "check" | "card"; allowed: boolean }[]>().notNull(),
  allowPodCopayCollection: boolean("allow_pod_copay_collection").notNull().default(false),
  routingEnabled: boolean("routing_enabled").notNull().default(false),
  dobVerificationEnabled: boolean("dob_verification_enabled").notNull().default(false),
  podRecipientConfig: text("pod_recipient_config").$type<"covid19_contactless" | "require_recipient">(),
  canSkipCopayCollection: boolean("can_skip_copay_collection").notNull().default(false),
  canSkipSignature: boolean("can_skip_signature").notNull().default(false),
});

export const pharmacyVisits = pgTable(
  "pharmacy_visits",
  {
    id: integer("id").primaryKey().generatedByDefaultAsIdentity(),
    courierId: integer("courier_id")
      .notNull()
      .references(() => couriers.id),
    pharmacyId: integer("pharmacy_id")
      .notNull()
      .references(() => pharmacies.id),
    serviceDate: date("service_date").notNull(),
    /** null = pending: confirmed neither true nor false. */
    confirmed: boolean("confirmed"),
    arrivedAt: timestamp("arrived_at", { withTimezone: true }),
  },
  (t) => [index("pharmacy_visits_courier_day_idx").on(t.courierId, t.serviceDate)],
);

export const orders = pgTable(
  "orders",
  {
    id: integer("id").primaryKey().generatedByDefaultAsIdentity(),
    /** null while the order is an add-on nobody has taken yet. */
    courierId: integer("courier_id").references(() => couriers.id),
    pharmacyId: integer("pharmacy_id")
      .notNull()
      .references(() => pharmacies.id),
    serviceDate: date("service_date").notNull(),
    statusId: integer("status_id")
      .notNull()
      .references(() => orderStatuses.id),
    patientFirstName: text("patient_first_name").notNull(),
    patientLastName: text("patient_last_name").notNull(),
    patientDateOfBirth: date("patient_date_of_birth"),
    recipientDescription: text("recipient_description").notNull(),
    streetAddress: text("street_address").notNull(),
    streetAddress2: text("street_address_2"),
    city: text("city").notNull(),
    stateAbbreviation: text("state_abbreviation").notNull(),
    zipcode: text("zipcode").notNull(),
    latitude: doublePrecision("latitude"),
    longitude: doublePrecision("longitude"),
    phoneNumber: text("phone_number"),
    rxNumbers: text("rx_numbers").array().notNull().default(sql`'{}'::text[]`),
    pickupNote: text("pickup_note"),
    copayCents: integer("copay_cents"),
    deliveryFeeCents: integer("delivery_fee_cents"),
    otherItemsAmountDueCents: integer("other_items_amount_due_cents").notNull().default(0),
    copayPaidAt: timestamp("copay_paid_at", { withTimezone: true }),
    paymentCollected: boolean("payment_collected").notNull().default(false),
    paymentAuthorized: boolean("payment_authorized").notNull().default(false),
    paymentType: text("payment_type"),
    itemReturned: boolean("item_returned").notNull().default(false),
    pidOrder: boolean("pid_order").notNull().default(false),
    deliveryNotes: jsonb("delivery_notes")
      .$type<{ courier_note: boolean; delivery_instruction: string; superuser_note: boolean }[]>()
      .notNull()
      .default([]),
    collectIdentification: boolean("collect_identification").notNull().default(false),
    controlledSubstance: boolean("controlled_substance").notNull().default(false),
    signatureRequired: boolean("signature_required").notNull().default(false),
    recipientRelationshipId: integer("recipient_relationship_id").references(() => relationships.id),
    recipientFirstName: text("recipient_first_name"),
    recipientLastName: text("recipient_last_name"),
    otherRecipientDescription: text("other_recipient_description"),
    recipientCalledAt: timestamp("recipient_called_at", { withTimezone: true }),
    serviceWindowInstanceId: integer("service_window_instance_id"),
    addedOn: boolean("added_on").notNull().default(false),
    /** An add-on the pharmacy offers to couriers at check-in (spec §2 add-ons). */
    availableAsAddon: boolean("available_as_addon").notNull().default(false),
    chargeData: jsonb("charge_data").$type<Record<string, unknown>>(),
    identificationState: text("identification_state"),
    identificationType: text("identification_type"),
    identificationNumber: text("identification_number"),
    identificationExpiration: date("identification_expiration"),
    copayAssertedAt: timestamp("copay_asserted_at", { withTimezone: true }),
    pickedUpAt: timestamp("picked_up_at", { withTimezone: true }),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("orders_courier_day_idx").on(t.courierId, t.serviceDate),
    index("orders_pharmacy_day_idx").on(t.pharmacyId, t.serviceDate),
  ],
);

export const deliveries = pgTable(
  "deliveries",
  {
    id: integer("id").primaryKey().generatedByDefaultAsIdentity(),
    courierId: integer("courier_id")
      .notNull()
      .references(() => couriers.id),
    /** completed | failed | returned: how the attempt ended. */
    outcome: text("outcome").$type<"completed" | "failed" | "returned">().notNull(),
    failureReasonId: integer("failure_reason_id").references(() => failureReasons.id),
    relationshipId: integer("relationship_id").references(() => relationships.id),
    recipientFirstName: text("recipient_first_name"),
    recipientLastName: text("recipient_last_name"),
    otherRelationshipDescription: text("other_relationship_description"),
    signedBy: text("signed_by"),
    signatureSvg: text("signature_svg"),
    signatureRefusalReason: text("signature_refusal_reason"),
    body: text("body"),
    dobVerified: boolean("dob_verified"),
    recipientCalledAt: timestamp("recipient_called_at", { withTimezone: true }),
    clientOccurredAt: timestamp("client_occurred_at", { withTimezone: true }),
    latitude: doublePrecision("latitude"),
    longitude: doublePrecision("longitude"),
    survey: jsonb("survey").$type<Record<string, boolean | null>>(),
    identificationState: text("identification_state"),
    identificationType: text("identification_type"),
    identificationNumber: text("identification_number"),
    identificationExpiration: date("identification_expiration"),
    paymentType: text("payment_type"),
    paymentAmountCents: integer("payment_amount_cents"),
    /** The Idempotency-Key the app sent with this delivery, when it sent one. */
    idempotencyKey: text("idempotency_key"),
    createdAt: createdAt(),
  },
  (t) => [
    index("deliveries_courier_idx").on(t.courierId),
    // A retry whose first answer was lost (process killed after the commit) finds its delivery again.
    uniqueIndex("deliveries_courier_idempotency_key_idx").on(t.courierId, t.idempotencyKey),
  ],
);

export const deliveryOrders = pgTable(
  "delivery_orders",
  {
    deliveryId: integer("delivery_id")
      .notNull()
      .references(() => deliveries.id, { onDelete: "cascade" }),
    orderId: integer("order_id")
      .notNull()
      .references(() => orders.id),
  },
  (t) => [primaryKey({ columns: [t.deliveryId, t.orderId] }), index("delivery_orders_order_idx").on(t.orderId)],
);

export const payments = pgTable(
  "payments",
  {
    id: integer("id").primaryKey().generatedByDefaultAsIdentity(),
    orderId: integer("order_id")
      .notNull()
      .references(() => orders.id),
    courierId: integer("courier_id")
      .notNull()
      .references(() => couriers.id),
    paymentType: text("payment_type").notNull(),
    gateway: text("gateway").notNull(),
    status: text("status").$type<"authorized" | "declined" | "failed" | "settled" | "voided">().notNull(),
    amountCents: integer("amount_cents").notNull(),
    newCopayCents: integer("new_copay_cents"),
    transactionId: text("transaction_id"),
    processorResponse: text("processor_response"),
    createdAt: createdAt(),
  },
  (t) => [index("payments_order_idx").on(t.orderId)],
);

export const returnSignatures = pgTable("return_signatures", {
  id: integer("id").primaryKey().generatedByDefaultAsIdentity(),
  courierId: integer("courier_id")
    .notNull()
    .references(() => couriers.id),
  pharmacyId: integer("pharmacy_id")
    .notNull()
    .references(() => pharmacies.id),
  recipientFirstName: text("recipient_first_name").notNull(),
  recipientLastName: text("recipient_last_name").notNull(),
  signatureSvg: text("signature_svg").notNull(),
  cashCollectedCents: integer("cash_collected_cents").notNull(),
  checkCollectedCents: integer("check_collected_cents").notNull(),
  latitude: doublePrecision("latitude"),
  longitude: doublePrecision("longitude"),
  createdAt: createdAt(),
});

export const returnLines = pgTable("return_lines", {
  id: integer("id").primaryKey().generatedByDefaultAsIdentity(),
  returnSignatureId: integer("return_signature_id")
    .notNull()
    .references(() => returnSignatures.id, { onDelete: "cascade" }),
  type: text("type").$type<"item" | "cash" | "check">().notNull(),
  amountCents: integer("amount_cents").notNull(),
  orderId: integer("order_id").references(() => orders.id),
});

/** The first response per courier and Idempotency-Key, replayed for retries. */
export const idempotencyKeys = pgTable(
  "idempotency_keys",
  {
    courierId: integer("courier_id")
      .notNull()
      .references(() => couriers.id, { onDelete: "cascade" }),
    key: text("key").notNull(),
    requestHash: text("request_hash").notNull(),
    state: text("state").$type<"in_progress" | "done">().notNull(),
    responseStatus: integer("response_status"),
    responseBody: text("response_body"),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.courierId, t.key] }), index("idempotency_created_idx").on(t.createdAt)],
);

/** Append-only: every order status change and every view of patient details. */
export const auditEvents = pgTable(
  "audit_events",
  {
    id: bigint("id", { mode: "number" }).primaryKey().generatedByDefaultAsIdentity(),
    courierId: integer("courier_id").references(() => couriers.id),
    action: text("action").notNull(),
    orderId: integer("order_id"),
    fromStatus: text("from_status"),
    toStatus: text("to_status"),
    clientOccurredAt: timestamp("client_occurred_at", { withTimezone: true }),
    occurredAt: timestamp("occurred_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("audit_order_idx").on(t.orderId)],
);
