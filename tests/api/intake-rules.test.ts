import { eq } from "drizzle-orm";
import type { LightMyRequestResponse } from "fastify";
import { expect, it } from "vitest";
import { buildApp } from "../../server/app.ts";
import { loadConfig } from "../../server/config.ts";
import { auditEvents, orders, webhookMessages, webhookSubscriptions } from "../../server/db/schema.ts";
import { TEST_DAY } from "../support/api-harness.ts";
import { describeOps, orderBody, pharmacyBody, TEST_OPS_KEY, type OpsContext } from "../support/ops-harness.ts";

/**
 * Issue 24 §3 §5 §9 and issue 25 (intake): one date rule, one money rule and
 * one id parse where values enter the operations and courier APIs; every
 * refusal a 400 in words, never a 500 (PostgreSQL 22008 for year 0000).
 */

const V1 = "/api/ops/v1";
const YESTERDAY = "2026-11-20";
const TOMORROW = "2026-11-22";

async function newPharmacy(ctx: OpsContext): Promise<number> {
  const response = await ctx.ops("POST", `${V1}/pharmacies`, pharmacyBody());
  if (response.statusCode !== 201) throw new Error(response.body);
  return response.json().pharmacy.id;
}

async function newOrder(ctx: OpsContext, pharmacyId: number, externalId: string, overrides: Record<string, unknown> = {}): Promise<number> {
  const response = await ctx.ops("POST", `${V1}/orders`, orderBody(pharmacyId, externalId, overrides));
  if (response.statusCode !== 201) throw new Error(response.body);
  return response.json().order.id;
}

async function newCourierId(ctx: OpsContext, email: string): Promise<number> {
  const response = await ctx.ops("POST", `${V1}/couriers`, { first_name: "Jo", last_name: "Rider", email });
  if (response.statusCode !== 201) throw new Error(response.body);
  return response.json().courier.id;
}

/** A 400 whose message says, in words, what is wrong with the field. */
function expectRefused(response: LightMyRequestResponse, field: string, words: RegExp): void {
  expect(response.statusCode, response.body).toBe(400);
  const body = response.json() as { error: string; message: string; details?: { path: string; message: string }[] };
  expect(body.error).toBe("invalid_request");
  expect(body.message).toContain(field);
  expect(body.message).toMatch(words);
}

