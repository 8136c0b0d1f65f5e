import { z } from "zod";
import { isValidCopay } from "../copay.ts";
import { EARLIEST_DATE, isCalendarDay, LATEST_DATE, SERVICE_DATE_HORIZON_DAYS, storableDateProblem } from "../date-rules.ts";
import { parseDecimalToCents, totalDueProblem } from "../money.ts";
import { formatPhone } from "../phone.ts";
import { NAME_MAX_LENGTH } from "../recipient.ts";
import { CLOCK_MESSAGE, CLOCK_PATTERN, clockWindowProblem, type ClockWindowNames } from "../time-of-day.ts";
import { ORDER_STATUS_NAMES, PAYMENT_TYPES, POD_RECIPIENT_CONFIGS, US_STATE_ABBREVIATIONS } from "../vocabulary.ts";
import { MAX_ID, PathId, QueryCount } from "./common.ts";
import { Order, Pharmacy } from "./entities.ts";
import { MoneyAmount, StoredText } from "./scalars.ts";

/**
 * The operations API under /api/ops/v1 (issue 15): dispatch and pharmacy
 * systems, authenticated with `Authorization: Bearer <key>` (no cookie, no
 * CSRF token), or the dispatch console with a staff session cookie and its
 * CSRF token (issue 27, contract/staff.ts). Every request value is bounded by the scalars of scalars.ts.
 * Refusals are ErrorBody (common.ts): 400 with details[].path, 401, 404, 409,
 * 413, 429.
 */

export const OPS_API_PREFIX = "/api/ops/v1";

/** Ids in bodies are PostgreSQL integers; in paths and query strings they arrive as text. */
export const OpsId = z.number().int().positive().max(MAX_ID);
export const OpsIdParams = z.object({ id: PathId });
export const OpsOrderIdParams = z.object({ order_id: PathId });

/**
 * A calendar day, "YYYY-MM-DD", that exists and that both engines store: from
 * 1900-01-01 to 2100-12-31 (domain/date-rules.ts). A filter takes any such day;
 * a birth date or a service date written is also held to its own rule against
 * the service's today (orderDateProblems), which the server checks.
 */
export const CalendarDay = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, "must be a date as YYYY-MM-DD")
  .refine(isCalendarDay, "must be a real calendar date")
  .refine((value) => !isCalendarDay(value) || storableDateProblem(value) === null, `must be from ${EARLIEST_DATE} to ${LATEST_DATE}`)
  .meta({ description: `Calendar date, YYYY-MM-DD, from ${EARLIEST_DATE} to ${LATEST_DATE}.` });

/** A date of birth: from 1900-01-01 to the service's today (checked by the server, which knows its day). */
const BirthDate = CalendarDay.meta({ description: `Date of birth, YYYY-MM-DD: from ${EARLIEST_DATE} to today.` });
/** A service date written: from the service's today to today + 365 days (checked by the server). */
const ServiceDate = CalendarDay.meta({
  description: `Delivery day, YYYY-MM-DD: from today (the service's time zone) to ${SERVICE_DATE_HORIZON_DAYS} days ahead; a day in the past is refused, except in an exact replay of an order already stored.`,
});

export const PhoneNumber = StoredText(32, { min: 1 }).refine((value) => formatPhone(value) !== null, {
  message: "must be a US phone number: 10 digits, optionally after a leading 1",
});

const Name = (max = 100) => StoredText(max, { min: 1 });
const Note = StoredText(1000, { multiline: true });

export const OpsAddressInput = z.object({
  street_address: Name(200),
  street_address_2: StoredText(200).nullish(),
  city: Name(100),
  state_abbreviation: z.enum(US_STATE_ABBREVIATIONS, { error: "must be a US state abbreviation, e.g. PA" }),
  zipcode: z.string().regex(/^\d{5}(-\d{4})?$/, "must be a ZIP code: 5 digits, or 5+4"),
  latitude: z.number().min(-90, "must be from -90 to 90").max(90, "must be from -90 to 90"),
  longitude: z.number().min(-180, "must be from -180 to 180").max(180, "must be from -180 to 180"),
});
export type OpsAddressInput = z.infer<typeof OpsAddressInput>;

