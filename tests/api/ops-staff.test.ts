import { and, eq } from "drizzle-orm";
import { expect, it } from "vitest";
import { auditEvents, staffAccounts } from "../../server/db/schema.ts";
import { TEST_DAY } from "../support/api-harness.ts";
import { describeOps, orderBody, pharmacyBody, type OpsContext } from "../support/ops-harness.ts";
import { inviteStaff, newStaffSession, STAFF_PASSWORD, staffLogin } from "../support/staff-harness.ts";

/**
 * Issue 27: dispatchers and pharmacists — accounts a dispatch key manages,
 * passwords set on the couriers' /set-password endpoint, console sessions
 * (cookie + CSRF token) the operations API accepts like a key of their reach.
 */

let serial = 0;
const unique = () => `staff-${Date.now().toString(36)}-${++serial}`;

async function pharmacy(ctx: OpsContext, name: string): Promise<number> {
  const response = await ctx.ops("POST", "/api/ops/v1/pharmacies", pharmacyBody({ name }));
  expect(response.statusCode, response.body).toBe(201);
  return response.json().pharmacy.id;
}

async function order(ctx: OpsContext, pharmacyId: number): Promise<number> {
  const response = await ctx.ops("POST", "/api/ops/v1/orders", orderBody(pharmacyId, unique()));
  expect(response.statusCode, response.body).toBe(201);
  return response.json().order.id;
}

