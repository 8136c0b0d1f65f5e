import { and, eq, inArray, sql } from "drizzle-orm";
import { expect, it } from "vitest";
import { auditEvents, dispatchEvents, orders, pharmacyVisits } from "../../server/db/schema.ts";
import { PIECE_ROWS } from "../../server/ops/services/order-batch.ts";
import { TEST_DAY } from "../support/api-harness.ts";
import { describeOps, orderBody, pharmacyBody, type OpsContext } from "../support/ops-harness.ts";

const V1 = "/api/ops/v1";

async function newPharmacy(ctx: OpsContext, overrides: Record<string, unknown> = {}): Promise<number> {
  const response = await ctx.ops("POST", `${V1}/pharmacies`, pharmacyBody(overrides));
  if (response.statusCode !== 201) throw new Error(response.body);
  return response.json().pharmacy.id;
}

async function pharmacyKey(ctx: OpsContext, pharmacyId: number): Promise<string> {
  return (await ctx.ops("POST", `${V1}/keys`, { role: "pharmacy", pharmacy_id: pharmacyId, name: `pharmacy ${pharmacyId}` })).json().key;
}

async function newCourier(ctx: OpsContext, email: string) {
  const response = await ctx.ops("POST", `${V1}/couriers`, { first_name: "Jo", last_name: "Rider", email });
  if (response.statusCode !== 201) throw new Error(response.body);
  return response.json() as { courier: { id: number }; invite_token: string; invite_expires_at: string };
}

function paths(response: { json(): unknown }): string[] {
  return ((response.json() as { details?: { path: string }[] }).details ?? []).map((detail) => detail.path);
}

describeOps("ops API: pharmacies", (ctx) => {
  it("creates, changes and lists pharmacies", async () => {
    const created = await ctx().ops("POST", `${V1}/pharmacies`, pharmacyBody({ pickup_note: "Back door after 6pm." }));
    expect(created.statusCode).toBe(201);
    const { pharmacy } = created.json();
    expect(pharmacy).toMatchObject({ name: "Harbor Pharmacy", pickup_note: "Back door after 6pm.", address: { street_address_2: null, zipcode: "19106" } });

    const patched = await ctx().ops("PATCH", `${V1}/pharmacies/${pharmacy.id}`, { routing_enabled: true, name: "Harbor Pharmacy East" });
    expect(patched.statusCode).toBe(200);
    expect(patched.json().pharmacy).toMatchObject({ id: pharmacy.id, routing_enabled: true, name: "Harbor Pharmacy East", can_skip_signature: true });

    const list = (await ctx().ops("GET", `${V1}/pharmacies`)).json().pharmacies;
    expect(list.map((p: { id: number }) => p.id)).toContain(pharmacy.id);
    expect(list.length).toBeGreaterThanOrEqual(6);
    expect((await ctx().ops("PATCH", `${V1}/pharmacies/999999`, { name: "x" })).statusCode).toBe(404);

    const trail = await ctx().database.db.select().from(auditEvents).where(eq(auditEvents.subject, `pharmacy:${pharmacy.id}`));
    expect(trail.map((row) => [row.action, row.apiKeyId])).toEqual([["pharmacy_created", ctx().dispatchKeyId], ["pharmacy_updated", ctx().dispatchKeyId]]);
  });

  it.each([
    ["a missing name", pharmacyBody({ name: undefined }), "body.name"],
    ["a name of 10,000 characters", pharmacyBody({ name: "x".repeat(10_000) }), "body.name"],
    ["a number for a name", pharmacyBody({ name: 42 }), "body.name"],
    ["a bad phone number", pharmacyBody({ phone_number: "12" }), "body.phone_number"],
    ["an unknown state", pharmacyBody({ address: { ...pharmacyBody().address, state_abbreviation: "XX" } }), "body.address.state_abbreviation"],
    ["a latitude off the globe", pharmacyBody({ address: { ...pharmacyBody().address, latitude: 91 } }), "body.address.latitude"],
    ["a text flag", pharmacyBody({ routing_enabled: "yes" }), "body.routing_enabled"],
    ["a payment method twice", pharmacyBody({ payment_methods: [{ type: "cash", allowed: true }, { type: "cash", allowed: false }] }), "body.payment_methods"],
    ["a control character", pharmacyBody({ name: "Harbor\u0000" }), "body.name"],
  ])("refuses %s with 400 and the field's path", async (_what, body, path) => {
    const response = await ctx().ops("POST", `${V1}/pharmacies`, body);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ error: "invalid_request" });
    expect(paths(response)).toContain(path);
  });

  it("refuses an empty PATCH and a body over the limit", async () => {
    expect((await ctx().ops("PATCH", `${V1}/pharmacies/1`, {})).statusCode).toBe(400);
    const huge = await ctx().ops("POST", `${V1}/pharmacies`, pharmacyBody({ pickup_note: "x".repeat(300 * 1024) }));
    expect(huge.statusCode).toBe(413);
    expect(huge.json()).toMatchObject({ error: "body_too_large" });
  });
});