/** An order's address: coordinates are welcome but a pharmacy system may not know them. */
export const OpsOrderAddressInput = OpsAddressInput.extend({
  latitude: OpsAddressInput.shape.latitude.nullish(),
  longitude: OpsAddressInput.shape.longitude.nullish(),
});

/** A time of day, "HH:MM" (24-hour) in the service's time zone (issue 28). */
export const ClockTime = z.string().regex(CLOCK_PATTERN, CLOCK_MESSAGE).meta({ description: "Time of day, HH:MM (24-hour), in the service's time zone." });

/** A zod check of a window's two ends in a body (both or neither, start before end), by domain/time-of-day.ts. */
export function checkClockWindow<Body extends Record<string, unknown>>(names: ClockWindowNames) {
  return (body: Body, ctx: z.RefinementCtx) => {
    const problem = clockWindowProblem(body[names.start] as string | null | undefined, body[names.end] as string | null | undefined, names);
    if (problem) ctx.addIssue({ code: "custom", path: [problem.field === "start" ? names.start : names.end], message: problem.message });
  };
}
export const DELIVERY_WINDOW: ClockWindowNames = { start: "delivery_window_start", end: "delivery_window_end" };
export const OPENING_HOURS: ClockWindowNames = { start: "opening_time", end: "closing_time" };
export const SHIFT: ClockWindowNames = { start: "shift_start", end: "shift_end" };

export const PaymentMethodInput = z.object({
  type: z.enum(PAYMENT_TYPES, { error: "must be cash, check or card" }),
  allowed: z.boolean(),
});

// ---------------------------------------------------------------- keys

export const KEY_ROLES = ["dispatch", "pharmacy"] as const;
export type KeyRole = (typeof KEY_ROLES)[number];

/** POST /api/ops/v1/keys (dispatch only). A pharmacy key names its pharmacy; a dispatch key none. */
export const KeyCreateRequest = z
  .object({
    role: z.enum(KEY_ROLES, { error: "must be dispatch or pharmacy" }),
    pharmacy_id: OpsId.nullish(),
    name: Name(100),
  })
  .strict()
  .superRefine((body, ctx) => {
    if (body.role === "pharmacy" && body.pharmacy_id == null) {
      ctx.addIssue({ code: "custom", path: ["pharmacy_id"], message: "is required for a pharmacy key" });
    }
    if (body.role === "dispatch" && body.pharmacy_id != null) {
      ctx.addIssue({ code: "custom", path: ["pharmacy_id"], message: "must be left out for a dispatch key" });
    }
  });
export type KeyCreateRequest = z.infer<typeof KeyCreateRequest>;

/** 201: the key itself is shown this once; only its SHA-256 is kept. */
export const KeyCreateResponse = z.object({
  id: z.number().int(),
  key: z.string(),
  role: z.enum(KEY_ROLES),
  pharmacy_id: z.number().int().nullable(),
  name: z.string(),
});
export type KeyCreateResponse = z.infer<typeof KeyCreateResponse>;

/** GET /api/ops/v1/keys (dispatch only): every key, revoked ones with their revoked_at; never the key nor its hash. */
export const ApiKeyView = z.object({
  id: z.number().int(),
  role: z.enum(KEY_ROLES),
  pharmacy_id: z.number().int().nullable(),
  name: z.string(),
  created_at: z.string().meta({ description: "ISO 8601 time." }),
  last_used_at: z.string().nullable().meta({ description: "The last call made with the key, to the minute; null if never used." }),
  revoked_at: z.string().nullable().meta({ description: "When the key was revoked; null while it works." }),
});
export type ApiKeyView = z.infer<typeof ApiKeyView>;
export const KeyListResponse = z.object({ keys: z.array(ApiKeyView) });
export type KeyListResponse = z.infer<typeof KeyListResponse>;

// ---------------------------------------------------------------- pharmacies

