import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { randomUUID } from "node:crypto";
import { and, eq, gt, inArray, sql } from "drizzle-orm";
import { expect, it } from "vitest";
import { ItineraryResponse } from "../../domain/contract/itinerary.ts";
import { auditEvents } from "../../server/db/schema.ts";
import { viewedOrderIds } from "../../server/http/patient-view-audit.ts";
import { describeApi } from "../support/api-harness.ts";
import { courierIdOf, freshOrder, makeSession, pharmacyIdOf, send, type TestSession } from "../support/security-fixtures.ts";
import { OCCURRED } from "../support/instants.ts";

/**
 * docs/security.md "Audit": an append-only trail of every order status
 * change and every view of an order's patient details, with the courier,
 * the time, and the device's client_occurred_at where it sent one.
 */


describeApi("audit trail", (api) => {
  const db = () => api().database.db;
  let lastId = 0;

  async function session(email = "courier@example.com"): Promise<TestSession> {
    return makeSession(db(), await courierIdOf(db(), email));
  }
  /** Audit rows written since the previous call. */
  async function newRows() {
    const rows = await db().select().from(auditEvents).where(gt(auditEvents.id, lastId)).orderBy(auditEvents.id);
    if (rows.length) lastId = rows[rows.length - 1]!.id;
    return rows;
  }

  it("writes one view_patient_details row per order the itinerary shows, for the courier, in one insert", async () => {
    const dana = await session();
    await newRows();
    const response = await send(api().app, { method: "GET", url: "/api/courier/itinerary" }, dana);
    expect(response.statusCode).toBe(200);
    const shown = ItineraryResponse.parse(response.json()).orders.map((order) => order.id);
    expect(shown.length).toBeGreaterThan(10);

    const rows = await newRows();
    expect(rows.map((row) => row.orderId).sort((a, b) => a! - b!)).toEqual([...shown].sort((a, b) => a - b));
    for (const row of rows) expect(row).toMatchObject({ action: "view_patient_details", courierId: dana.courierId, fromStatus: null, toStatus: null });
    // One statement: the database's now() is the same for every row it wrote.
    expect(new Set(rows.map((row) => row.occurredAt.toISOString())).size).toBe(1);
    expect(Math.abs(rows[0]!.occurredAt.getTime() - Date.now())).toBeLessThan(60_000);
  });

  it("records views through every other read that carries patient details: routed orders and add-ons on offer", async () => {
    const dana = await session();
    const greenway = await pharmacyIdOf(db(), "Greenway Health Pharmacy");
    const a = await freshOrder(db(), { courierId: dana.courierId, pharmacyId: greenway, status: "picked_up" });
    const b = await freshOrder(db(), { courierId: dana.courierId, pharmacyId: greenway, status: "picked_up" });
    await newRows();
    const routed = await send(api().app, { method: "GET", url: `/api/routed_orders?pharmacy_id=${greenway}&order_ids[]=${a}&order_ids[]=${b}` }, dana);
    expect(routed.statusCode).toBe(200);
    expect((await newRows()).map((row) => [row.action, row.orderId]).sort()).toEqual([["view_patient_details", a], ["view_patient_details", b]].sort());

    const northside = await pharmacyIdOf(db(), "Northside Family Drugs");
    const offered = await send(api().app, { method: "GET", url: `/api/courier/pharmacies/${northside}/addons` }, dana);
    expect(offered.statusCode).toBe(200);
    const offeredIds = (offered.json() as { orders: { id: number }[] }).orders.map((order) => order.id);
    expect(offeredIds.length).toBeGreaterThan(0);
    expect((await newRows()).map((row) => row.orderId).sort()).toEqual([...offeredIds].sort());
  });

  it("records a status change with the courier, from and to, and the device's client_occurred_at; and the view of the order it returns", async () => {
    const dana = await session();
    const id = await freshOrder(db(), { courierId: dana.courierId, pharmacyId: await pharmacyIdOf(db(), "Riverside Community Pharmacy"), status: "submitted_to_courier" });
    await newRows();
    const response = await send(api().app, { method: "POST", url: `/api/orders/${id}/pickups`, json: { client_occurred_at: OCCURRED } }, dana);
    expect(response.statusCode).toBe(200);
    const rows = await newRows();
    expect(rows.map((row) => row.action).sort()).toEqual(["status_change", "view_patient_details"]);
    const change = rows.find((row) => row.action === "status_change")!;
    expect(change).toMatchObject({ courierId: dana.courierId, orderId: id, fromStatus: "submitted_to_courier", toStatus: "picked_up" });
    expect(change.clientOccurredAt!.toISOString()).toBe(OCCURRED);
  });

  it("writes nothing for a refusal, a response without patient details, an anonymous request, or a replayed response", async () => {
    const dana = await session();
    const marcus = await session("courier2@example.com");
    const id = await freshOrder(db(), { courierId: dana.courierId, pharmacyId: await pharmacyIdOf(db(), "Riverside Community Pharmacy"), status: "submitted_to_courier" });
    await newRows();

    expect((await send(api().app, { method: "PUT", url: `/api/orders/${id}`, json: { order: { copay: "3.00" } } }, marcus)).statusCode).toBe(404);
    expect((await send(api().app, { method: "GET", url: "/api/courier/payments/client_token" }, dana)).statusCode).toBe(200);
    expect((await send(api().app, { method: "GET", url: "/api/courier/itinerary" })).statusCode).toBe(401);
    expect(await newRows()).toEqual([]);

    const key = randomUUID();
    const first = await send(api().app, { method: "PUT", url: `/api/orders/${id}`, json: { order: { copay: "3.00" } }, headers: { "idempotency-key": key } }, dana);
    expect(first.statusCode).toBe(200);
    // The assertion itself joins the chain of custody; the answer's patient details are a view.
    expect((await newRows()).map((row) => row.action)).toEqual(["copay_asserted", "view_patient_details"]);
    const replay = await send(api().app, { method: "PUT", url: `/api/orders/${id}`, json: { order: { copay: "3.00" } }, headers: { "idempotency-key": key } }, dana);
    expect(replay.headers["idempotent-replayed"]).toBe("true");
    expect(await newRows()).toEqual([]);
  });

  it("sends no patient details it could not record: with the trail unwritable the read fails", async () => {
    const dana = await session();
    await db().execute(sql`alter table audit_events rename to audit_events_offline`);
    try {
      const response = await send(api().app, { method: "GET", url: "/api/courier/itinerary" }, dana);
      expect(response.statusCode).toBe(500);
      expect(response.body).not.toContain("patient_first_name");
      expect(response.json()).toEqual({ error: "internal", message: "Something went wrong. Please try again." });
    } finally {
      await db().execute(sql`alter table audit_events_offline rename to audit_events`);
    }
    expect((await send(api().app, { method: "GET", url: "/api/courier/itinerary" }, dana)).statusCode).toBe(200);
  });

  it("is append-only: no server code updates or deletes audit rows", () => {
    const files: string[] = [];
    const walk = (dir: string) => {
      for (const name of readdirSync(dir)) {
        const file = path.join(dir, name);
        if (statSync(file).isDirectory()) walk(file);
        else if (file.endsWith(".ts")) files.push(file);
      }
    };
    walk(path.resolve("server"));
    expect(files.length).toBeGreaterThan(20);
    const offenders = files.filter((file) => {
      const source = readFileSync(file, "utf8");
      // seed/seed.ts empties every table for a fresh demo day (truncate), which is not the application touching rows.
      return /\.(update|delete)\(\s*auditEvents\b|(update|delete\s+from)\s+audit_events\b/i.test(source);
    });
    expect(offenders).toEqual([]);
  });

  it("is append-only in the database too: an UPDATE, DELETE or TRUNCATE of audit rows fails and changes nothing", async () => {
    await api().login();
    const rowsBefore = await db().select().from(auditEvents).orderBy(auditEvents.id);
    expect(rowsBefore.length).toBeGreaterThan(0);
    const first = rowsBefore[0]!;
    const attempts = [
      () => db().update(auditEvents).set({ action: "tampered" }).where(eq(auditEvents.id, first.id)),
      () => db().delete(auditEvents).where(eq(auditEvents.id, first.id)),
      () => db().execute(sql`delete from audit_events`),
      () => db().execute(sql`truncate table audit_events`),
    ];
    for (const attempt of attempts) {
      // Drizzle wraps the database's error ("Failed query: …"); the trigger's words are its cause.
      const failure = await attempt().then(
        () => null,
        (error: unknown) => error as Error & { cause?: Error },
      );
      expect(failure?.cause?.message ?? failure?.message).toMatch(/audit_events is append-only/);
    }
    expect(await db().select().from(auditEvents).orderBy(auditEvents.id)).toEqual(rowsBefore);
    // Appending still works.
    await db().insert(auditEvents).values({ action: "test_append", courierId: first.courierId });
    expect((await db().select().from(auditEvents)).length).toBe(rowsBefore.length + 1);
  });

  it("finds the orders in any response shape, once each", () => {
    const order = (id: number) => ({ id, patient_first_name: "X", pharmacy: { id: 99, name: "P" } });
    expect(viewedOrderIds({ orders: [order(1), order(2)] })).toEqual([1, 2]);
    expect(viewedOrderIds(order(7))).toEqual([7]);
    expect(viewedOrderIds({ order: order(3), extra: { orders: [order(3), order(4)] } })).toEqual([3, 4]);
    expect(viewedOrderIds({ delivery: { id: 5, order_ids: [1, 2] } })).toEqual([]);
    expect(viewedOrderIds(null)).toEqual([]);
  });

  it("keeps who and when for every row the suite wrote", async () => {
    const rows = await db()
      .select()
      .from(auditEvents)
      // "Who" is a courier or an operations API key (issue 15: the demo day is loaded with its own key).
      .where(
        and(
          inArray(auditEvents.action, ["status_change", "view_patient_details"]),
          eq(sql`${auditEvents.courierId} is null and ${auditEvents.apiKeyId} is null`, true),
        ),
      );
    expect(rows).toEqual([]);
  });
});
