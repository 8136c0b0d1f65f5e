import { sql } from "drizzle-orm";
import {
  check,
  customType,
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
  /** null until the invited courier sets a password (POST /api/courier/password). */
  passwordHash: text("password_hash"),
  firstName: text("first_name").notNull(),
  lastName: text("last_name").notNull(),
  phoneNumber: text("phone_number"),
  selfServiceAddonsEnabled: boolean("self_service_addons_enabled").notNull().default(false),
  /** Set by dispatch: the courier can no longer log in and every session has ended. */
  deactivatedAt: timestamp("deactivated_at", { withTimezone: true }),
  /** Issue 28, the planner's vehicle: where the day starts and ends (null: at the first / last stop). */
  startLatitude: doublePrecision("start_latitude"),
  startLongitude: doublePrecision("start_longitude"),
  endLatitude: doublePrecision("end_latitude"),
  endLongitude: doublePrecision("end_longitude"),
  /** "HH:MM" in the service's zone; null: the whole day. */
  shiftStart: text("shift_start"),
  shiftEnd: text("shift_end"),
  /** Orders carried at once; null: no limit. */
  capacity: integer("capacity"),
  createdAt: createdAt(),
});

/**
 * An invitation to set a password: single use, 7 days (issue 15). A courier's,
 * or a staff member's (issue 27): exactly one of the two is set, and both set
 * their password on the same /set-password screen.
 */