const pharmacyFields = {
  name: Name(200),
  phone_number: PhoneNumber,
  address: OpsAddressInput,
  payment_methods: z
    .array(PaymentMethodInput)
    .min(1, "name at least one payment method")
    .max(PAYMENT_TYPES.length)
    .refine((methods) => new Set(methods.map((method) => method.type)).size === methods.length, "each type may appear once"),
  allow_pod_copay_collection: z.boolean(),
  routing_enabled: z.boolean(),
  dob_verification_enabled: z.boolean(),
  pod_recipient_config: z.enum(POD_RECIPIENT_CONFIGS).nullable(),
  can_skip_copay_collection: z.boolean(),
  can_skip_signature: z.boolean(),
  /** Issue 19: the courier must photograph the drop-off wherever nobody signs. Off when left out. */
  pod_photo_required: z.boolean().optional(),
  /** Shown to the courier at check-in for this pharmacy's orders that bring no note of their own. */
  pickup_note: Note.nullish(),
  /** Issue 28: opening hours, the planner's pickup window; both or neither (open all day). */
  opening_time: ClockTime.nullish(),
  closing_time: ClockTime.nullish(),
};

/** POST /api/ops/v1/pharmacies (dispatch only) → 201 {pharmacy}. */
export const PharmacyCreateRequest = z.object(pharmacyFields).strict().superRefine(checkClockWindow(OPENING_HOURS));
export type PharmacyCreateRequest = z.infer<typeof PharmacyCreateRequest>;

/** PATCH /api/ops/v1/pharmacies/{id}: any of the fields, at least one. */
export const PharmacyUpdateRequest = z
  .object(pharmacyFields)
  .partial()
  .strict()
  .refine((body) => Object.keys(body).length > 0, "send at least one field to change")
  // One end alone is checked against the pharmacy's other end by the service.
  .superRefine((body, ctx) => {
    if (body.opening_time !== undefined && body.closing_time !== undefined) checkClockWindow(OPENING_HOURS)(body, ctx);
  });
export type PharmacyUpdateRequest = z.infer<typeof PharmacyUpdateRequest>;

export const OpsPharmacy = Pharmacy.extend({
  pickup_note: z.string().nullable(),
  opening_time: z.string().nullable(),
  closing_time: z.string().nullable(),
});
export type OpsPharmacy = z.infer<typeof OpsPharmacy>;
export const PharmacyResponse = z.object({ pharmacy: OpsPharmacy });
export const PharmacyListResponse = z.object({ pharmacies: z.array(OpsPharmacy) });

// ---------------------------------------------------------------- couriers

/** POST /api/ops/v1/couriers (dispatch only) → 201 {courier, invite_token, invite_expires_at}. */
export const CourierInviteRequest = z
  .object({
    first_name: Name(NAME_MAX_LENGTH),
    last_name: Name(NAME_MAX_LENGTH),
    email: z.string().trim().max(254, "must be at most 254 characters").email("must be an email address"),
    phone_number: PhoneNumber.nullish(),
  })
  .strict();
export type CourierInviteRequest = z.infer<typeof CourierInviteRequest>;

export const OpsCourier = z.object({
  id: z.number().int(),
  first_name: z.string(),
  last_name: z.string(),
  email: z.string(),
  phone_number: z.string().nullable(),
  /** False once dispatch deactivated the courier: they cannot log in. */
  active: z.boolean(),
  /** True once the courier set a password from an invitation. */
  password_set: z.boolean(),
  /** Issue 28, what the planner plans with: null where dispatch set nothing. */
  start_location: z.object({ latitude: z.number(), longitude: z.number() }).nullable(),
  end_location: z.object({ latitude: z.number(), longitude: z.number() }).nullable(),
  shift_start: z.string().nullable(),
  shift_end: z.string().nullable(),
  capacity: z.number().int().nullable(),
  created_at: z.string(),
});
export type OpsCourier = z.infer<typeof OpsCourier>;

export const LocationInput = z
  .object({
    latitude: z.number().min(-90, "must be from -90 to 90").max(90, "must be from -90 to 90"),
    longitude: z.number().min(-180, "must be from -180 to 180").max(180, "must be from -180 to 180"),
  })
  .strict();

/** The most orders a courier may be said to carry at once. */
export const MAX_COURIER_CAPACITY = 1000;

/**
 * PATCH /api/ops/v1/couriers/{id} (dispatch only): what the planner plans the
 * courier's day with. null clears a field; shift_start and shift_end go together.
 */
