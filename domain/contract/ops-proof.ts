import { z } from "zod";
import { PathId } from "./common.ts";
import { CalendarDay, OpsActor } from "./ops.ts";
import { FAILURE_REASON_NAMES, ORDER_STATUS_NAMES } from "../vocabulary.ts";

/**
 * GET /api/ops/v1/orders/{id}/proof, .../custody and /returns
 * (docs/operations.md): what happened at the door, for the pharmacy's
 * files. Responses only; the requests carry ids and dates alone.
 */

const Iso = z.string().meta({ description: "ISO 8601 time (UTC)." });
const Money = z.string().regex(/^\d+\.\d{2}$/).meta({ description: "Decimal amount with two places." });
const Position = { latitude: z.number().nullable(), longitude: z.number().nullable() };

/** What makes a filed document findable again: a stable id and when this copy was made (issue 25). */
const Filing = {
  document_id: z.string().meta({
    description: "Stable for the same content: the record's id and a hash of what the document says. The PDF carries the same id.",
  }),
  generated_at: Iso.meta({ description: "When this copy was generated." }),
  time_zone: z.string().meta({ description: "The IANA zone the PDF writes times in (the service's)." }),
};
const PersonName = z.object({ first_name: z.string(), last_name: z.string() });
export const DeliveryAddress = z.object({
  street_address: z.string(),
  street_address_2: z.string().nullable(),
  city: z.string(),
  state_abbreviation: z.string(),
  zipcode: z.string(),
});

export const ProofOutcome = z.enum(["delivered", "delivery_attempted", "returned_to_pharmacy"]);

export const Proof = z.object({
  order: z.object({
    id: z.number().int(),
    external_id: z.string().nullable(),
    status: z.enum(ORDER_STATUS_NAMES),
    service_date: z.string(),
    rx_numbers: z.array(z.string()).meta({ description: "The prescriptions delivered." }),
  }),
  pharmacy: z.object({ id: z.number().int(), name: z.string() }),
  courier: z.object({ id: z.number().int(), first_name: z.string(), last_name: z.string() }).nullable(),
  ...Filing,
  patient: PersonName.meta({ description: "The pharmacy's own patient the order was for." }),
  delivery_address: DeliveryAddress,
  outcome: ProofOutcome,
  failure: z.object({ reason: z.enum(FAILURE_REASON_NAMES), notes: z.string().nullable() }).nullable(),
  recipient: z
    .object({
      first_name: z.string().nullable(),
      last_name: z.string().nullable(),
      relationship: z.string(),
      other_relationship_description: z.string().nullable(),
    })
    .nullable(),
  signed_by: z.string().nullable(),
  signature_refusal_reason: z.string().nullable(),
  dob_verified: z.boolean().nullable(),
  identification: z
    .object({
      type: z.string().nullable(),
      state: z.string().nullable(),
      number_last4: z.string().nullable().meta({ description: "The last 4 characters of the ID's number; the rest is never sent." }),
      expiration: z.string().nullable(),
    })
    .nullable(),
  payment: z
    .object({
      type: z.enum(["cash", "check", "credit_card"]),
      amount: Money,
      card_last4: z.string().nullable().meta({ description: "As the payment gateway reports it; null for cash, check, or when the gateway cannot say." }),
    })
    .nullable(),
  copay_change: z
    .object({
      before: Money.nullable(),
      after: Money.nullable(),
      changed_by: z.string(),
      at: Iso,
    })
    .nullable()
    .meta({ description: "A copay the courier changed at pickup ('No copay'), from the chain of custody; null when it was not changed." }),
  notes: z.string().nullable(),
  client_occurred_at: Iso.nullable(),
  received_at: Iso,
  ...Position,
  grouped_order_ids: z.array(z.number().int()),
  signature_url: z.string().nullable(),
  photo_url: z.string().nullable().meta({ description: "The photo of the drop-off where nobody signed, when the courier took one." }),
  returned: z
    .object({
      return_id: z.number().int(),
      staff_first_name: z.string(),
      staff_last_name: z.string(),
      at: Iso,
      signature_url: z.string(),
    })
    .nullable(),
});
export type Proof = z.infer<typeof Proof>;

export const CUSTODY_EVENTS = [
  "created",
  "assigned",
  "unassigned",
  "rescheduled",
  "visit_confirmed",
  "verified",
  "picked_up",
  "cancelled",
  "delivery_attempted",
  "delivered",
  "returned",
  "reconciled",
] as const;

export const CustodyEntry = z.object({
  event: z.enum(CUSTODY_EVENTS),
  at: Iso.meta({ description: "When the server recorded it." }),
  client_occurred_at: Iso.nullable().meta({ description: "When the phone says it happened, when it said." }),
  actor: OpsActor,
  ...Position,
  details: z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()])),
});
export type CustodyEntry = z.infer<typeof CustodyEntry>;

export const Custody = z.object({ order_id: z.number().int(), custody: z.array(CustodyEntry) });
export type Custody = z.infer<typeof Custody>;

/** One order on a return manifest, named so the pharmacy can file it without looking anything up (issue 25). */
export const ReturnedOrder = z.object({
  order_id: z.number().int(),
  external_id: z.string().nullable().meta({ description: "The pharmacy's reference." }),
  service_date: z.string(),
  patient: PersonName,
  rx_numbers: z.array(z.string()),
  returned_item: z.boolean().meta({ description: "true: the medication came back undelivered; false: the order was delivered and its payment is handed over." }),
  reason: z.string().meta({ description: "Why it is on the return: the failed attempt's reason, 'Not attempted', or 'Delivered: payment handed over'." }),
  item_amount: Money.nullable().meta({ description: "The amount on the returned item's line; null when the order is on the return for its payment only." }),
  cash: Money.nullable().meta({ description: "Cash collected for the order and handed over." }),
  check: Money.nullable().meta({ description: "Check collected for the order and handed over." }),
});
export type ReturnedOrder = z.infer<typeof ReturnedOrder>;

export const ReturnManifest = z.object({
  id: z.number().int(),
  pharmacy: z.object({ id: z.number().int(), name: z.string() }),
  courier: z.object({ id: z.number().int(), first_name: z.string(), last_name: z.string() }),
  ...Filing,
  signed_at: Iso,
  staff_first_name: z.string(),
  staff_last_name: z.string(),
  items: z.array(z.object({ order_id: z.number().int(), amount: Money })),
  cash: z.array(z.object({ order_id: z.number().int().nullable(), amount: Money })),
  checks: z.array(z.object({ order_id: z.number().int().nullable(), amount: Money })),
  cash_total: Money,
  check_total: Money,
  orders: z.array(ReturnedOrder).meta({ description: "Every order on the return, in order id order." }),
  ...Position,
  signature_url: z.string(),
  pdf_url: z.string(),
});
export type ReturnManifest = z.infer<typeof ReturnManifest>;

export const ReturnsResponse = z.object({ returns: z.array(ReturnManifest) });

/** GET /api/ops/v1/returns?pharmacy_id=&service_date= */
export const ReturnsQuery = z.object({
  pharmacy_id: PathId,
  service_date: CalendarDay,
});