describeOps("ops API: couriers and onboarding", (ctx) => {
  it("invites a courier who sets a password once, logs in, and is deactivated with every session ended", async () => {
    const invited = await newCourier(ctx(), "New.Rider@Example.com");
    expect(invited.courier).toMatchObject({ email: "new.rider@example.com", active: true, password_set: false });
    const expires = Date.parse(invited.invite_expires_at) - Date.now();
    expect(expires).toBeGreaterThan(6.9 * 86_400_000);
    expect(expires).toBeLessThanOrEqual(7 * 86_400_000);

    // No password yet: login is refused like any wrong password.
    expect((await ctx().raw("POST", "/api/sessions", { email: "new.rider@example.com", password: "anything at all" })).statusCode).toBe(401);

    const weak = await ctx().raw("POST", "/api/courier/password", { token: invited.invite_token, password: "short" });
    expect(weak.statusCode).toBe(400);
    expect(weak.json()).toMatchObject({ message: "The password must be at least 12 characters long." });
    expect(paths(weak)).toEqual(["body.password"]);
    const common = await ctx().raw("POST", "/api/courier/password", { token: invited.invite_token, password: "Password2024!" });
    expect(common.statusCode).toBe(400);
    expect(common.json().message).toMatch(/too common/);

    const set = await ctx().raw("POST", "/api/courier/password", { token: invited.invite_token, password: "blue kettle on the porch" });
    expect(set.statusCode).toBe(204);
    const again = await ctx().raw("POST", "/api/courier/password", { token: invited.invite_token, password: "another long passphrase" });
    expect(again.statusCode).toBe(400);
    expect(again.json()).toMatchObject({ error: "invalid_token", message: "This invitation link is not valid any more. Ask dispatch for a new invite." });

    const session = await ctx().loginCourier("new.rider@example.com", "blue kettle on the porch");
    const listed = (await ctx().ops("GET", `${V1}/couriers`)).json().couriers.find((c: { id: number }) => c.id === invited.courier.id);
    expect(listed).toMatchObject({ password_set: true, active: true });

    const deactivated = await ctx().ops("POST", `${V1}/couriers/${invited.courier.id}/deactivation`);
    expect(deactivated.statusCode).toBe(200);
    expect(deactivated.json().courier).toMatchObject({ active: false });
    expect((await ctx().raw("GET", "/api/courier/itinerary", undefined, { cookie: session.cookie })).statusCode).toBe(401);
    expect((await ctx().raw("POST", "/api/sessions", { email: "new.rider@example.com", password: "blue kettle on the porch" })).statusCode).toBe(401);
    expect((await ctx().ops("POST", `${V1}/couriers/${invited.courier.id}/invitation`)).statusCode).toBe(409);
  });

  it("re-invites: a new token works once, the earlier one no longer does, and the old password's sessions end", async () => {
    const invited = await newCourier(ctx(), "forgetful@example.com");
    expect((await ctx().raw("POST", "/api/courier/password", { token: invited.invite_token, password: "first long passphrase" })).statusCode).toBe(204);
    const session = await ctx().loginCourier("forgetful@example.com", "first long passphrase");

    const first = (await ctx().ops("POST", `${V1}/couriers/${invited.courier.id}/invitation`)).json();
    const second = await ctx().ops("POST", `${V1}/couriers/${invited.courier.id}/invitation`);
    expect(second.statusCode).toBe(201);
    expect((await ctx().raw("POST", "/api/courier/password", { token: first.invite_token, password: "second long passphrase" })).statusCode).toBe(400);
    expect((await ctx().raw("POST", "/api/courier/password", { token: second.json().invite_token, password: "second long passphrase" })).statusCode).toBe(204);
    expect((await ctx().raw("GET", "/api/sessions/current", undefined, { cookie: session.cookie })).statusCode).toBe(401);
    await ctx().loginCourier("forgetful@example.com", "second long passphrase");
  });

  it("refuses an expired invitation", async () => {
    const invited = await newCourier(ctx(), "late@example.com");
    const { courierInvitations } = await import("../../server/db/schema.ts");
    await ctx().database.db.update(courierInvitations).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(courierInvitations.courierId, invited.courier.id));
    const response = await ctx().raw("POST", "/api/courier/password", { token: invited.invite_token, password: "a long enough passphrase" });
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toBe("invalid_token");
  });

  it("refuses a second courier with the same email, whatever its case, and bad bodies with the path", async () => {
    await newCourier(ctx(), "twice@example.com");
    expect((await ctx().ops("POST", `${V1}/couriers`, { first_name: "A", last_name: "B", email: "TWICE@example.com" })).statusCode).toBe(409);
    for (const [body, path] of [
      [{ last_name: "B", email: "x@example.com" }, "body.first_name"],
      [{ first_name: "A", last_name: "B", email: "not-an-email" }, "body.email"],
      [{ first_name: "A".repeat(101), last_name: "B", email: "y@example.com" }, "body.first_name"],
      [{ first_name: "A", last_name: "B", email: "z@example.com", phone_number: 5 }, "body.phone_number"],
    ] as const) {
      const response = await ctx().ops("POST", `${V1}/couriers`, body);
      expect(response.statusCode).toBe(400);
      expect(paths(response)).toContain(path);
    }
    for (const body of [{}, { token: "abc" }, { token: "a".repeat(1000), password: "long enough password" }, { token: 5, password: "long enough password" }]) {
      expect((await ctx().raw("POST", "/api/courier/password", body)).statusCode).toBe(400);
    }
    expect((await ctx().ops("POST", `${V1}/couriers/999999/deactivation`)).statusCode).toBe(404);
  });
});

