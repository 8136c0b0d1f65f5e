import { z } from "zod";
import { NAME_MAX_LENGTH } from "../recipient.ts";
import { OpsId } from "./ops.ts";
import { StoredText } from "./scalars.ts";
import { LoginRequest } from "./sessions.ts";

/**
 * Issue 27: the people who run the day from the dispatch console, with a
 * password rather than an API key. A dispatcher has a dispatch key's reach
 * but for keys and staff accounts; a pharmacist their pharmacy key's.
 */

export const STAFF_ROLES = ["dispatcher", "pharmacist"] as const;
export type StaffRole = (typeof STAFF_ROLES)[number];

/** The couriers' name rule: stored text (no NUL or control characters), trimmed, 1 to NAME_MAX_LENGTH characters. */
const Name = StoredText(NAME_MAX_LENGTH, { min: 1 });

/** POST /api/ops/v1/staff (dispatch key only) → 201 {staff, invite_token, invite_expires_at}. */
export const StaffInviteRequest = z
  .object({
    email: z.string().trim().max(254, "must be at most 254 characters").email("must be an email address"),
    first_name: Name,
    last_name: Name,
    role: z.enum(STAFF_ROLES, { error: "must be dispatcher or pharmacist" }),
    pharmacy_id: OpsId.nullish(),
  })
  .strict()
  .superRefine((body, ctx) => {
    if (body.role === "pharmacist" && body.pharmacy_id == null) ctx.addIssue({ code: "custom", path: ["pharmacy_id"], message: "is required for a pharmacist" });
    if (body.role === "dispatcher" && body.pharmacy_id != null) ctx.addIssue({ code: "custom", path: ["pharmacy_id"], message: "must be left out for a dispatcher: they see every pharmacy" });
  });
export type StaffInviteRequest = z.infer<typeof StaffInviteRequest>;

export const StaffMember = z.object({
  id: z.number().int(),
  email: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  role: z.enum(STAFF_ROLES),
  /** A pharmacist's pharmacy; null for a dispatcher. */
  pharmacy_id: z.number().int().nullable(),
  /** False once dispatch deactivated them: they cannot log in. */
  active: z.boolean(),
  /** True once they set a password from an invitation. */
  password_set: z.boolean(),
  created_at: z.string(),
});
export type StaffMember = z.infer<typeof StaffMember>;

/** 201 from POST staff and POST staff/{id}/invitation (a new token; earlier ones stop working). */
export const StaffInviteResponse = z.object({
  staff: StaffMember,
  invite_token: z.string(),
  invite_expires_at: z.string(),
});
export type StaffInviteResponse = z.infer<typeof StaffInviteResponse>;
export const StaffResponse = z.object({ staff: StaffMember });
export const StaffListResponse = z.object({ staff: z.array(StaffMember) });

/** POST /api/ops/v1/sessions: the console's login, with the courier's rules for the fields. */
export const StaffLoginRequest = LoginRequest;

/** Who is logged in to the console, and the CSRF token every mutating call sends as X-CSRF-Token. */
export const StaffSessionResponse = z.object({
  staff: z.object({
    id: z.number().int(),
    first_name: z.string(),
    last_name: z.string(),
    role: z.enum(STAFF_ROLES),
    pharmacy_id: z.number().int().nullable(),
  }),
  csrf_token: z.string(),
  /** The service's time zone (SERVICE_TIME_ZONE, IANA name): the console's "today" is the calendar day there, not the browser's. */
  service_time_zone: z.string(),
});
export type StaffSessionResponse = z.infer<typeof StaffSessionResponse>;
