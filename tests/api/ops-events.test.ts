import { randomBytes } from "node:crypto";
import { connect, type AddressInfo } from "node:net";
import { count } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { openDatabase, type Database } from "../../server/db/client.ts";
import { loadConfig } from "../../server/config.ts";
import { webhookSubscriptions } from "../../server/db/schema.ts";
import { TEST_DAY } from "../support/api-harness.ts";
import { completion, courierActions, SIGNATURE_SVG } from "../support/courier-actions.ts";
import { databaseTargets } from "../support/databases.ts";
import { openEventStream, type EventStreamClient } from "../support/event-stream.ts";
import { orderBody, pharmacyBody, startOps, TEST_OPS_KEY, type OpsContext } from "../support/ops-harness.ts";
import { cloneDatabase, databaseUrl, dropDatabase } from "../support/postgres-admin.ts";
import { newStaffSession, staffLogin } from "../support/staff-harness.ts";

/**
 * Issue 27: GET /api/ops/v1/events. Two API instances on one database (two
 * pools and two listeners on PostgreSQL; one embedded database on PGlite):
 * changes are made through `writer`, streams are read from `reader`.
 */

let serial = 0;
const unique = () => `ev-${Date.now().toString(36)}-${++serial}`;

async function twoDatabases(target: ReturnType<typeof databaseTargets>[number]): Promise<{ a: Database; b: Database; close(): Promise<void> }> {
  if (target.name === "pglite") {
    const database = await target.openDemoDay();
    return { a: database, b: database, close: () => database.close() };
  }
  const adminUrl = process.env.TEST_DATABASE_URL!;
  const { runId, postgresTemplate } = inject("databaseTemplates")!;
  const name = `rxc_test_${runId}_${randomBytes(4).toString("hex")}`;
  await cloneDatabase(adminUrl, postgresTemplate!, name);
  const a = await openDatabase({ databaseUrl: databaseUrl(adminUrl, name), poolSize: 5 });
  const b = await openDatabase({ databaseUrl: databaseUrl(adminUrl, name), poolSize: 5 });
  return {
    a,
    b,
    async close() {
      await a.close();
      await b.close();
      await dropDatabase(adminUrl, name);
    },
  };
}

async function listening(ctx: OpsContext): Promise<string> {
  await ctx.app.listen({ port: 0, host: "127.0.0.1" });
  return `http://127.0.0.1:${(ctx.app.server.address() as AddressInfo).port}`;
}

