import type { LightMyRequestResponse } from "fastify";
import type { OpsContext } from "./ops-harness.ts";

/** The password the staff of these tests choose on /set-password (the courier's rules). */
export const STAFF_PASSWORD = "run-the-day-safely";

let serial = 0;

export interface StaffLogin {
  staffId: number;
  email: string;
  /** "rxc_staff_session=…" for a Cookie header. */
  cookie: string;
  csrf: string;
  /** Cookie and CSRF token, as headers. */
  headers: Record<string, string>;
}

/** The console's session cookie from a login's answer. */
export function staffCookie(response: LightMyRequestResponse): string {
  const cookie = response.cookies.find((c) => c.name === "rxc_staff_session");
  if (!cookie) throw new Error(`no staff session cookie set: ${response.statusCode} ${response.body}`);
  return `rxc_staff_session=${cookie.value}`;
}

/** Invites a dispatcher or pharmacist with the dispatch key; the answer's invite token. */
export async function inviteStaff(ctx: OpsContext, role: "dispatcher" | "pharmacist", pharmacyId: number | null = null, email = `staff-${Date.now().toString(36)}-${++serial}@example.com`) {
  const response = await ctx.ops("POST", "/api/ops/v1/staff", { email, first_name: role === "dispatcher" ? "Dana" : "Pat", last_name: `Staff${serial}`, role, ...(pharmacyId !== null ? { pharmacy_id: pharmacyId } : {}) });
  if (response.statusCode !== 201) throw new Error(`invite: ${response.statusCode} ${response.body}`);
  return response.json() as { staff: { id: number; email: string; first_name: string; last_name: string }; invite_token: string; invite_expires_at: string };
}

export async function staffLogin(ctx: OpsContext, email: string, password = STAFF_PASSWORD): Promise<StaffLogin> {
  const response = await ctx.raw("POST", "/api/ops/v1/sessions", { email, password });
  if (response.statusCode !== 200) throw new Error(`staff login: ${response.statusCode} ${response.body}`);
  const body = response.json() as { csrf_token: string; staff: { id: number } };
  const cookie = staffCookie(response);
  return { staffId: body.staff.id, email, cookie, csrf: body.csrf_token, headers: { cookie, "x-csrf-token": body.csrf_token } };
}

/** A staff member invited, with a password set on the courier's /set-password endpoint, logged in. */
export async function newStaffSession(ctx: OpsContext, role: "dispatcher" | "pharmacist", pharmacyId: number | null = null): Promise<StaffLogin> {
  const invited = await inviteStaff(ctx, role, pharmacyId);
  const set = await ctx.raw("POST", "/api/courier/password", { token: invited.invite_token, password: STAFF_PASSWORD });
  if (set.statusCode !== 204) throw new Error(`set password: ${set.statusCode} ${set.body}`);
  return staffLogin(ctx, invited.staff.email);
}