export const CourierUpdateRequest = z
  .object({
    start_location: LocationInput.nullable(),
    end_location: LocationInput.nullable(),
    shift_start: ClockTime.nullable(),
    shift_end: ClockTime.nullable(),
    capacity: z.number().int("must be a whole number").min(1, "must be at least 1").max(MAX_COURIER_CAPACITY, `must be at most ${MAX_COURIER_CAPACITY}`).nullable(),
  })
  .partial()
  .strict()
  .refine((body) => Object.keys(body).length > 0, "send at least one field to change")
  .superRefine((body, ctx) => {
    if ((body.shift_start === undefined) !== (body.shift_end === undefined)) {
      const missing = body.shift_start === undefined ? "shift_start" : "shift_end";
      ctx.addIssue({ code: "custom", path: [missing], message: `is required with ${missing === "shift_start" ? "shift_end" : "shift_start"}` });
      return;
    }
    checkClockWindow<Record<string, unknown>>(SHIFT)(body, ctx);
  });
export type CourierUpdateRequest = z.infer<typeof CourierUpdateRequest>;

/** An invitation lives 7 days and opens /set-password?token=… once. */
export const INVITE_LIFETIME_DAYS = 7;

/** 201 from POST couriers and from POST couriers/{id}/invitation (a new token; the old one stops working). */
export const CourierInviteResponse = z.object({
  courier: OpsCourier,
  invite_token: z.string(),
  invite_expires_at: z.string(),
});
export type CourierInviteResponse = z.infer<typeof CourierInviteResponse>;
export const CourierResponse = z.object({ courier: OpsCourier });
export const CourierListResponse = z.object({ couriers: z.array(OpsCourier) });
/** POST couriers/{id}/deactivation and couriers/{id}/invitation carry no data. */
export const EmptyRequest = z.object({}).strict().nullish();

// ---------------------------------------------------------------- orders

/** Spec §9 money: a copay is "0.00" (none) or at least 1.00, like the courier's side. */
export const CopayAmount = MoneyAmount.refine((value) => value === "0.00" || isValidCopay(value), {
  message: "must be 0.00 (no copay) or at least 1.00",
});

const orderFields = {
  // Spec §9: names are capped at 32; a longer patient name could never be signed for as 'Patient'.
  patient_first_name: Name(NAME_MAX_LENGTH),
  patient_last_name: Name(NAME_MAX_LENGTH),
  patient_date_of_birth: BirthDate.nullish(),
  phone_number: PhoneNumber,
  address: OpsOrderAddressInput,
  rx_numbers: z.array(Name(50)).min(1, "name at least one prescription").max(50, "at most 50 prescriptions"),
  copay: CopayAmount.nullish(),
  delivery_fee: MoneyAmount.nullish(),
  other_items_amount_due: MoneyAmount.nullish(),
  pid_order: z.boolean().optional(),
  collect_identification: z.boolean().optional(),
  controlled_substance: z.boolean().optional(),
  signature_required: z.boolean().optional(),
  delivery_instruction: Note.nullish(),
  superuser_note: Note.nullish(),
  pickup_note: Note.nullish(),
  /** The day the order is for; today in the service's time zone when left out. */
  service_date: ServiceDate.optional(),
  /** Issue 28: the window promised to the patient, HH:MM in the service's zone; both or neither. */
  delivery_window_start: ClockTime.nullish(),
  delivery_window_end: ClockTime.nullish(),
};

const centsOf = (value: string | null | undefined) => (value == null ? null : parseDecimalToCents(value));

/** The money rule (domain/money.ts) over a body that names its amounts: the total due fits one payment. */
export function totalDueIssue(body: { copay?: string | null; delivery_fee?: string | null; other_items_amount_due?: string | null }): string | null {
  return totalDueProblem({ copay: centsOf(body.copay), deliveryFee: centsOf(body.delivery_fee), otherItems: centsOf(body.other_items_amount_due) });
}

/**
 * POST /api/ops/v1/orders → 201 {order}; the same body again for the same
 * (pharmacy_id, external_id) → 200 with the same order; a different body → 409.
 */
export const OrderCreateRequest = z
  .object({
    pharmacy_id: OpsId,
    external_id: Name(100),
    ...orderFields,
  })
  .strict()
  .superRefine((body, ctx) => {
    checkClockWindow(DELIVERY_WINDOW)(body, ctx);
    const problem = totalDueIssue(body);
    if (problem) ctx.addIssue({ code: "custom", path: [], message: problem });
  });