for (const target of databaseTargets()) {
  describe(`live events [${target.name}]`, () => {
    let databases: Awaited<ReturnType<typeof twoDatabases>>;
    let writer: OpsContext;
    let reader: OpsContext;
    let capped: OpsContext;
    let readerUrl: string;
    let cappedUrl: string;
    const streams: EventStreamClient[] = [];
    const open = async (headers: Record<string, string>, path?: string, base = readerUrl) => {
      const stream = await openEventStream(base, headers, path);
      streams.push(stream);
      return stream;
    };
    const dispatchKey = { authorization: `Bearer ${TEST_OPS_KEY}` };

    beforeAll(async () => {
      databases = await twoDatabases(target);
      // Keep-alives far apart: a stream that ends within seconds was ended by what the test did, not by a keep-alive.
      writer = await startOps(databases.a, {}, { eventKeepaliveMs: 60_000 });
      reader = await startOps(databases.b, {}, { eventKeepaliveMs: 60_000 });
      capped = await startOps(databases.b, { MAX_EVENT_STREAMS: "2", MAX_CONCURRENT_REQUESTS: "1" });
      readerUrl = await listening(reader);
      cappedUrl = await listening(capped);
    });
    afterAll(async () => {
      for (const stream of streams) stream.close();
      for (const ctx of [capped, writer, reader]) await ctx?.app.close();
      await databases?.close();
    });

    async function ok(response: Promise<{ statusCode: number; body: string; json(): unknown }>, status = 200) {
      const answer = await response;
      expect(answer.statusCode, answer.body).toBe(status);
      return answer.json() as unknown;
    }
    const newPharmacy = async () => ((await ok(writer.ops("POST", "/api/ops/v1/pharmacies", pharmacyBody({ name: unique() })), 201)) as { pharmacy: { id: number } }).pharmacy.id;
    const newOrder = async (pharmacyId: number) =>
      ((await ok(writer.ops("POST", "/api/ops/v1/orders", orderBody(pharmacyId, unique())), 201)) as { order: { id: number } }).order.id;
    const is = (type: string, orderId: number) => (event: { type: string; data: { order?: { id: number } } }) => event.type === type && event.data.order?.id === orderId;

    it("carries every change made through another API process, each in its own event, with no webhook subscription", async () => {
      const [subscriptions] = await databases.a.db.select({ n: count() }).from(webhookSubscriptions);
      expect(subscriptions!.n).toBe(0);
      const stream = await open(dispatchKey);
      expect(stream.status).toBe(200);
      expect(stream.contentType).toMatch(/^text\/event-stream/);
      const pharmacy = await newPharmacy();
      const order = await newOrder(pharmacy);
      await stream.waitFor(is("order.created", order), "order.created");
      const courier = await writer.loginCourier("courier@example.com");
      await ok(writer.ops("POST", "/api/ops/v1/assignments", { courier_id: courier.courierId, service_date: TEST_DAY, order_ids: [order] }));
      await stream.waitFor(is("order.assigned", order), "order.assigned");
      await ok(writer.ops("PATCH", `/api/ops/v1/orders/${order}`, { copay: "3.00" }));
      await stream.waitFor(is("order.updated", order), "order.updated");
      await ok(writer.ops("DELETE", `/api/ops/v1/assignments/${order}`));
      const unassigned = await stream.waitFor(is("order.unassigned", order), "order.unassigned");
      expect(unassigned.data).toMatchObject({ order: { id: order, courier_id: null, status: "new" }, from_courier_id: courier.courierId });
      await ok(writer.ops("POST", `/api/ops/v1/orders/${order}/cancellation`, {}));
      await stream.waitFor(is("order.cancelled", order), "order.cancelled");
      // A batch (a nightly file, the console's import) announces every order it creates, no subscription needed.
      const batch = (await ok(writer.ops("POST", "/api/ops/v1/orders/batch", { orders: [orderBody(pharmacy, unique()), orderBody(pharmacy, unique())] }))) as {
        results: { status: string; order_id?: number }[];
      };
      expect(batch.results.map((result) => result.status)).toEqual(["created", "created"]);
      for (const result of batch.results) await stream.waitFor(is("order.created", result.order_id!), "a batch's order.created");
      // Positions increase, and no patient details travel in an event.
      const ids = stream.events.map((event) => event.id);
      expect(ids).toEqual([...ids].sort((x, y) => x - y));
      expect(JSON.stringify(stream.events)).not.toMatch(/Lovelace|Elfreth|patient/);
    });

    it("carries the courier's day: pickup, delivery, failure, return and a declined card", async () => {
      const stream = await open(dispatchKey);
      const pharmacy = await newPharmacy();
      const [delivered, failed, declined] = [await newOrder(pharmacy), await newOrder(pharmacy), await newOrder(pharmacy)];
      const session = await writer.loginCourier("courier2@example.com");
      await ok(writer.ops("POST", "/api/ops/v1/assignments", { courier_id: session.courierId, service_date: TEST_DAY, order_ids: [delivered, failed, declined] }));
      const act = courierActions(writer.app, session);
      for (const id of [delivered, failed]) await act.pickUp(id);
      await stream.waitFor(is("order.picked_up", failed), "order.picked_up");
      await act.deliver(completion([delivered]));
      await stream.waitFor(is("order.delivered", delivered), "order.delivered");
      await act.fail([failed], "Patient Not Home", null);
      await stream.waitFor(is("order.delivery_attempted", failed), "order.delivery_attempted");
      await act.returnTo(pharmacy, {
        recipient_first_name: "Staff",
        recipient_last_name: "Member",
        signature_svg: SIGNATURE_SVG,
        courier_id: session.courierId,
        pharmacy_id: pharmacy,
        cash_collected: "0.00",
        check_collected: "0.00",
        latitude: null,
        longitude: null,
        returns: [{ type: "item", amount: "12.50", order_id: failed }],
      });
      await stream.waitFor(is("order.returned", failed), "order.returned");
      await act.pickUp(declined);
      const nonce = await act.cardNonce("4000111111111115");
      const refused = await act.json("PUT", `/api/courier/orders/${declined}/authorize`, { delivery: { order_payment: { payment_type: "credit_card", token: nonce, total: "12.50" } } });
      expect(refused.statusCode, refused.body).toBe(403);
      const failure = await stream.waitFor(is("payment.failed", declined), "payment.failed");
      expect(failure.data).toMatchObject({ order: { id: declined, pharmacy_id: pharmacy, status: "picked_up" }, payment: { status: "declined" } });
    });

    it("gives a pharmacist's and a pharmacy key's stream their pharmacy's events only", async () => {
      const own = await newPharmacy();
      const other = await newPharmacy();
      const pharmacist = await newStaffSession(writer, "pharmacist", own);
      const key = ((await ok(writer.ops("POST", "/api/ops/v1/keys", { role: "pharmacy", pharmacy_id: own, name: unique() }), 201)) as { key: string }).key;
      const byPharmacist = await open({ cookie: pharmacist.cookie });
      const byKey = await open({ authorization: `Bearer ${key}` });
      expect(byPharmacist.status).toBe(200);
      const theirs = await newOrder(other);
      const mine = await newOrder(own);
      for (const stream of [byPharmacist, byKey]) {
        await stream.waitFor(is("order.created", mine), "the own pharmacy's order");
        expect(stream.events.some((event) => event.data.order?.id === theirs || event.data.order?.pharmacy_id !== own)).toBe(false);
      }
    });

    it("resumes with Last-Event-ID: what was missed, in order, once", async () => {
      const pharmacy = await newPharmacy();
      const first = await open(dispatchKey);
      const seen = await newOrder(pharmacy);
      const last = (await first.waitFor(is("order.created", seen), "the first order")).id;
      first.close();
      const missed = [await newOrder(pharmacy), await newOrder(pharmacy), await newOrder(pharmacy)];
      for (const resumed of [await open({ ...dispatchKey, "last-event-id": String(last) }), await open(dispatchKey, `/api/ops/v1/events?last_event_id=${last}`)]) {
        await resumed.waitFor(is("order.created", missed[2]!), "the last missed order");
        const created = resumed.events.filter((event) => event.type === "order.created").map((event) => event.data.order!.id);
        expect(created.slice(0, 3)).toEqual(missed);
        expect(resumed.events.every((event) => event.id > last)).toBe(true);
        const later = await newOrder(pharmacy);
        await resumed.waitFor(is("order.created", later), "a live order after the replay");
        expect(new Set(resumed.events.map((event) => event.id)).size).toBe(resumed.events.length);
      }
    });

    it("takes no request slot, has a cap of its own, and refuses a courier's cookie", async () => {
      const one = await open(dispatchKey, undefined, cappedUrl);
      const two = await open(dispatchKey, undefined, cappedUrl);
      expect([one.status, two.status]).toEqual([200, 200]);
      // MAX_CONCURRENT_REQUESTS=1: both streams open, an ordinary call is still served.
      const call = await fetch(`${cappedUrl}/api/ops/v1/orders?limit=1`, { headers: dispatchKey });
      expect(call.status).toBe(200);
      await call.text();
      const three = await openEventStream(cappedUrl, dispatchKey);
      expect(three.status).toBe(503);
      one.close();
      two.close();
      const courier = await reader.loginCourier("courier@example.com");
      expect((await openEventStream(readerUrl, { cookie: courier.cookie })).status).toBe(401);
      expect((await openEventStream(readerUrl, {})).status).toBe(401);
    });

    it("resumes from the end when Last-Event-ID is past it (another database, or a reset one)", async () => {
      const pharmacy = await newPharmacy();
      const stream = await open({ ...dispatchKey, "last-event-id": "999999999999" });
      const order = await newOrder(pharmacy);
      await stream.waitFor(is("order.created", order), "the next order");
    });

    it("refuses a hostile Last-Event-ID, as header or query, with 400 in the product's shape", async () => {
      for (const value of ["abc", "-1", "1.5", "1e3", "0x10", "%00", "%01", "%ED%A0%80", "9".repeat(16), "9".repeat(65_536)]) {
        const byQuery = await fetch(`${readerUrl}/api/ops/v1/events?last_event_id=${value}`, { headers: dispatchKey });
        expect(byQuery.status, value.slice(0, 20)).toBe(value.length > 60_000 ? byQuery.status : 400);
        expect(byQuery.status, value.slice(0, 20)).toBeGreaterThanOrEqual(400);
        expect(byQuery.status).toBeLessThan(500);
        const body = (await byQuery.text()) || "{}";
        if (byQuery.status === 400) expect(JSON.parse(body)).toMatchObject({ error: expect.any(String), message: expect.any(String) });
      }
      for (const value of ["abc", "-1", "1e3", "9".repeat(16)]) {
        const byHeader = await fetch(`${readerUrl}/api/ops/v1/events`, { headers: { ...dispatchKey, "last-event-id": value } });
        expect(byHeader.status, value).toBe(400);
        await byHeader.text();
      }
    });

    const endsWithin = (stream: EventStreamClient, ms: number) =>
      Promise.race([stream.ended.then(() => "ended"), new Promise((resolve) => setTimeout(() => resolve("still open"), ms))]);

    it("ends a console session's stream at once when dispatch deactivates the staff member in another process", async () => {
      const dispatcher = await newStaffSession(writer, "dispatcher");
      const stream = await open({ cookie: dispatcher.cookie });
      const other = await open(dispatchKey);
      expect(stream.status).toBe(200);
      await ok(writer.ops("POST", `/api/ops/v1/staff/${dispatcher.staffId}/deactivation`, {}));
      // The keep-alive is a minute away: only the announced deactivation can end it this soon.
      await expect(endsWithin(stream, 2_000)).resolves.toBe("ended");
      // A key's stream on the same process is not touched.
      await expect(endsWithin(other, 300)).resolves.toBe("still open");
    });

    it("ends a console session's stream at once when the member logs out, and only that session's", async () => {
      const pharmacy = await newPharmacy();
      const pharmacist = await newStaffSession(writer, "pharmacist", pharmacy);
      const second = await staffLogin(writer, pharmacist.email);
      const leaving = await open({ cookie: pharmacist.cookie });
      const staying = await open({ cookie: second.cookie });
      expect([leaving.status, staying.status]).toEqual([200, 200]);
      const logout = await writer.raw("DELETE", "/api/ops/v1/sessions/current", undefined, pharmacist.headers);
      expect(logout.statusCode, logout.body).toBe(204);
      await expect(endsWithin(leaving, 2_000)).resolves.toBe("ended");
      await expect(endsWithin(staying, 300)).resolves.toBe("still open");
      // The session still open keeps its events.
      const order = await newOrder(pharmacy);
      await staying.waitFor(is("order.created", order), "the other session's event");
    });

    it("ends a console session's stream when the session expires (idle), not at the next keep-alive", async () => {
      // A process whose sessions end after 3 s without a call (SESSION_IDLE_MINUTES takes whole minutes; the store takes any).
      const config = { ...loadConfig({ OPS_API_KEY: TEST_OPS_KEY }), webRoot: "/nonexistent", loginAttemptsPerMinute: 1000, sessionIdleMinutes: 0.05 };
      const brief = await startOps(databases.b, {}, { config, eventKeepaliveMs: 60_000 });
      try {
        const url = await listening(brief);
        const invited = await newStaffSession(writer, "dispatcher");
        const session = await staffLogin(brief, invited.email);
        const stream = await open({ cookie: session.cookie }, undefined, url);
        expect(stream.status).toBe(200);
        const opened = performance.now();
        await expect(endsWithin(stream, 1_500)).resolves.toBe("still open");
        await expect(endsWithin(stream, 4_000)).resolves.toBe("ended");
        // Ended at the session's idle end (3 s after the login), with the keep-alive a minute away.
        expect(performance.now() - opened).toBeLessThan(4_500);
        expect((await openEventStream(url, { cookie: session.cookie })).status).toBe(401);
      } finally {
        await brief.app.close();
      }
    });

    it("closes the server promptly with streams open (SIGTERM, app.close())", async () => {
      const extra = await startOps(databases.b, {}, { eventKeepaliveMs: 60_000 });
      const url = await listening(extra);
      const dispatcher = await newStaffSession(writer, "dispatcher");
      const byKey = await open(dispatchKey, undefined, url);
      const bySession = await open({ cookie: dispatcher.cookie }, undefined, url);
      expect([byKey.status, bySession.status]).toEqual([200, 200]);
      // An idle keep-alive connection of the same client beside them, and a spare one that has sent nothing yet (as browsers open).
      const call = await fetch(`${url}/api/ops/v1/orders?limit=1`, { headers: dispatchKey });
      await call.text();
      const spare = connect({ host: "127.0.0.1", port: Number(new URL(url).port) });
      await new Promise((resolve) => spare.once("connect", resolve));
      const spareClosed = new Promise((resolve) => spare.once("close", resolve));
      const started = performance.now();
      const closed = extra.app.close().then(() => "closed");
      await expect(Promise.race([closed, new Promise((resolve) => setTimeout(() => resolve("still closing"), 2_000))])).resolves.toBe("closed");
      expect(performance.now() - started).toBeLessThan(2_000);
      await expect(endsWithin(byKey, 500)).resolves.toBe("ended");
      await expect(endsWithin(bySession, 500)).resolves.toBe("ended");
      await spareClosed;
    });
  });
}
