import { z } from "zod";
import { PathId } from "./common.ts";
import { CalendarDay } from "./ops.ts";
import { FAILURE_REASON_NAMES, ORDER_STATUS_NAMES } from "../vocabulary.ts";

/**
 * GET /api/ops/v1/orders/{id}/proof, .../custody and /returns
 * (docs/operations.md): what happened at the door, for the pharmacy's
 * files. Responses only; the requests carry ids and dates alone.
 */

const Iso = z.string().meta({ description: "ISO 8601 time (UTC)." });
const Money = z.string().regex(/^\d+\.\d{2}$/).meta({ description: "Decimal amount with two places." });
const Position = { latitude: z.number().nullable(), longitude: z.number().nullable() };

export const ProofOutcome = z.enum(["delivered", "delivery_attempted", "returned_to_pharmacy"]);

export const Proof = z.object({
  order: z.object({
    id: z.number().int(),
    external_id: z.string().nullable(),
    status: z.enum(ORDER_STATUS_NAMES),
    service_date: z.string(),
  }),
  pharmacy: z.object({ id: z.number().int(), name: z.string() }),
  courier: z.object({ id: z.number().int(), first_name: z.string(), last_name: z.string() }).nullable(),
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
  notes: z.string().nullable(),
  client_occurred_at: Iso.nullable(),
  received_at: Iso,
  ...Position,
  grouped_order_ids: z.array(z.number().int()),
  signature_url: z.string().nullable(),
  photo_url: z.string().nullable().meta({ description: "Issue 19: the photo of the drop-off where nobody signed, when the courier took one." }),
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
  "visit_confirmed",
  "verified",
  "picked_up",
  "cancelled",
  "delivery_attempted",
  "delivered",
  "returned",
  "reconciled",
] as const;

export const CustodyActor = z.object({
  type: z.enum(["courier", "key", "staff"]),
  id: z.number().int().nullable(),
  name: z.string(),
});

export const CustodyEntry = z.object({
  event: z.enum(CUSTODY_EVENTS),
  at: Iso.meta({ description: "When the server recorded it." }),
  client_occurred_at: Iso.nullable().meta({ description: "When the phone says it happened, when it said." }),
  actor: CustodyActor,
  ...Position,
  details: z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()])),
});
export type CustodyEntry = z.infer<typeof CustodyEntry>;

export const Custody = z.object({ order_id: z.number().int(), custody: z.array(CustodyEntry) });
export type Custody = z.infer<typeof Custody>;

export const ReturnManifest = z.object({
  id: z.number().int(),
  pharmacy: z.object({ id: z.number().int(), name: z.string() }),
  courier: z.object({ id: z.number().int(), first_name: z.string(), last_name: z.string() }),
  signed_at: Iso,
  staff_first_name: z.string(),
  staff_last_name: z.string(),
  items: z.array(z.object({ order_id: z.number().int(), amount: Money })),
  cash: z.array(z.object({ order_id: z.number().int().nullable(), amount: Money })),
  checks: z.array(z.object({ order_id: z.number().int().nullable(), amount: Money })),
  cash_total: Money,
  check_total: Money,
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