export const courierInvitations = pgTable(
  "courier_invitations",
  {
    id: integer("id").primaryKey().generatedByDefaultAsIdentity(),
    courierId: integer("courier_id").references(() => couriers.id, { onDelete: "cascade" }),
    staffId: integer("staff_id").references(() => staffAccounts.id, { onDelete: "cascade" }),
    /** sha256 of the token: the link in the courier's hands is the only copy. */
    tokenHash: text("token_hash").notNull().unique(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    usedAt: timestamp("used_at", { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    index("courier_invitations_courier_idx").on(t.courierId),
    index("courier_invitations_staff_idx").on(t.staffId),
    check("courier_invitations_one_owner", sql`(${t.courierId} is null) <> (${t.staffId} is null)`),
  ],
);

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

/**
 * Failed login attempts, per key ("email:…", "address:…", "device:…"), counted
 * here so that every API process sees the same counts (server/auth/login-limits.ts).
 * An attempt is written before the password is checked and removed when it
 * turns out not to be a failure.
 */
export const loginAttempts = pgTable(
  "login_attempts",
  {
    id: integer("id").primaryKey().generatedByDefaultAsIdentity(),
    key: text("key").notNull(),
    attemptedAt: timestamp("attempted_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("login_attempts_key_idx").on(t.key, t.attemptedAt), index("login_attempts_at_idx").on(t.attemptedAt)],
);

/**
 * Keys the server makes for itself once, shared by every process through the
 * database: the device cookies' signing key (server/auth/device-cookie.ts).
 */
export const serverSecrets = pgTable("server_secrets", {
  name: text("name").primaryKey(),
  value: text("value").notNull(),
  createdAt: createdAt(),
});

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
  /** Issue 19: a photo of the drop-off wherever nobody signs. */
  podPhotoRequired: boolean("pod_photo_required").notNull().default(false),
  /** Shown at check-in for this pharmacy's orders that bring no pickup note of their own. */
  pickupNote: text("pickup_note"),
  /** Issue 28: "HH:MM" in the service's zone, the planner's pickup window; null: open all day. */
  openingTime: text("opening_time"),
  closingTime: text("closing_time"),
});

/**
 * Operations API keys (issue 15). Only the SHA-256 of a key is kept; a key is a
 * random 256-bit token, so a plain hash is enough (no guessing to slow down).
 */
export const apiKeys = pgTable("api_keys", {
  id: integer("id").primaryKey().generatedByDefaultAsIdentity(),
  name: text("name").notNull(),
  role: text("role").$type<"dispatch" | "pharmacy">().notNull(),
  pharmacyId: integer("pharmacy_id").references(() => pharmacies.id),
  keyHash: text("key_hash").notNull().unique(),
  /** "environment" for OPS_API_KEY, "api" for keys made with POST /keys. */
  source: text("source").$type<"environment" | "api">().notNull(),
  createdByKeyId: integer("created_by_key_id"),
  revokedAt: timestamp("revoked_at", { withTimezone: true }),
  createdAt: createdAt(),
  /** The last call made with the key, to the minute (written at most once a minute per key): a key nobody uses any more shows. */
  lastUsedAt: timestamp("last_used_at", { withTimezone: true }),
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
    /** Issue 28: the delivery window promised to the patient, "HH:MM" in the service's zone (both or neither). */
    deliveryWindowStart: text("delivery_window_start"),
    deliveryWindowEnd: text("delivery_window_end"),
    /** The pharmacy system's own id for the order; unique per pharmacy (issue 15). */
    externalId: text("external_id"),
    /** sha256 of the creating request as sent: the same body again is the same order, another is 409. */
    requestHash: text("request_hash"),
    createdAt: createdAt(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("orders_courier_day_idx").on(t.courierId, t.serviceDate),
    index("orders_pharmacy_day_idx").on(t.pharmacyId, t.serviceDate),
    uniqueIndex("orders_pharmacy_external_id_idx").on(t.pharmacyId, t.externalId),
    // GET /ops/v1/orders pages newest first.
    index("orders_created_idx").on(t.createdAt, t.id),
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

/** Raw bytes (PostgreSQL bytea) as a Node Buffer. */
const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => "bytea",
  fromDriver: (value) => (Buffer.isBuffer(value) ? value : Buffer.from(value)),
});

/**
 * Issue 19: the photo of a drop-off nobody signed for, checked by its bytes to
 * be a JPEG, WebP or PNG under 300 KB. The delivery's id is the key: a
 * delivery has at most one photo, whatever a retry sends.
 */
export const deliveryPhotos = pgTable("delivery_photos", {
  deliveryId: integer("delivery_id")
    .primaryKey()
    .references(() => deliveries.id, { onDelete: "cascade" }),
  mediaType: text("media_type").$type<"image/jpeg" | "image/webp" | "image/png">().notNull(),
  byteSize: integer("byte_size").notNull(),
  bytes: bytea("bytes").notNull(),
  createdAt: createdAt(),
});

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
    /** "pending" from before the gateway is called until its answer is recorded (server/services/payments.ts). */
    status: text("status").$type<"pending" | "authorized" | "declined" | "failed" | "settled" | "voided">().notNull(),
    amountCents: integer("amount_cents").notNull(),
    newCopayCents: integer("new_copay_cents"),
    transactionId: text("transaction_id"),
    processorResponse: text("processor_response"),
    /** This attempt's own name at the gateway (Braintree's order id), so a hold it left can be found after a crash. */
    attemptReference: text("attempt_reference"),
    /** Set when the recovery sweep takes a pending row over: from then on only the sweep may finish it. */
    recoveryLeaseUntil: timestamp("recovery_lease_until", { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    index("payments_order_idx").on(t.orderId),
    uniqueIndex("payments_attempt_reference_idx").on(t.attemptReference),
    // One attempt in flight per order: a second one is refused rather than a second hold taken.
    uniqueIndex("payments_one_pending_per_order_idx").on(t.orderId).where(sql`status = 'pending'`),
  ],
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
    /** The operations API key that acted or read (issue 15). */
    apiKeyId: integer("api_key_id").references(() => apiKeys.id),
    /** The dispatcher or pharmacist who acted or read, logged in to the console (issue 27). */
    staffId: integer("staff_id").references(() => staffAccounts.id),
    action: text("action").notNull(),
    /** What a non-order mutation touched: "pharmacy:3", "courier:7", "key:2". */
    subject: text("subject"),
    orderId: integer("order_id"),
    fromStatus: text("from_status"),
    toStatus: text("to_status"),
    clientOccurredAt: timestamp("client_occurred_at", { withTimezone: true }),
    occurredAt: timestamp("occurred_at", { withTimezone: true }).notNull().defaultNow(),
    /** The visit a visit.confirmed entry is about. */
    pharmacyVisitId: integer("pharmacy_visit_id"),
    /** Where the phone said it was, when it sent a position (deliveries, returns). */
    latitude: doublePrecision("latitude"),
    longitude: doublePrecision("longitude"),
    /** What a change was, where its action alone does not say (issue 25): {from, to} of a reschedule, {copay_before, copay_after} in cents. */
    details: jsonb("details").$type<Record<string, string | number | boolean | null>>(),
  },
  (t) => [index("audit_order_idx").on(t.orderId), index("audit_visit_idx").on(t.pharmacyVisitId)],
);

/**
 * A webhook endpoint (docs/operations.md). A subscription made with a
 * pharmacy's key carries that pharmacy: it hears that pharmacy's events only.
 */
export const webhookSubscriptions = pgTable("webhook_subscriptions", {
  id: integer("id").primaryKey().generatedByDefaultAsIdentity(),
  url: text("url").notNull(),
  events: text("events").array().notNull(),
  /** Standard Webhooks secret, "whsec_" + base64 of 32 random bytes. */
  secret: text("secret").notNull(),
  /** null: a dispatch key's subscription, every pharmacy's events. */
  pharmacyId: integer("pharmacy_id").references(() => pharmacies.id),
  /** The operations key that made it. */
  apiKeyId: integer("api_key_id").references(() => apiKeys.id),
  createdAt: createdAt(),
});

/**
 * The outbox: one row per event and subscription, written in the transaction
 * that changed the order or visit. The sender loop claims due rows with
 * FOR UPDATE SKIP LOCKED and leases them while it sends.
 */
export const webhookMessages = pgTable(
  "webhook_messages",
  {
    id: bigint("id", { mode: "number" }).primaryKey().generatedByDefaultAsIdentity(),
    subscriptionId: integer("subscription_id")
      .notNull()
      .references(() => webhookSubscriptions.id, { onDelete: "cascade" }),
    /** The webhook-id header: the same on every attempt of this message. */
    eventId: text("event_id").notNull().unique(),
    eventType: text("event_type").notNull(),
    /** The exact body sent, so every attempt signs the same bytes. */
    body: text("body").notNull(),
    status: text("status").$type<"pending" | "delivered" | "failed">().notNull().default("pending"),
    attempts: integer("attempts").notNull().default(0),
    nextAttemptAt: timestamp("next_attempt_at", { withTimezone: true }).notNull().defaultNow(),
    createdAt: createdAt(),
    deliveredAt: timestamp("delivered_at", { withTimezone: true }),
  },
  (t) => [
    index("webhook_messages_due_idx").on(t.nextAttemptAt).where(sql`status = 'pending'`),
    index("webhook_messages_subscription_idx").on(t.subscriptionId, t.id),
  ],
);

/** Every attempt to deliver a message: what the endpoint answered, or why nothing came back. */
export const webhookAttempts = pgTable(
  "webhook_attempts",
  {
    id: bigint("id", { mode: "number" }).primaryKey().generatedByDefaultAsIdentity(),
    messageId: bigint("message_id", { mode: "number" })
      .notNull()
      .references(() => webhookMessages.id, { onDelete: "cascade" }),
    statusCode: integer("status_code"),
    error: text("error"),
    attemptedAt: timestamp("attempted_at", { withTimezone: true }).notNull().defaultNow(),
    durationMs: integer("duration_ms").notNull(),
  },
  (t) => [index("webhook_attempts_message_idx").on(t.messageId)],
);

/**
 * Issue 28: a plan of a service day across couriers, a proposal until it is
 * applied. `result` is the API's plan as answered; `snapshot` what each
 * planned order looked like when planned, so that applying a plan whose
 * orders changed since is refused with the reason.
 */
export const plans = pgTable(
  "plans",
  {
    id: integer("id").primaryKey().generatedByDefaultAsIdentity(),
    serviceDate: date("service_date").notNull(),
    courierIds: integer("courier_ids").array().notNull(),
    result: jsonb("result").$type<Record<string, unknown>>().notNull(),
    snapshot: jsonb("snapshot").$type<Record<string, Record<string, string>>>().notNull(),
    apiKeyId: integer("api_key_id").references(() => apiKeys.id),
    appliedAt: timestamp("applied_at", { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index("plans_day_idx").on(t.serviceDate)],
);

/** Issue 28: an order's place in its courier's applied plan (the itinerary's planned_position). */
export const plannedStops = pgTable(
  "planned_stops",
  {
    orderId: integer("order_id")
      .primaryKey()
      .references(() => orders.id, { onDelete: "cascade" }),
    planId: integer("plan_id")
      .notNull()
      .references(() => plans.id, { onDelete: "cascade" }),
    courierId: integer("courier_id")
      .notNull()
      .references(() => couriers.id),
    /** 1-based place of the order's delivery stop in the courier's route. */
    deliveryPosition: integer("delivery_position").notNull(),
    /** 1-based place of the order's pickup stop in the courier's route. */
    pickupPosition: integer("pickup_position").notNull(),
  },
  (t) => [index("planned_stops_plan_idx").on(t.planId)],
);

/**
 * Issue 27: the people who run the day from the dispatch console. A
 * dispatcher has a dispatch key's reach but for keys and staff accounts; a
 * pharmacist has their pharmacy key's reach. ("Staff" in a return is the
 * pharmacy employee who signs it; these are accounts.)
 */
export const staffAccounts = pgTable("staff_accounts", {
  id: integer("id").primaryKey().generatedByDefaultAsIdentity(),
  email: text("email").notNull().unique(),
  /** null until the invited person sets a password (POST /api/courier/password, the same screen as couriers). */
  passwordHash: text("password_hash"),
  firstName: text("first_name").notNull(),
  lastName: text("last_name").notNull(),
  role: text("role").$type<"dispatcher" | "pharmacist">().notNull(),
  /** A pharmacist's pharmacy; null for a dispatcher. */
  pharmacyId: integer("pharmacy_id").references(() => pharmacies.id),
  /** Set by dispatch: no more logins, and every session has ended. */
  deactivatedAt: timestamp("deactivated_at", { withTimezone: true }),
  createdAt: createdAt(),
});

/** A staff member's console session: like a courier's (sessions), in a table and a cookie of its own. */
export const staffSessions = pgTable(
  "staff_sessions",
  {
    /** sha256 of the cookie value. */
    idHash: text("id_hash").primaryKey(),
    staffId: integer("staff_id")
      .notNull()
      .references(() => staffAccounts.id, { onDelete: "cascade" }),
    csrfToken: text("csrf_token").notNull(),
    createdAt: createdAt(),
    lastSeenAt: timestamp("last_seen_at", { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
  },
  (t) => [index("staff_sessions_staff_idx").on(t.staffId)],
);

/**
 * Issue 27: every change of the day, as the dispatch console's live stream
 * (GET /api/ops/v1/events) carries it. Written in the transaction of the
 * change, whether or not any webhook subscription hears it. `position` is
 * given at commit by a deferred trigger (migration 0013) under a lock, so
 * positions follow commit order: a reader that has seen position n has seen
 * every event before it, and Last-Event-ID resumes without a gap. The same
 * trigger announces the commit with NOTIFY rxc_events.
 */
export const dispatchEvents = pgTable(
  "dispatch_events",
  {
    id: bigint("id", { mode: "number" }).primaryKey().generatedByDefaultAsIdentity(),
    /** null until the writing transaction commits. */
    position: bigint("position", { mode: "number" }),
    type: text("type").notNull(),
    /** Whose event it is: a pharmacist's (or pharmacy key's) stream carries their pharmacy's only. */
    pharmacyId: integer("pharmacy_id").notNull(),
    orderId: integer("order_id"),
    data: jsonb("data").$type<Record<string, unknown>>().notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("dispatch_events_position_idx").on(t.position), index("dispatch_events_pharmacy_idx").on(t.pharmacyId, t.position), index("dispatch_events_created_idx").on(t.createdAt)],
);