describeOps("intake: the date rule", (ctx) => {
  it("answers year 0000 with a 400 in words on create, batch, patch, assignments and both service_date filters (never a 500)", async () => {
    const pharmacyId = await newPharmacy(ctx());
    const storable = /from 1900-01-01 to 2100-12-31/;
    for (const field of ["patient_date_of_birth", "service_date"]) {
      expectRefused(await ctx().ops("POST", `${V1}/orders`, orderBody(pharmacyId, `Y0-${field}`, { [field]: "0000-01-01" })), field, storable);
    }
    const id = await newOrder(ctx(), pharmacyId, "Y0-patch");
    for (const field of ["patient_date_of_birth", "service_date"]) {
      expectRefused(await ctx().ops("PATCH", `${V1}/orders/${id}`, { [field]: "0000-01-01" }), field, storable);
    }
    const courierId = await newCourierId(ctx(), "year0@example.com");
    expectRefused(await ctx().ops("POST", `${V1}/assignments`, { courier_id: courierId, service_date: "0000-01-01", order_ids: [id] }), "service_date", storable);
    expectRefused(await ctx().ops("GET", `${V1}/orders?service_date=0000-01-01`), "service_date", storable);
    expectRefused(await ctx().ops("GET", `${V1}/returns?pharmacy_id=${pharmacyId}&service_date=0000-01-01`), "service_date", storable);
    // The filters take any storable day, past or future.
    expect((await ctx().ops("GET", `${V1}/orders?service_date=1900-01-01`)).statusCode).toBe(200);
    expect((await ctx().ops("GET", `${V1}/returns?pharmacy_id=${pharmacyId}&service_date=2100-12-31`)).statusCode).toBe(200);
    expectRefused(await ctx().ops("GET", `${V1}/orders?service_date=2101-01-01`), "service_date", storable);

    const batch = await ctx().ops("POST", `${V1}/orders/batch`, {
      orders: [
        orderBody(pharmacyId, "Y0-B1"),
        orderBody(pharmacyId, "Y0-B2", { patient_date_of_birth: "0000-01-01" }),
        orderBody(pharmacyId, "Y0-B3", { service_date: "0000-01-01" }),
        orderBody(pharmacyId, "Y0-B4", { patient_date_of_birth: "1899-12-31" }),
        orderBody(pharmacyId, "Y0-B5"),
      ],
    });
    expect(batch.statusCode, batch.body).toBe(200);
    const results = batch.json().results as { external_id: string; status: string; errors?: { path: string; message: string }[] }[];
    expect(results.map((r) => [r.external_id, r.status])).toEqual([
      ["Y0-B1", "created"],
      ["Y0-B2", "rejected"],
      ["Y0-B3", "rejected"],
      ["Y0-B4", "rejected"],
      ["Y0-B5", "created"],
    ]);
    expect(results[1]!.errors).toEqual([{ path: "patient_date_of_birth", message: expect.stringMatching(storable) }]);
    expect(results[2]!.errors).toEqual([{ path: "service_date", message: expect.stringMatching(storable) }]);
    const stored = await ctx().database.db.select({ externalId: orders.externalId }).from(orders).where(eq(orders.pharmacyId, pharmacyId));
    expect(stored.map((row) => row.externalId).sort()).toEqual(["Y0-B1", "Y0-B5", "Y0-patch"]);
  });

  it("refuses a birth date after today and a service date in the past or more than 365 days ahead, in words", async () => {
    const pharmacyId = await newPharmacy(ctx());
    expectRefused(await ctx().ops("POST", `${V1}/orders`, orderBody(pharmacyId, "D-1", { patient_date_of_birth: TOMORROW })), "patient_date_of_birth", /after today \(2026-11-21\)/);
    expectRefused(await ctx().ops("POST", `${V1}/orders`, orderBody(pharmacyId, "D-2", { service_date: YESTERDAY })), "service_date", /in the past/);
    expectRefused(await ctx().ops("POST", `${V1}/orders`, orderBody(pharmacyId, "D-3", { service_date: "2027-11-22" })), "service_date", /365 days ahead \(2027-11-21/);
    expect((await ctx().ops("POST", `${V1}/orders`, orderBody(pharmacyId, "D-4", { service_date: "2027-11-21", patient_date_of_birth: TEST_DAY }))).statusCode).toBe(201);

    const id = await newOrder(ctx(), pharmacyId, "D-5");
    expectRefused(await ctx().ops("PATCH", `${V1}/orders/${id}`, { service_date: YESTERDAY }), "service_date", /in the past/);
    expectRefused(await ctx().ops("PATCH", `${V1}/orders/${id}`, { patient_date_of_birth: TOMORROW }), "patient_date_of_birth", /after today/);
    // A patch that sends no date is not held to the rule for the stored one.
    expect((await ctx().ops("PATCH", `${V1}/orders/${id}`, { copay: "13.00" })).statusCode).toBe(200);

    const courierId = await newCourierId(ctx(), "past@example.com");
    expectRefused(await ctx().ops("POST", `${V1}/assignments`, { courier_id: courierId, service_date: YESTERDAY, order_ids: [id] }), "service_date", /in the past/);
    const [row] = await ctx().database.db.select().from(orders).where(eq(orders.id, id));
    expect(row).toMatchObject({ serviceDate: TEST_DAY, courierId: null });

    const batch = await ctx().ops("POST", `${V1}/orders/batch`, {
      orders: [orderBody(pharmacyId, "D-B1", { service_date: YESTERDAY }), orderBody(pharmacyId, "D-B2")],
    });
    expect(batch.json().results).toEqual([
      { external_id: "D-B1", status: "rejected", errors: [{ path: "service_date", message: expect.stringMatching(/in the past/) }] },
      { external_id: "D-B2", status: "created", order_id: expect.any(Number) },
    ]);
  });

  it("answers an exact replay of a stored order 200 / unchanged after its day has gone by; a new or changed order for that day is 400", async () => {
    const pharmacyId = await newPharmacy(ctx());
    const body = orderBody(pharmacyId, "R-1");
    const other = orderBody(pharmacyId, "R-2", { copay: "0.00" });
    const created = await ctx().ops("POST", `${V1}/orders`, body);
    expect(created.statusCode).toBe(201);
    const batched = await ctx().ops("POST", `${V1}/orders/batch`, { orders: [other] });
    expect(batched.json().results[0].status).toBe("created");
    const courierId = await newCourierId(ctx(), "replay@example.com");
    const assignment = { courier_id: courierId, service_date: TEST_DAY, order_ids: [created.json().order.id] };
    expect((await ctx().ops("POST", `${V1}/assignments`, assignment)).statusCode).toBe(200);

    // The same database after midnight: the nightly file is sent again.
    const config = { ...loadConfig({ OPS_API_KEY: TEST_OPS_KEY }), webRoot: "/nonexistent" };
    const tomorrow = await buildApp({ config, database: ctx().database, today: () => TOMORROW, logger: false });
    try {
      const send = (method: "POST", url: string, payload: unknown) =>
        tomorrow.inject({ method, url, headers: { authorization: `Bearer ${TEST_OPS_KEY}`, "content-type": "application/json" }, payload: JSON.stringify(payload) });
      const replay = await send("POST", `${V1}/orders`, body);
      expect(replay.statusCode, replay.body).toBe(200);
      expect(replay.json().order.id).toBe(created.json().order.id);
      const batch = await send("POST", `${V1}/orders/batch`, {
        orders: [body, other, { ...other, copay: "2.00" }, orderBody(pharmacyId, "R-3"), orderBody(pharmacyId, "R-4", { service_date: TOMORROW })],
      });
      expect(batch.statusCode, batch.body).toBe(200);
      expect(batch.json().results.map((r: { external_id: string; status: string }) => [r.external_id, r.status])).toEqual([
        ["R-1", "unchanged"],
        ["R-2", "unchanged"],
        ["R-2", "rejected"],
        ["R-3", "rejected"],
        ["R-4", "created"],
      ]);
      expect(batch.json().results[2].errors).toEqual([{ path: "service_date", message: expect.stringMatching(/in the past/) }]);
      expectRefused(await send("POST", `${V1}/orders`, { ...body, copay: "3.00" }), "service_date", /in the past/);
      // The same assignment sent again after midnight changes nothing and is no refusal; one that would change something is.
      const resent = await send("POST", `${V1}/assignments`, assignment);
      expect(resent.statusCode, resent.body).toBe(200);
      expect(resent.json().unchanged).toEqual(assignment.order_ids);
      expectRefused(
        await send("POST", `${V1}/assignments`, { ...assignment, order_ids: [batched.json().results[0].order_id] }),
        "service_date",
        /in the past/,
      );
    } finally {
      await tomorrow.close();
    }
    const stored = await ctx().database.db.select({ externalId: orders.externalId }).from(orders).where(eq(orders.pharmacyId, pharmacyId));
    expect(stored.map((row) => row.externalId).sort()).toEqual(["R-1", "R-2", "R-4"]);
  });
});

describeOps("intake: orders/batch written in multi-row statements", (ctx) => {
  it("makes each external_id once when two batches race on the same ids in opposite orders, with one audit row and one event each", async () => {
    const pharmacyId = await newPharmacy(ctx());
    // A pharmacy's own subscription, written as the API would (its address never answers: only the outbox is read here).
    const [subscription] = await ctx()
      .database.db.insert(webhookSubscriptions)
      .values({ url: "http://127.0.0.1:9/never", events: ["order.created"], secret: "whsec_dGVzdA==", pharmacyId })
      .returning();
    const bodies = Array.from({ length: 300 }, (_, i) => orderBody(pharmacyId, `RACE-${i}`, { rx_numbers: [`RX-${i}`, "RX-B"], delivery_instruction: `Door ${i}` }));
    const [first, second] = await Promise.all([
      ctx().ops("POST", `${V1}/orders/batch`, { orders: bodies }),
      ctx().ops("POST", `${V1}/orders/batch`, { orders: [...bodies].reverse() }),
    ]);
    expect([first!.statusCode, second!.statusCode]).toEqual([200, 200]);
    const byId = new Map<string, string[]>();
    for (const result of [...first!.json().results, ...second!.json().results] as { external_id: string; status: string; order_id: number }[]) {
      byId.set(result.external_id, [...(byId.get(result.external_id) ?? []), `${result.status}:${result.order_id}`]);
    }
    for (const [, statuses] of byId) {
      expect(statuses.map((s) => s.split(":")[0]).sort()).toEqual(["created", "unchanged"]);
      expect(new Set(statuses.map((s) => s.split(":")[1])).size).toBe(1);
    }
    const stored = await ctx().database.db.select().from(orders).where(eq(orders.pharmacyId, pharmacyId));
    expect(stored).toHaveLength(300);
    const sample = stored.find((row) => row.externalId === "RACE-7")!;
    expect(sample).toMatchObject({ rxNumbers: ["RX-7", "RX-B"], serviceDate: TEST_DAY, copayCents: 1250, otherItemsAmountDueCents: 0, courierId: null });
    expect(sample.deliveryNotes).toEqual([{ courier_note: false, delivery_instruction: "Door 7", superuser_note: false }]);
    const audits = await ctx().database.db.select().from(auditEvents).where(eq(auditEvents.action, "order_created"));
    expect(audits.filter((entry) => stored.some((row) => row.id === entry.orderId))).toHaveLength(300);
    const messages = await ctx().database.db.select().from(webhookMessages).where(eq(webhookMessages.subscriptionId, subscription!.id));
    expect(messages).toHaveLength(300);
    const events = messages.map((message) => JSON.parse(message.body) as { type: string; data: { order: { id: number; external_id: string; status: string; service_date: string } } });
    expect(new Set(events.map((event) => event.data.order.id))).toEqual(new Set(stored.map((row) => row.id)));
    expect(events.find((event) => event.data.order.external_id === "RACE-7")!).toMatchObject({
      type: "order.created",
      data: { order: { id: sample.id, status: "new", service_date: TEST_DAY } },
    });
    // The same order through the single create reads the same as through the batch.
    const single = (await ctx().ops("POST", `${V1}/orders`, orderBody(pharmacyId, "RACE-single", { rx_numbers: ["RX-7", "RX-B"], delivery_instruction: "Door 7" }))).json().order;
    const batched = (await ctx().ops("GET", `${V1}/orders/${sample.id}`)).json().order;
    const comparable = (order: Record<string, unknown>) => {
      const { id: _id, external_id: _external, created_at: _created, updated_at: _updated, status_history: _history, ...rest } = order;
      return rest;
    };
    expect(comparable(batched)).toEqual(comparable(single));
  });
});

describeOps("intake: the money rule", (ctx) => {
  it("refuses an order whose total due passes 99,999.99 at creation (single and batch) and on patch, in words", async () => {
    const pharmacyId = await newPharmacy(ctx());
    const most = { copay: "99999.99", delivery_fee: "99999.99", other_items_amount_due: "99999.99" };
    const refused = await ctx().ops("POST", `${V1}/orders`, orderBody(pharmacyId, "M-1", most));
    expect(refused.statusCode, refused.body).toBe(400);
    expect(refused.json().message).toMatch(/total due .* is 299999\.97, more than 99999\.99, the largest amount one payment or one return line can carry/);

    const batch = await ctx().ops("POST", `${V1}/orders/batch`, {
      orders: [orderBody(pharmacyId, "M-B1", most), orderBody(pharmacyId, "M-B2", { copay: "99999.99" })],
    });
    expect(batch.json().results).toEqual([
      { external_id: "M-B1", status: "rejected", errors: [{ path: "(row)", message: expect.stringContaining("299999.97") }] },
      { external_id: "M-B2", status: "created", order_id: expect.any(Number) },
    ]);

    const id = batch.json().results[1].order_id as number;
    const patched = await ctx().ops("PATCH", `${V1}/orders/${id}`, { delivery_fee: "0.01" });
    expect(patched.statusCode, patched.body).toBe(400);
    expect(patched.json().message).toContain("is 100000.00, more than 99999.99");
    expect((await ctx().ops("PATCH", `${V1}/orders/${id}`, most)).statusCode).toBe(400);
    // Moving the amount between lines within the ceiling is fine.
    expect((await ctx().ops("PATCH", `${V1}/orders/${id}`, { copay: "50000.00", delivery_fee: "49999.99" })).statusCode).toBe(200);
    const [row] = await ctx().database.db.select().from(orders).where(eq(orders.id, id));
    expect([row!.copayCents, row!.deliveryFeeCents, row!.otherItemsAmountDueCents]).toEqual([5_000_000, 4_999_999, 0]);
    const updates = await ctx().database.db.select().from(auditEvents).where(eq(auditEvents.orderId, id));
    expect(updates.filter((entry) => entry.action === "order_updated")).toHaveLength(1);
  });
});

describeOps("intake: path ids", (ctx) => {
  it("answers an id that is not decimal digits within the integer range with one clear 400; a well-formed unknown id stays 404", async () => {
    const pharmacyId = await newPharmacy(ctx());
    const id = await newOrder(ctx(), pharmacyId, "P-1");
    expect((await ctx().ops("GET", `${V1}/orders/${id}`)).statusCode).toBe(200);
    const { cookie, csrf } = await ctx().loginCourier("courier@example.com");
    const courier = (url: string) => ctx().raw("PUT", url, {}, { cookie, "x-csrf-token": csrf });
    const refused = (response: LightMyRequestResponse, what: string) => {
      expect(response.statusCode, `${what}: ${response.body}`).toBe(400);
      expect(response.json().message).toMatch(/must be a record id: decimal digits only, from 1 to (2147483647|9007199254740991)/);
    };
    for (const bad of ["0x10", "1e3", "%201", "99999999999", "2147483648", "+1", "1.0", "0", "-1"]) {
      refused(await ctx().ops("GET", `${V1}/orders/${bad}`), `GET orders/${bad}`);
      refused(await ctx().ops("DELETE", `${V1}/keys/${bad}`), `DELETE keys/${bad}`);
      refused(await ctx().ops("GET", `${V1}/orders?pharmacy_id=${bad}`), `GET orders?pharmacy_id=${bad}`);
      refused(await ctx().ops("POST", `${V1}/webhooks/${bad}/deliveries/1/redeliver`, {}), `redeliver webhooks/${bad}`);
      refused(await courier(`/api/courier/orders/${bad}`), `courier PUT courier/orders/${bad}`);
      refused(await courier(`/api/orders/${bad}`), `courier PUT orders/${bad}`);
    }
    // Webhook deliveries are a bigint table: their ids go to 2^53 - 1, in digits only too.
    for (const bad of ["0x10", "1e3", "%201", "+1", "99999999999999999"]) {
      refused(await ctx().ops("POST", `${V1}/webhooks/1/deliveries/${bad}/redeliver`, {}), `redeliver deliveries/${bad}`);
    }
    expect((await ctx().ops("GET", `${V1}/orders/2147483647`)).statusCode).toBe(404);
    expect((await ctx().ops("DELETE", `${V1}/keys/2147483647`)).statusCode).toBe(404);
    expect((await courier(`/api/orders/2147483647`)).body).not.toMatch(/record id/);
  });
});