describeOps("ops API: orders", (ctx) => {
  it("creates an order (201), the same body again is 200 with the same order, another body is 409", async () => {
    const pharmacyId = await newPharmacy(ctx(), { pickup_note: "Ask for Sam." });
    const body = orderBody(pharmacyId, "EXT-1", { delivery_instruction: "Ring twice.", superuser_note: "Fragile." });
    const created = await ctx().ops("POST", `${V1}/orders`, body);
    expect(created.statusCode).toBe(201);
    const order = created.json().order;
    expect(order).toMatchObject({
      external_id: "EXT-1",
      status: { name: "new" },
      courier_id: null,
      service_date: TEST_DAY,
      copay: "12.50",
      delivery_fee: null,
      other_items_amount_due: "0.00",
      pickup_note: "Ask for Sam.",
      delivery_notes: [
        { courier_note: false, delivery_instruction: "Ring twice.", superuser_note: false },
        { courier_note: false, delivery_instruction: "Fragile.", superuser_note: true },
      ],
    });
    // Key order does not matter: the same body is the same order.
    const reordered = Object.fromEntries(Object.entries(body).reverse());
    const again = await ctx().ops("POST", `${V1}/orders`, reordered);
    expect(again.statusCode).toBe(200);
    expect(again.json().order.id).toBe(order.id);
    const different = await ctx().ops("POST", `${V1}/orders`, { ...body, copay: "13.00" });
    expect(different.statusCode).toBe(409);
    expect(different.json().message).toContain(`Order ${order.id}`);
    expect(await ctx().database.db.select().from(orders).where(eq(orders.externalId, "EXT-1"))).toHaveLength(1);
  });

  it.each([
    ["a copay under 1.00", { copay: "0.99" }, "body.copay"],
    ["a copay with one decimal", { copay: "12.5" }, "body.copay"],
    ["a copay over the ceiling", { copay: "100000.00" }, "body.copay"],
    ["a copay as a number", { copay: 12.5 }, "body.copay"],
    ["no prescriptions", { rx_numbers: [] }, "body.rx_numbers"],
    ["a missing patient name", { patient_first_name: undefined }, "body.patient_first_name"],
    ["a huge instruction", { delivery_instruction: "x".repeat(5000) }, "body.delivery_instruction"],
    ["an impossible birth date", { patient_date_of_birth: "1990-02-30" }, "body.patient_date_of_birth"],
    ["a bad ZIP code", { address: { street_address: "1 A St", city: "X", state_abbreviation: "PA", zipcode: "1910" } }, "body.address.zipcode"],
    ["an unknown field", { colour: "blue" }, "body"],
    ["a pharmacy id too large", { pharmacy_id: 2_147_483_648 }, "body.pharmacy_id"],
  ])("refuses %s with 400 and the field's path", async (_what, overrides, path) => {
    const response = await ctx().ops("POST", `${V1}/orders`, orderBody(1, "BAD-1", overrides));
    expect(response.statusCode).toBe(400);
    expect(paths(response)).toContain(path);
  });

  it("accepts 0.00 as no copay and an order address without coordinates", async () => {
    const response = await ctx().ops("POST", `${V1}/orders`, orderBody(1, "NOCOPAY", { copay: "0.00", address: { street_address: "1 A St", city: "Philadelphia", state_abbreviation: "PA", zipcode: "19106" } }));
    expect(response.statusCode).toBe(201);
    expect(response.json().order).toMatchObject({ copay: "0.00", address: { latitude: null, longitude: null } });
  });

  it("confines a pharmacy key to its pharmacy: another pharmacy's orders are 404 and absent from lists", async () => {
    const mine = await newPharmacy(ctx(), { name: "Mine" });
    const theirs = await newPharmacy(ctx(), { name: "Theirs" });
    const key = await pharmacyKey(ctx(), mine);
    const own = await ctx().ops("POST", `${V1}/orders`, orderBody(mine, "P-1"), key);
    expect(own.statusCode).toBe(201);
    expect((await ctx().ops("POST", `${V1}/orders`, orderBody(theirs, "P-2"), key)).statusCode).toBe(404);
    const foreign = (await ctx().ops("POST", `${V1}/orders`, orderBody(theirs, "P-3"))).json().order;
    expect((await ctx().ops("GET", `${V1}/orders/${foreign.id}`, undefined, key)).statusCode).toBe(404);
    expect((await ctx().ops("PATCH", `${V1}/orders/${foreign.id}`, { copay: "5.00" }, key)).statusCode).toBe(404);
    expect((await ctx().ops("POST", `${V1}/orders/${foreign.id}/cancellation`, {}, key)).statusCode).toBe(404);
    expect((await ctx().ops("GET", `${V1}/orders?pharmacy_id=${theirs}`, undefined, key)).statusCode).toBe(404);
    const listed = (await ctx().ops("GET", `${V1}/orders?limit=200`, undefined, key)).json().orders;
    expect(listed.map((o: { id: number }) => o.id)).toEqual([own.json().order.id]);
  });

  it("changes an order until pickup, then 409 with the reason; cancels before pickup only", async () => {
    const order = (await ctx().ops("POST", `${V1}/orders`, orderBody(1, "EDIT-1", { delivery_instruction: "Old note." }))).json().order;
    const patched = await ctx().ops("PATCH", `${V1}/orders/${order.id}`, { copay: "20.00", patient_last_name: "Byron", delivery_instruction: "New note." });
    expect(patched.statusCode).toBe(200);
    expect(patched.json().order).toMatchObject({ copay: "20.00", patient_last_name: "Byron", recipient_description: "Ada Byron", delivery_notes: [{ delivery_instruction: "New note." }] });
    expect((await ctx().ops("PATCH", `${V1}/orders/${order.id}`, { copay: "0.50" })).statusCode).toBe(400);

    await ctx().database.db.update(orders).set({ statusId: 3 }).where(eq(orders.id, order.id));
    const late = await ctx().ops("PATCH", `${V1}/orders/${order.id}`, { copay: "21.00" });
    expect(late.statusCode).toBe(409);
    expect(late.json().message).toBe(`Order ${order.id} is picked up: it left the pharmacy and can no longer be changed.`);
    expect((await ctx().ops("POST", `${V1}/orders/${order.id}/cancellation`, {})).statusCode).toBe(409);

    const other = (await ctx().ops("POST", `${V1}/orders`, orderBody(1, "CANCEL-1"))).json().order;
    const cancelled = await ctx().ops("POST", `${V1}/orders/${other.id}/cancellation`, { reason: "Patient moved." });
    expect(cancelled.statusCode).toBe(200);
    expect(cancelled.json().order.status.name).toBe("cancelled");
    const detail = (await ctx().ops("GET", `${V1}/orders/${other.id}`)).json().order;
    expect(detail.status_history.map((h: { from_status: string | null; to_status: string; actor: string }) => [h.from_status, h.to_status, h.actor])).toEqual([
      [null, "new", `key:${ctx().dispatchKeyId}`],
      ["new", "cancelled", `key:${ctx().dispatchKeyId}`],
    ]);
    // Who moved it, by name, as the chain of custody gives them.
    const custody = (await ctx().ops("GET", `${V1}/orders/${other.id}/custody`)).json().custody as { actor: unknown }[];
    expect(detail.status_history.map((h: { acted_by: unknown }) => h.acted_by)).toEqual([custody[0]!.actor, custody[0]!.actor]);
    expect(custody[0]!.actor).toEqual({ type: "key", id: ctx().dispatchKeyId, name: expect.any(String) });
    expect((await ctx().ops("GET", `${V1}/orders/999999`)).statusCode).toBe(404);
  });

  it("audits every ops read of patient data with the key's id", async () => {
    const order = (await ctx().ops("POST", `${V1}/orders`, orderBody(1, "AUDIT-1"))).json().order;
    await ctx().ops("GET", `${V1}/orders/${order.id}`);
    const views = await ctx().database.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.orderId, order.id), eq(auditEvents.action, "view_patient_details")));
    // The creation's answer and the read both showed the patient.
    expect(views.length).toBe(2);
    expect(views.every((view) => view.apiKeyId === ctx().dispatchKeyId && view.courierId === null)).toBe(true);
  });

  it("lists newest first with a cursor, filtered", async () => {
    const pharmacyId = await newPharmacy(ctx(), { name: "Paging" });
    const ids: number[] = [];
    for (let i = 0; i < 5; i++) ids.push((await ctx().ops("POST", `${V1}/orders`, orderBody(pharmacyId, `PAGE-${i}`))).json().order.id);
    const seen: number[] = [];
    let cursor: string | null = null;
    do {
      const page: { orders: { id: number }[]; next_cursor: string | null } = (
        await ctx().ops("GET", `${V1}/orders?pharmacy_id=${pharmacyId}&limit=2${cursor ? `&cursor=${cursor}` : ""}`)
      ).json();
      seen.push(...page.orders.map((o) => o.id));
      cursor = page.next_cursor;
    } while (cursor);
    expect(seen).toEqual([...ids].reverse());
    // The same pages by the Link header's rel="next" (the console asks for the next page before reading this one's body).
    const linked: number[] = [];
    let url: string | null = `${V1}/orders?pharmacy_id=${pharmacyId}&limit=2`;
    while (url) {
      const response = await ctx().ops("GET", url);
      const page: { orders: { id: number }[]; next_cursor: string | null } = response.json();
      linked.push(...page.orders.map((o) => o.id));
      const link = response.headers.link as string | undefined;
      expect(link === undefined, String(link)).toBe(page.next_cursor === null);
      url = link ? /^<([^>]+)>; rel="next"$/.exec(link)![1]! : null;
      if (url) expect(new URL(url, "http://x").searchParams.get("cursor")).toBe(page.next_cursor);
    }
    expect(linked).toEqual(seen);
    expect((await ctx().ops("GET", `${V1}/orders?status=cancelled&pharmacy_id=${pharmacyId}`)).json().orders).toEqual([]);
    expect((await ctx().ops("GET", `${V1}/orders?service_date=${TEST_DAY}&pharmacy_id=${pharmacyId}&status=new`)).json().orders).toHaveLength(5);
    for (const query of ["status=lost", "cursor=!!", "cursor=Zm9v", "limit=0", "limit=1001", "service_date=2026-13-01", "courier_id=abc"]) {
      expect((await ctx().ops("GET", `${V1}/orders?${query}`)).statusCode, query).toBe(400);
    }
    const tooMany = (await ctx().ops("GET", `${V1}/orders?limit=1001`)).json();
    expect(tooMany.message).toBe("Query parameter limit must be a whole number from 1 to 1000, in decimal digits.");
  });

  it("answers up to 1,000 orders a page (the console reads a day in two requests), the cursor as before", async () => {
    const pharmacyId = await newPharmacy(ctx(), { name: "Large pages" });
    const rows = Array.from({ length: 1005 }, (_, i) => orderBody(pharmacyId, `BIG-${i}`));
    for (let start = 0; start < rows.length; start += 500) {
      const batch = await ctx().ops("POST", `${V1}/orders/batch`, { orders: rows.slice(start, start + 500) });
      expect(batch.statusCode, batch.body).toBe(200);
    }
    const first = await ctx().ops("GET", `${V1}/orders?pharmacy_id=${pharmacyId}&limit=1000`);
    expect(first.statusCode, first.body).toBe(200);
    const page1: { orders: { id: number; external_id: string }[]; next_cursor: string | null } = first.json();
    expect(page1.orders).toHaveLength(1000);
    expect(page1.next_cursor).not.toBeNull();
    const page2: { orders: { id: number; external_id: string }[]; next_cursor: string | null } = (
      await ctx().ops("GET", `${V1}/orders?pharmacy_id=${pharmacyId}&limit=1000&cursor=${page1.next_cursor}`)
    ).json();
    expect(page2.orders).toHaveLength(5);
    expect(page2.next_cursor).toBeNull();
    const ids = [...page1.orders, ...page2.orders].map((order) => order.id);
    // Newest first, each once, every order of the pharmacy.
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
    expect(new Set(ids).size).toBe(1005);
    // Every order the page showed is a view of patient details in the audit trail, one row each.
    const views = await ctx()
      .database.db.select()
      .from(auditEvents)
      .where(and(eq(auditEvents.action, "view_patient_details"), inArray(auditEvents.orderId, page1.orders.map((order) => order.id))));
    expect(views.length).toBe(1000);
  });
});