export type OrderCreateRequest = z.infer<typeof OrderCreateRequest>;

/** PATCH /api/ops/v1/orders/{id}: until the order is picked up (409 after). */
export const OrderUpdateOpsRequest = z
  .object(orderFields)
  .partial()
  .strict()
  .refine((body) => Object.keys(body).length > 0, "send at least one field to change")
  // One end alone is checked against the order's other end by the service.
  .superRefine((body, ctx) => {
    if (body.delivery_window_start !== undefined && body.delivery_window_end !== undefined) checkClockWindow(DELIVERY_WINDOW)(body, ctx);
  });
export type OrderUpdateOpsRequest = z.infer<typeof OrderUpdateOpsRequest>;

export const MAX_BATCH_ORDERS = 1000;

/**
 * POST /api/ops/v1/orders/batch. Each row is an OrderCreateRequest, checked on
 * its own: a bad row is "rejected" with its errors and never stops the others.
 */
export const OrderBatchRequest = z
  .object({
    orders: z
      .array(z.looseObject({}).meta({ description: "An OrderCreateRequest; checked row by row." }))
      .min(1, "send at least one order")
      .max(MAX_BATCH_ORDERS, `at most ${MAX_BATCH_ORDERS} orders at once`),
  })
  .strict();
export type OrderBatchRequest = z.infer<typeof OrderBatchRequest>;

export const FieldError = z.object({ path: z.string(), message: z.string() });
export type FieldError = z.infer<typeof FieldError>;

export const BATCH_ROW_STATUSES = ["created", "unchanged", "rejected"] as const;
export const OrderBatchResult = z.object({
  external_id: z.string().nullable(),
  status: z.enum(BATCH_ROW_STATUSES),
  order_id: z.number().int().optional(),
  errors: z.array(FieldError).optional(),
});
export type OrderBatchResult = z.infer<typeof OrderBatchResult>;
export const OrderBatchResponse = z.object({ results: z.array(OrderBatchResult) });
export type OrderBatchResponse = z.infer<typeof OrderBatchResponse>;

/** An order as the operations side sees it: the courier's Order and where it stands. */
export const CARD_PAYMENT_STATUSES = ["pending", "authorized", "declined", "failed", "settled", "voided"] as const;
export type CardPaymentStatus = (typeof CARD_PAYMENT_STATUSES)[number];