describeOps("staff accounts and console sessions", (ctx) => {
  it("invites a dispatcher and a pharmacist with a dispatch key, lists them, and refuses what is wrong", async () => {
    const c = ctx();
    const own = await pharmacy(c, "Staffed");
    const dispatcher = await inviteStaff(c, "dispatcher");
    expect(dispatcher.staff).toMatchObject({ role: "dispatcher", pharmacy_id: null, active: true, password_set: false });
    expect(dispatcher.invite_token).toMatch(/^[A-Za-z0-9_-]{40,}$/);
    expect(Date.parse(dispatcher.invite_expires_at) - Date.now()).toBeGreaterThan(6.9 * 86_400_000);
    const pharmacist = await inviteStaff(c, "pharmacist", own);
    expect(pharmacist.staff).toMatchObject({ role: "pharmacist", pharmacy_id: own });

    const listed = await c.ops("GET", "/api/ops/v1/staff");
    expect(listed.statusCode).toBe(200);
    const ids = listed.json().staff.map((s: { id: number }) => s.id);
    expect(ids).toEqual(expect.arrayContaining([dispatcher.staff.id, pharmacist.staff.id]));

    const base = { email: `${unique()}@example.com`, first_name: "P", last_name: "Q" };
    const noPharmacy = await c.ops("POST", "/api/ops/v1/staff", { ...base, role: "pharmacist" });
    expect(noPharmacy.statusCode).toBe(400);
    expect(noPharmacy.json().details).toEqual(expect.arrayContaining([expect.objectContaining({ path: "body.pharmacy_id" })]));
    const unknownPharmacy = await c.ops("POST", "/api/ops/v1/staff", { ...base, role: "pharmacist", pharmacy_id: 999_999 });
    expect(unknownPharmacy.statusCode).toBe(400);
    const badRole = await c.ops("POST", "/api/ops/v1/staff", { ...base, role: "courier" });
    expect(badRole.statusCode).toBe(400);
    const again = await c.ops("POST", "/api/ops/v1/staff", { ...base, email: dispatcher.staff.email.toUpperCase(), role: "dispatcher" });
    expect(again.statusCode).toBe(409);
  });

  it("sets the password on the couriers' endpoint with the same rules, once; logs in; a wrong password is refused", async () => {
    const c = ctx();
    const invited = await inviteStaff(c, "dispatcher");
    const short = await c.raw("POST", "/api/courier/password", { token: invited.invite_token, password: "short" });
    expect(short.statusCode).toBe(400);
    expect((await c.raw("POST", "/api/courier/password", { token: invited.invite_token, password: STAFF_PASSWORD })).statusCode).toBe(204);
    expect((await c.raw("POST", "/api/courier/password", { token: invited.invite_token, password: STAFF_PASSWORD })).statusCode).toBe(400);
    const [row] = await c.database.db.select().from(staffAccounts).where(eq(staffAccounts.id, invited.staff.id));
    expect(row!.passwordHash).toMatch(/^\$argon2/);

    const wrong = await c.raw("POST", "/api/ops/v1/sessions", { email: invited.staff.email, password: "not-the-password" });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.cookies.find((k) => k.name === "rxc_staff_session")).toBeUndefined();
    const login = await staffLogin(c, invited.staff.email.toUpperCase());
    const current = await c.raw("GET", "/api/ops/v1/sessions/current", undefined, { cookie: login.cookie });
    expect(current.statusCode).toBe(200);
    expect(current.json()).toEqual({
      staff: { id: invited.staff.id, first_name: "Dana", last_name: invited.staff.last_name, role: "dispatcher", pharmacy_id: null },
      csrf_token: login.csrf,
      service_time_zone: "America/New_York",
    });
    // The cookie goes to the operations API only, never to script.
    const response = await c.raw("POST", "/api/ops/v1/sessions", { email: invited.staff.email, password: STAFF_PASSWORD });
    const cookie = response.cookies.find((k) => k.name === "rxc_staff_session")!;
    expect(cookie).toMatchObject({ path: "/api/ops/v1", httpOnly: true, sameSite: "Lax" });
    // A courier's password is not a staff member's: the courier's email is no staff account.
    expect((await c.raw("POST", "/api/ops/v1/sessions", { email: "courier@example.com", password: "deliver-safely" })).statusCode).toBe(401);
  });

  it("gives a dispatcher a dispatch key's reach but for keys and staff, with the CSRF token on every change", async () => {
    const c = ctx();
    const own = await pharmacy(c, "Dispatcher's");
    const dispatcher = await newStaffSession(c, "dispatcher");
    expect((await c.raw("GET", "/api/ops/v1/orders?limit=1", undefined, { cookie: dispatcher.cookie })).statusCode).toBe(200);
    expect((await c.raw("GET", "/api/ops/v1/couriers", undefined, { cookie: dispatcher.cookie })).statusCode).toBe(200);

    const body = orderBody(own, unique());
    const noToken = await c.raw("POST", "/api/ops/v1/orders", body, { cookie: dispatcher.cookie });
    expect(noToken.statusCode).toBe(403);
    expect(noToken.json().error).toBe("csrf");
    const wrongToken = await c.raw("POST", "/api/ops/v1/orders", body, { cookie: dispatcher.cookie, "x-csrf-token": "x".repeat(43) });
    expect(wrongToken.statusCode).toBe(403);
    const created = await c.raw("POST", "/api/ops/v1/orders", body, dispatcher.headers);
    expect(created.statusCode, created.body).toBe(201);

    for (const [method, url, payload] of [
      ["GET", "/api/ops/v1/keys", undefined],
      ["POST", "/api/ops/v1/keys", { role: "dispatch", name: "from a session" }],
      ["GET", "/api/ops/v1/staff", undefined],
      ["POST", "/api/ops/v1/staff", { email: `${unique()}@example.com`, first_name: "A", last_name: "B", role: "dispatcher" }],
    ] as const) {
      const refused = await c.raw(method, url, payload, dispatcher.headers);
      expect(refused.statusCode, `${method} ${url}`).toBe(403);
    }

    // In the audit trail and the chain of custody: {type: "dispatcher", id, name}.
    const orderId = created.json().order.id as number;
    const cancelled = await c.raw("POST", `/api/ops/v1/orders/${orderId}/cancellation`, {}, dispatcher.headers);
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    const custody = await c.ops("GET", `/api/ops/v1/orders/${orderId}/custody`);
    expect(custody.statusCode, custody.body).toBe(200);
    const actors = custody.json().custody.map((entry: { actor: unknown }) => entry.actor);
    expect(actors).toContainEqual({ type: "dispatcher", id: dispatcher.staffId, name: expect.stringMatching(/^Dana Staff\d+$/) });
    const detail = await c.ops("GET", `/api/ops/v1/orders/${orderId}`);
    expect(detail.json().order.status_history.map((s: { actor: string }) => s.actor)).toEqual([`staff:${dispatcher.staffId}`, `staff:${dispatcher.staffId}`]);
    // The status history names them as the chain of custody does (one rule: domain/actors.ts).
    const named = actors.find((actor: { type: string }) => actor.type === "dispatcher");
    expect(detail.json().order.status_history.map((s: { acted_by: unknown }) => s.acted_by)).toEqual([named, named]);
  });

  it("gives a pharmacist their pharmacy key's reach: their orders, never another pharmacy's, no dispatch calls", async () => {
    const c = ctx();
    const own = await pharmacy(c, "Pharmacist's");
    const other = await pharmacy(c, "Another");
    const pharmacist = await newStaffSession(c, "pharmacist", own);
    const ownOrder = await order(c, own);
    const otherOrder = await order(c, other);
    expect((await c.raw("GET", `/api/ops/v1/orders/${ownOrder}`, undefined, { cookie: pharmacist.cookie })).statusCode).toBe(200);
    expect((await c.raw("GET", `/api/ops/v1/orders/${otherOrder}`, undefined, { cookie: pharmacist.cookie })).statusCode).toBe(404);
    expect((await c.raw("GET", `/api/ops/v1/orders?pharmacy_id=${other}`, undefined, { cookie: pharmacist.cookie })).statusCode).toBe(404);
    const listed = await c.raw("GET", "/api/ops/v1/orders?limit=100", undefined, { cookie: pharmacist.cookie });
    expect(listed.statusCode).toBe(200);
    expect(new Set(listed.json().orders.map((o: { pharmacy: { id: number } }) => o.pharmacy.id))).toEqual(new Set([own]));
    expect((await c.raw("POST", "/api/ops/v1/orders", orderBody(other, unique()), pharmacist.headers)).statusCode).toBe(404);
    expect((await c.raw("POST", "/api/ops/v1/orders", orderBody(own, unique()), pharmacist.headers)).statusCode).toBe(201);
    expect((await c.raw("GET", "/api/ops/v1/couriers", undefined, { cookie: pharmacist.cookie })).statusCode).toBe(403);
    const assign = await c.raw("POST", "/api/ops/v1/assignments", { courier_id: 1, service_date: TEST_DAY, order_ids: [ownOrder] }, pharmacist.headers);
    expect(assign.statusCode).toBe(403);

    // Every read of patient data is audited with who read it.
    const views = await c.database.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.action, "view_patient_details"), eq(auditEvents.orderId, ownOrder), eq(auditEvents.staffId, pharmacist.staffId)));
    expect(views.length).toBeGreaterThanOrEqual(2);
    expect(views.every((row) => row.apiKeyId === null && row.courierId === null)).toBe(true);
  });

  it("never takes a courier's cookie on the ops API, nor a staff cookie on the courier's routes", async () => {
    const c = ctx();
    const courier = await c.loginCourier("courier@example.com");
    const onOps = await c.raw("GET", "/api/ops/v1/orders?limit=1", undefined, { cookie: courier.cookie, "x-csrf-token": courier.csrf });
    expect(onOps.statusCode).toBe(401);
    const dispatcher = await newStaffSession(c, "dispatcher");
    for (const url of ["/api/courier/itinerary", "/api/sessions/current"]) {
      expect((await c.raw("GET", url, undefined, dispatcher.headers)).statusCode, url).toBe(401);
    }
    // The staff cookie under the courier's cookie name is no courier session either.
    const renamed = dispatcher.cookie.replace("rxc_staff_session=", "rxc_session=");
    expect((await c.raw("GET", "/api/courier/itinerary", undefined, { cookie: renamed })).statusCode).toBe(401);
    // A key sent with a staff cookie is judged by the key alone.
    expect((await c.raw("GET", "/api/ops/v1/keys", undefined, { ...dispatcher.headers, authorization: "Bearer unknown-key" })).statusCode).toBe(401);
  });

  it("logs out; deactivation ends every session at once and refuses the next login; a new invitation replaces the old link", async () => {
    const c = ctx();
    const first = await newStaffSession(c, "dispatcher");
    const second = await staffLogin(c, first.email);
    const logout = await c.raw("DELETE", "/api/ops/v1/sessions/current", undefined, second.headers);
    expect(logout.statusCode).toBe(204);
    expect((await c.raw("GET", "/api/ops/v1/sessions/current", undefined, { cookie: second.cookie })).statusCode).toBe(401);
    expect((await c.raw("GET", "/api/ops/v1/sessions/current", undefined, { cookie: first.cookie })).statusCode).toBe(200);

    const reinvited = await c.ops("POST", `/api/ops/v1/staff/${first.staffId}/invitation`, {});
    expect(reinvited.statusCode).toBe(201);
    const deactivated = await c.ops("POST", `/api/ops/v1/staff/${first.staffId}/deactivation`, {});
    expect(deactivated.statusCode).toBe(200);
    expect(deactivated.json().staff).toMatchObject({ id: first.staffId, active: false });
    expect((await c.raw("GET", "/api/ops/v1/orders?limit=1", undefined, { cookie: first.cookie })).statusCode).toBe(401);
    expect((await c.raw("POST", "/api/ops/v1/sessions", { email: first.email, password: STAFF_PASSWORD })).statusCode).toBe(401);
    // The link sent before the deactivation no longer works; nor can a deactivated member be invited again.
    expect((await c.raw("POST", "/api/courier/password", { token: reinvited.json().invite_token, password: STAFF_PASSWORD })).statusCode).toBe(400);
    expect((await c.ops("POST", `/api/ops/v1/staff/${first.staffId}/invitation`, {})).statusCode).toBe(409);

    const other = await inviteStaff(c, "dispatcher");
    const renewed = await c.ops("POST", `/api/ops/v1/staff/${other.staff.id}/invitation`, {});
    expect((await c.raw("POST", "/api/courier/password", { token: other.invite_token, password: STAFF_PASSWORD })).statusCode).toBe(400);
    expect((await c.raw("POST", "/api/courier/password", { token: renewed.json().invite_token, password: STAFF_PASSWORD })).statusCode).toBe(204);
    expect((await c.ops("POST", "/api/ops/v1/staff/999999/deactivation", {})).statusCode).toBe(404);
  });

  it("the demo day has a dispatcher and a pharmacist of Riverside Community Pharmacy, password dispatch-safely", async () => {
    const c = ctx();
    const dispatcher = await staffLogin(c, "dispatch@example.com", "dispatch-safely");
    const pharmacist = await staffLogin(c, "pharmacist@example.com", "dispatch-safely");
    const me = async (login: typeof dispatcher) => (await c.raw("GET", "/api/ops/v1/sessions/current", undefined, { cookie: login.cookie })).json().staff;
    expect(await me(dispatcher)).toMatchObject({ role: "dispatcher", pharmacy_id: null });
    const riverside = (await c.ops("GET", "/api/ops/v1/pharmacies")).json().pharmacies.find((p: { name: string }) => p.name === "Riverside Community Pharmacy");
    expect(await me(pharmacist)).toMatchObject({ role: "pharmacist", pharmacy_id: riverside.id });
  });

  it("a key is not a console session: who-is-logged-in needs the cookie", async () => {
    expect((await ctx().ops("GET", "/api/ops/v1/sessions/current")).statusCode).toBe(403);
    expect((await ctx().raw("GET", "/api/ops/v1/sessions/current")).statusCode).toBe(401);
  });
});

describeOps(
  "staff login limits",
  (ctx) => {
    it("refuses with 429 past the courier's limit of failures, before checking the password", async () => {
      const c = ctx();
      const member = await inviteStaff(c, "dispatcher");
      await c.raw("POST", "/api/courier/password", { token: member.invite_token, password: STAFF_PASSWORD });
      const statuses: number[] = [];
      for (let i = 0; i < 4; i++) statuses.push((await c.raw("POST", "/api/ops/v1/sessions", { email: member.staff.email, password: `wrong-${i}-password` })).statusCode);
      expect(statuses).toEqual([401, 401, 401, 429]);
      const limited = await c.raw("POST", "/api/ops/v1/sessions", { email: member.staff.email, password: STAFF_PASSWORD });
      expect(limited.statusCode).toBe(429);
      expect(Number(limited.headers["retry-after"])).toBeGreaterThan(0);
    });
  },
  { LOGIN_ATTEMPTS_PER_ADDRESS_PER_MINUTE: "3" },
);