describeOps("ops API: batch", (ctx) => {
  it("creates, finds unchanged and rejects row by row; a bad row never stops the others", async () => {
    const pharmacyId = await newPharmacy(ctx(), { name: "Batch" });
    await ctx().ops("POST", `${V1}/orders`, orderBody(pharmacyId, "B-0"));
    const response = await ctx().ops("POST", `${V1}/orders/batch`, {
      orders: [
        orderBody(pharmacyId, "B-0"),
        orderBody(pharmacyId, "B-1"),
        orderBody(pharmacyId, "B-2", { copay: "0.10" }),
        orderBody(pharmacyId, "B-3", { patient_first_name: "x".repeat(10_000) }),
        orderBody(pharmacyId, "B-0", { copay: "99.00" }),
        orderBody(999999, "B-4"),
        { junk: true },
        orderBody(pharmacyId, "B-5"),
      ],
    });
    expect(response.statusCode).toBe(200);
    // How long the batch held its transaction (issue 25's bench reads it).
    expect(response.headers["server-timing"]).toMatch(/^transaction;dur=\d+\.\d$/);
    const results = response.json().results;
    expect(results.map((r: { external_id: string | null; status: string }) => [r.external_id, r.status])).toEqual([
      ["B-0", "unchanged"],
      ["B-1", "created"],
      ["B-2", "rejected"],
      ["B-3", "rejected"],
      ["B-0", "rejected"],
      ["B-4", "rejected"],
      [null, "rejected"],
      ["B-5", "created"],
    ]);
    expect(results[2].errors).toEqual([{ path: "copay", message: "must be 0.00 (no copay) or at least 1.00" }]);
    expect(results[5].errors[0].path).toBe("pharmacy_id");
    const stored = await ctx().database.db.select().from(orders).where(eq(orders.pharmacyId, pharmacyId));
    expect(stored.map((o) => o.externalId).sort()).toEqual(["B-0", "B-1", "B-5"]);
  });

  it("refuses an empty batch and one over 1000 rows", async () => {
    expect((await ctx().ops("POST", `${V1}/orders/batch`, { orders: [] })).statusCode).toBe(400);
    const tooMany = { orders: Array.from({ length: 1001 }, (_, i) => ({ external_id: `X${i}` })) };
    expect(paths(await ctx().ops("POST", `${V1}/orders/batch`, tooMany))).toContain("body.orders");
    expect((await ctx().ops("POST", `${V1}/orders/batch`, "{not json")).statusCode).toBe(400);
  });

  it("takes 1000 orders in one call", async () => {
    const pharmacyId = await newPharmacy(ctx(), { name: "Big batch" });
    const rows = Array.from({ length: 1000 }, (_, i) => orderBody(pharmacyId, `BIG-${i}`));
    const started = Date.now();
    const response = await ctx().ops("POST", `${V1}/orders/batch`, { orders: rows });
    expect(response.statusCode, response.body.slice(0, 300)).toBe(200);
    expect(response.json().results.every((r: { status: string }) => r.status === "created")).toBe(true);
    console.info(`batch of 1000 orders: ${Date.now() - started} ms`);
  }, 120_000);

  it("plans the events' commit trigger again at each call (a connection's first plan, made on a small table, was a seq scan kept as it grew)", async () => {
    const result = await ctx().database.db.execute(sql`select proconfig from pg_proc where proname = 'dispatch_events_take_position'`);
    const rows = (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as { proconfig: string[] | null }[];
    expect(rows).toHaveLength(1);
    expect(rows[0]!.proconfig).toContain("plan_cache_mode=force_custom_plan");
  });

  it("announces each piece's events as it commits, those of the pieces a refused batch committed too (decision 0039)", async () => {
    const pharmacyId = await newPharmacy(ctx(), { name: "Announced batch" });
    let heard = 0;
    const stop = await ctx().database.listen("rxc_events", () => void (heard += 1));
    // A single order after each batch: notifications arrive in commit order, so once its one has, the batch's have.
    let sentinels = 0;
    const heardAfterSentinel = async () => {
      const before = heard;
      expect((await ctx().ops("POST", `${V1}/orders`, orderBody(pharmacyId, `NOTE-S${(sentinels += 1)}`))).statusCode).toBe(201);
      for (let i = 0; i < 500 && heard === before; i++) await new Promise((resolve) => setTimeout(resolve, 10));
      return heard;
    };
    try {
      await heardAfterSentinel();
      heard = 0;
      const rows = Array.from({ length: 2 * PIECE_ROWS + 50 }, (_, i) => orderBody(pharmacyId, `NOTE-${String(i).padStart(3, "0")}`));
      expect((await ctx().ops("POST", `${V1}/orders/batch`, { orders: rows })).statusCode).toBe(200);
      // Three pieces, a NOTIFY each, then the sentinel's.
      expect(await heardAfterSentinel()).toBe(4);

      // A batch the database refuses in its second piece: the first piece committed, and its events are announced.
      const refused = `NOTF-${String(PIECE_ROWS + 1).padStart(3, "0")}`;
      const { db } = ctx().database;
      await db.execute(sql.raw(`create function refuse_note_row() returns trigger language plpgsql as $$ begin raise exception 'refused by the test'; end $$`));
      await db.execute(sql.raw(`create trigger refuse_note_row before insert on dispatch_events for each row when (new.data -> 'order' ->> 'external_id' = '${refused}') execute function refuse_note_row()`));
      try {
        heard = 0;
        const failing = Array.from({ length: 2 * PIECE_ROWS }, (_, i) => orderBody(pharmacyId, `NOTF-${String(i).padStart(3, "0")}`));
        expect((await ctx().ops("POST", `${V1}/orders/batch`, { orders: failing })).statusCode).toBe(500);
      } finally {
        await db.execute(sql.raw("drop trigger refuse_note_row on dispatch_events"));
        await db.execute(sql.raw("drop function refuse_note_row()"));
      }
      expect(await heardAfterSentinel()).toBe(2);
    } finally {
      await stop();
    }
  });

  it("keeps the pieces of a batch committed before the database refused a write, each row whole, and a retry writes the rest once (decision 0039)", async () => {
    const pharmacyId = await newPharmacy(ctx(), { name: "Refused batch" });
    const rows = Array.from({ length: 250 }, (_, i) => orderBody(pharmacyId, `FAIL-${String(i).padStart(3, "0")}`));
    // The rows are written in the order of their external ids, PIECE_ROWS to a transaction: the refused row is in the second piece.
    const refused = `FAIL-${String(PIECE_ROWS + PIECE_ROWS / 2).padStart(3, "0")}`;
    const firstPiece = rows.slice(0, PIECE_ROWS).map((row) => row.external_id);
    const { db } = ctx().database;
    const writtenFor = async () => {
      const stored = await db.select({ id: orders.id, externalId: orders.externalId }).from(orders).where(eq(orders.pharmacyId, pharmacyId)).orderBy(orders.id);
      const ids = stored.map((row) => row.id);
      const audits = ids.length ? await db.select({ orderId: auditEvents.orderId }).from(auditEvents).where(and(inArray(auditEvents.orderId, ids), eq(auditEvents.action, "order_created"))) : [];
      const events = ids.length
        ? await db.select({ orderId: dispatchEvents.orderId, type: dispatchEvents.type, position: dispatchEvents.position }).from(dispatchEvents).where(inArray(dispatchEvents.orderId, ids)).orderBy(dispatchEvents.position)
        : [];
      return { stored, ids, audits, events };
    };
    // The event is each piece's last statement: the database refuses the event of a row in the middle of the second piece.
    await db.execute(sql.raw(`create function refuse_fail_row() returns trigger language plpgsql as $$
      begin raise exception 'refused by the test'; end $$`));
    await db.execute(
      sql.raw(`create trigger refuse_fail_row before insert on dispatch_events for each row
        when (new.data -> 'order' ->> 'external_id' = '${refused}') execute function refuse_fail_row()`),
    );
    let firstIds: number[];
    try {
      const response = await ctx().ops("POST", `${V1}/orders/batch`, { orders: rows });
      expect(response.statusCode).toBe(500);
      // The first piece is committed whole (each order with its audit row and its event); nothing of the second or third.
      const { stored, ids, audits, events } = await writtenFor();
      expect(stored.map((row) => row.externalId).sort()).toEqual(firstPiece);
      expect(audits.map((row) => row.orderId).sort((a, b) => a! - b!)).toEqual(ids);
      expect(events.map((event) => [event.orderId, event.type])).toEqual(ids.map((id) => [id, "order.created"]));
      firstIds = ids;
    } finally {
      await db.execute(sql.raw("drop trigger refuse_fail_row on dispatch_events"));
      await db.execute(sql.raw("drop function refuse_fail_row()"));
    }
    // The same file again once the database takes it: the rows already written unchanged, the rest created, each written once.
    const response = await ctx().ops("POST", `${V1}/orders/batch`, { orders: rows });
    expect(response.statusCode).toBe(200);
    const results = response.json().results as { external_id: string; status: string; order_id: number }[];
    expect(results.filter((r) => r.status === "unchanged").map((r) => r.external_id)).toEqual(firstPiece);
    expect(results.filter((r) => r.status === "created")).toHaveLength(250 - PIECE_ROWS);
    const { ids, audits, events } = await writtenFor();
    expect(ids).toHaveLength(250);
    expect(ids.slice(0, PIECE_ROWS)).toEqual(firstIds!);
    expect(audits.map((row) => row.orderId).sort((a, b) => a! - b!)).toEqual(ids);
    // One order.created each, positioned (in commit order, the live stream's order) in the orders' order.
    expect(events.map((event) => [event.orderId, event.type])).toEqual(ids.map((id) => [id, "order.created"]));
    expect(events.every((event, i) => event.position !== null && (i === 0 || event.position > events[i - 1]!.position!))).toBe(true);
  });
});

describeOps("ops API: assignments", (ctx) => {
  it("assigns orders to a courier's day with an unconfirmed visit, moves them before pickup, refuses after, and unassigns", async () => {
    const pharmacyId = await newPharmacy(ctx(), { name: "Assign" });
    const first = (await newCourier(ctx(), "first@example.com")).courier.id;
    const second = (await newCourier(ctx(), "second@example.com")).courier.id;
    const a = (await ctx().ops("POST", `${V1}/orders`, orderBody(pharmacyId, "A-1"))).json().order.id;
    const b = (await ctx().ops("POST", `${V1}/orders`, orderBody(pharmacyId, "A-2"))).json().order.id;

    const assigned = await ctx().ops("POST", `${V1}/assignments`, { courier_id: first, service_date: TEST_DAY, order_ids: [a, b] });
    expect(assigned.statusCode).toBe(200);
    expect(assigned.json().orders.map((o: { status: { name: string }; courier_id: number }) => [o.status.name, o.courier_id])).toEqual([
      ["submitted_to_courier", first],
      ["submitted_to_courier", first],
    ]);
    expect(assigned.json().pharmacy_visits).toEqual([expect.objectContaining({ courier_id: first, pharmacy_id: pharmacyId, confirmed: null })]);

    // Moving one leaves the first courier's visit for the other; moving both takes the visit away.
    await ctx().ops("POST", `${V1}/assignments`, { courier_id: second, service_date: TEST_DAY, order_ids: [a] });
    const visitsOf = (courierId: number) =>
      ctx().database.db.select().from(pharmacyVisits).where(and(eq(pharmacyVisits.courierId, courierId), eq(pharmacyVisits.pharmacyId, pharmacyId)));
    expect(await visitsOf(first)).toHaveLength(1);
    await ctx().ops("POST", `${V1}/assignments`, { courier_id: second, service_date: TEST_DAY, order_ids: [b] });
    expect(await visitsOf(first)).toHaveLength(0);
    expect(await visitsOf(second)).toHaveLength(1);

    await ctx().database.db.update(orders).set({ statusId: 3 }).where(eq(orders.id, a));
    const late = await ctx().ops("POST", `${V1}/assignments`, { courier_id: first, service_date: TEST_DAY, order_ids: [b, a] });
    expect(late.statusCode).toBe(409);
    expect(late.json().message).toBe(`Order ${a} is picked up: only an order not yet picked up can be assigned.`);
    // Nothing was half-assigned.
    const [stillB] = await ctx().database.db.select().from(orders).where(eq(orders.id, b));
    expect(stillB!.courierId).toBe(second);

    expect((await ctx().ops("DELETE", `${V1}/assignments/${a}`)).statusCode).toBe(409);
    const unassigned = await ctx().ops("DELETE", `${V1}/assignments/${b}`);
    expect(unassigned.statusCode).toBe(200);
    expect(unassigned.json().order).toMatchObject({ status: { name: "new" }, courier_id: null });
    expect((await ctx().ops("DELETE", `${V1}/assignments/${b}`)).statusCode).toBe(409);
  });

  it("refuses unknown couriers and orders, duplicates and bad dates", async () => {
    const order = (await ctx().ops("POST", `${V1}/orders`, orderBody(1, "R-1"))).json().order.id;
    expect((await ctx().ops("POST", `${V1}/assignments`, { courier_id: 999999, service_date: TEST_DAY, order_ids: [order] })).statusCode).toBe(404);
    expect((await ctx().ops("POST", `${V1}/assignments`, { courier_id: 1, service_date: TEST_DAY, order_ids: [999999] })).statusCode).toBe(404);
    expect((await ctx().ops("POST", `${V1}/assignments`, { courier_id: 1, service_date: TEST_DAY, order_ids: [order, order] })).statusCode).toBe(400);
    expect((await ctx().ops("POST", `${V1}/assignments`, { courier_id: 1, service_date: "21/11/2026", order_ids: [order] })).statusCode).toBe(400);
    expect((await ctx().ops("POST", `${V1}/assignments`, { courier_id: "1", service_date: TEST_DAY, order_ids: [order] })).statusCode).toBe(400);
    expect((await ctx().ops("DELETE", `${V1}/assignments/999999`)).statusCode).toBe(404);
  });

  it("puts the order on the courier's itinerary with a visit to confirm", async () => {
    const pharmacyId = await newPharmacy(ctx(), { name: "Itinerary" });
    const order = (await ctx().ops("POST", `${V1}/orders`, orderBody(pharmacyId, "I-1"))).json().order.id;
    const courier = await ctx().loginCourier("courier2@example.com");
    await ctx().ops("POST", `${V1}/assignments`, { courier_id: courier.courierId, service_date: TEST_DAY, order_ids: [order] });
    const day = (await ctx().raw("GET", "/api/courier/itinerary", undefined, { cookie: courier.cookie })).json();
    expect(day.orders.map((o: { id: number }) => o.id)).toContain(order);
    expect(day.pharmacy_visits.find((v: { pharmacy: { id: number } }) => v.pharmacy.id === pharmacyId)).toMatchObject({ confirmed: null });
  });
});

describeOps("ops API: the OpenAPI document", (ctx) => {
  it("describes every ops endpoint with its request and response schemas and Bearer security", async () => {
    const doc = (await ctx().raw("GET", "/api/openapi.json")).json();
    expect(doc.components.securitySchemes.opsKey).toMatchObject({ type: "http", scheme: "bearer" });
    const ops = Object.entries(doc.paths as Record<string, Record<string, { security?: unknown; requestBody?: unknown; responses: Record<string, unknown> }>>).filter(([path]) =>
      path.startsWith("/api/ops/v1/"),
    );
    const operations = ops.flatMap(([path, methods]) => Object.entries(methods).map(([method, op]) => [`${method.toUpperCase()} ${path}`, op] as const));
    expect(operations.map(([name]) => name).sort()).toEqual([
      "DELETE /api/ops/v1/assignments/{order_id}",
      "DELETE /api/ops/v1/keys/{id}",
      "DELETE /api/ops/v1/webhooks/{id}",
      "GET /api/ops/v1/couriers",
      "GET /api/ops/v1/keys",
      "GET /api/ops/v1/orders",
      "GET /api/ops/v1/orders/{id}",
      "GET /api/ops/v1/orders/{id}/custody",
      "GET /api/ops/v1/orders/{id}/proof",
      "GET /api/ops/v1/orders/{id}/proof.pdf",
      "GET /api/ops/v1/orders/{id}/proof/photo",
      "GET /api/ops/v1/orders/{id}/proof/signature.svg",
      "GET /api/ops/v1/orders/{id}/webhook-deliveries",
      "GET /api/ops/v1/pharmacies",
      "GET /api/ops/v1/plans/{id}",
      "GET /api/ops/v1/returns",
      "GET /api/ops/v1/returns/{id}.pdf",
      "GET /api/ops/v1/returns/{id}/signature.svg",
      "GET /api/ops/v1/webhooks",
      "GET /api/ops/v1/webhooks/{id}/deliveries",
      "PATCH /api/ops/v1/couriers/{id}",
      "PATCH /api/ops/v1/orders/{id}",
      "PATCH /api/ops/v1/pharmacies/{id}",
      "POST /api/ops/v1/assignments",
      "POST /api/ops/v1/couriers",
      "POST /api/ops/v1/couriers/{id}/deactivation",
      "POST /api/ops/v1/couriers/{id}/invitation",
      "POST /api/ops/v1/keys",
      "POST /api/ops/v1/orders",
      "POST /api/ops/v1/orders/batch",
      "POST /api/ops/v1/orders/{id}/cancellation",
      "POST /api/ops/v1/pharmacies",
      "POST /api/ops/v1/plans",
      "POST /api/ops/v1/plans/{id}/application",
      "POST /api/ops/v1/webhooks",
      "POST /api/ops/v1/webhooks/{id}/deliveries/{deliveryId}/redeliver",
      // Issue 27: staff accounts (a key only), the console's session, the live stream.
      "GET /api/ops/v1/staff",
      "POST /api/ops/v1/staff",
      "POST /api/ops/v1/staff/{id}/invitation",
      "POST /api/ops/v1/staff/{id}/deactivation",
      "POST /api/ops/v1/sessions",
      "GET /api/ops/v1/sessions/current",
      "DELETE /api/ops/v1/sessions/current",
      "GET /api/ops/v1/events",
    ].sort());
    const keyOnly = (name: string) => / \/api\/ops\/v1\/(keys|staff)/.test(name);
    for (const [name, op] of operations) {
      if (name === "POST /api/ops/v1/sessions") {
        expect(op.security, name).toEqual([]);
        continue;
      }
      const expected = name.includes("/sessions/current") ? [{ staffSession: [], csrf: [] }] : keyOnly(name) ? [{ opsKey: [] }] : [{ opsKey: [] }, { staffSession: [], csrf: [] }];
      expect(op.security, name).toEqual(expected);
      expect(Object.keys(op.responses), name).toEqual(expect.arrayContaining(["400", "401", "404", "413", "429"]));
      if (name.startsWith("POST /api/ops/v1/orders ") || name === "POST /api/ops/v1/pharmacies") expect(op.requestBody, name).toBeDefined();
    }
    expect(doc.paths["/api/courier/password"].post.requestBody).toBeDefined();
  });
});