export const OpsOrder = Order.extend({
  /** The pharmacy as the courier sees it, and its closing time ("HH:MM" in the service's zone; null until set): the board's rule of a pickup left late. */
  pharmacy: Pharmacy.extend({ closing_time: z.string().nullable() }),
  external_id: z.string().nullable(),
  service_date: z.string(),
  courier_id: z.number().int().nullable(),
  /** The courier carrying the order, by name (issue 27: a pharmacist's console names the couriers carrying its orders); null without one. */
  courier: z.object({ id: z.number().int(), first_name: z.string(), last_name: z.string() }).nullable(),
  /** The order's delivery stop in its courier's applied plan (1 = the route's first stop, pickups count too), as the itinerary says it; null without a plan. */
  planned_position: z.number().int().nullable(),
  /** The state of the order's last card payment attempt; null when none was made. */
  card_payment_status: z.enum(CARD_PAYMENT_STATUSES).nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type OpsOrder = z.infer<typeof OpsOrder>;

/** Who acted, by name: in the chain of custody, the audit trail and the status history alike. */
export const OpsActor = z.object({
  /** "dispatcher" / "pharmacist": someone logged in to the dispatch console (issue 27); "staff" is the pharmacy employee who signs a return. */
  type: z.enum(["courier", "key", "staff", "dispatcher", "pharmacist"]),
  id: z.number().int().nullable(),
  name: z.string(),
});
export type OpsActor = z.infer<typeof OpsActor>;

export const StatusChange = z.object({
  from_status: z.string().nullable(),
  to_status: z.string(),
  occurred_at: z.string(),
  /** Who moved it: "courier:7", "key:3", "staff:2" (a dispatcher or pharmacist in the console) or null for the system. */
  actor: z.string().nullable(),
  /** The same actor by name, as the chain of custody gives it ({type, id, name}); null for the system. */
  acted_by: OpsActor.nullable().meta({ description: "Who moved it, named as in the order's chain of custody; null for the system." }),
});
export const OpsOrderDetail = OpsOrder.extend({ status_history: z.array(StatusChange) });
export type OpsOrderDetail = z.infer<typeof OpsOrderDetail>;

export const OrderResponse = z.object({ order: OpsOrder });
export const OrderDetailResponse = z.object({ order: OpsOrderDetail });

/** POST /api/ops/v1/orders/{id}/cancellation: before pickup. */
export const OrderCancellationRequest = z.object({ reason: Note.nullish() }).strict().nullish();

/** GET /api/ops/v1/orders: newest first; pass next_cursor back as cursor for the next page. */
/** The most orders GET /api/ops/v1/orders answers in one page. */
export const ORDER_LIST_MAX_LIMIT = 1000;
export const OrderListQuery = z.object({
  service_date: CalendarDay.optional(),
  status: z.enum(ORDER_STATUS_NAMES).optional(),
  pharmacy_id: PathId.optional(),
  courier_id: PathId.optional(),
  cursor: z.string().max(100).regex(/^[A-Za-z0-9_-]+$/, "must be a next_cursor from an earlier page").optional(),
  // Up to 1,000 a page (200 before issue 27's board work): the console reads a day of 2,000 orders in two requests.
  limit: QueryCount(ORDER_LIST_MAX_LIMIT, 50).describe(`Orders per page: 1 to ${ORDER_LIST_MAX_LIMIT}, default 50`),
});
export type OrderListQuery = z.infer<typeof OrderListQuery>;
export const OrderListResponse = z.object({ orders: z.array(OpsOrder), next_cursor: z.string().nullable() });

// ---------------------------------------------------------------- assignments

/**
 * POST /api/ops/v1/assignments (dispatch only) → 200: the orders go to that
 * courier's day as submitted_to_courier, with a pharmacy visit (confirmed
 * null) per pharmacy. An order not yet picked up moves from its previous
 * courier; a picked-up one is 409. An order of another day moves to this
 * one (rescheduled: a custody entry and order.rescheduled). An order already
 * on this courier's day is left as it is (unchanged: nothing recorded, no event).
 */
export const AssignmentRequest = z
  .object({
    courier_id: OpsId,
    service_date: ServiceDate.meta({
      description:
        "The courier's day the orders go to. An order whose service_date is another day is moved to this one: it is rescheduled (custody entry `rescheduled` {from, to}, webhook `order.rescheduled`).",
    }),
    order_ids: z
      .array(OpsId)
      .min(1, "name at least one order")
      .max(MAX_BATCH_ORDERS, `at most ${MAX_BATCH_ORDERS} orders at once`)
      .refine((ids) => new Set(ids).size === ids.length, "each order may appear once"),
  })
  .strict()
  .meta({
    description:
      "Puts the orders on the courier's day. An order of another service_date is moved to this one (listed in `rescheduled`, custody entry `rescheduled`, webhook `order.rescheduled`); an order already on this courier's day is left as it is (listed in `unchanged`, nothing recorded, no event).",
  });
export type AssignmentRequest = z.infer<typeof AssignmentRequest>;

export const OpsPharmacyVisit = z.object({
  id: z.number().int(),
  courier_id: z.number().int(),
  pharmacy_id: z.number().int(),
  service_date: z.string(),
  confirmed: z.boolean().nullable(),
});
export const AssignmentResponse = z.object({
  orders: z.array(OpsOrder),
  pharmacy_visits: z.array(OpsPharmacyVisit),
  rescheduled: z
    .array(z.object({ order_id: z.number().int(), from: z.string(), to: z.string() }))
    .meta({ description: "The orders this call moved from another service day (from) to service_date (to)." }),
  unchanged: z
    .array(z.number().int())
    .meta({ description: "The ids of orders already on this courier's day: left as they were, nothing recorded, no event (sending the same assignment twice is harmless)." }),
});
export type AssignmentResponse = z.infer<typeof AssignmentResponse>;
