import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OrderBatchResponse } from "../../domain/contract/ops.ts";
import { BatchCheckPool } from "../../server/ops/services/batch-check/pool.ts";
import { checkBatchInSlices } from "../../server/ops/services/order-batch.ts";
import { orders } from "../../server/db/schema.ts";
import { TEST_DAY } from "../support/api-harness.ts";
import { databaseTargets } from "../support/databases.ts";
import { orderBody, pharmacyBody, startOps, type OpsContext } from "../support/ops-harness.ts";

/**
 * Issue 25: an orders batch's body is parsed and its rows checked in a worker
 * thread (server/ops/services/batch-check/pool.ts), off the couriers' event
 * loop. The worker's report is the one the server's thread gives (good and bad
 * rows alike, byte for byte through the API); whatever the worker does not
 * read — a malformed body, a refused envelope, a key the JSON parser guards
 * against — is answered by the server's own parser as before; a worker that
 * dies or a pool that closes leaves no batch waiting, and closing the server
 * ends the worker.
 */

const V1 = "/api/ops/v1";
const BOOT_BOUND = 60_000;

/** Good rows and every kind of bad one: contract (top level and nested), money rule, date rule, a replay, junk. */
function mixedRows(pharmacyId: number, prefix: string, count = 250): Record<string, unknown>[] {
  const rows: Record<string, unknown>[] = [];
  for (let i = 0; i < count; i++) {
    const id = `${prefix}-${i}`;
    const kind = i % 7;
    rows.push(
      kind === 1
        ? orderBody(pharmacyId, id, { copay: "0.10" })
        : kind === 2
          ? orderBody(pharmacyId, id, { address: { street_address: "", city: "x", state_abbreviation: "ZZ", zipcode: "1" } })
          : kind === 3
            ? orderBody(pharmacyId, id, { service_date: "2001-01-01" })
            : kind === 4
              ? { junk: true, external_id: i }
              : kind === 5
                ? orderBody(pharmacyId, `${prefix}-0`)
                : orderBody(pharmacyId, id),
    );
  }
  return rows;
}

describe("the batch check pool", { timeout: BOOT_BOUND }, () => {
  const failures: string[] = [];
  const pool = new BatchCheckPool({ inThreadBelowBytes: 1024, onFailure: (reason) => failures.push(reason) });
  afterAll(() => pool.close());

  it("gives the rows the server's thread gives, in order, across its messages of 100 rows", async () => {
    const text = JSON.stringify({ orders: mixedRows(1, "P") });
    const inWorker = await pool.check(text, TEST_DAY);
    const onThread = await checkBatchInSlices(JSON.parse(text).orders, TEST_DAY);
    expect(inWorker).not.toBeNull();
    expect(inWorker!.rows).toHaveLength(250);
    // The worker also builds each row's JSON for the insert and its event's middle part (the thread builds them later, in createOrderBatch).
    expect(inWorker!.rows.map((row) => (row.ok ? { ...row, json: undefined, event: undefined } : row))).toEqual(onThread.rows);
    expect(inWorker!.rows.filter((row) => row.ok && row.dateProblems.length === 0).every((row) => row.ok && typeof row.json === "string" && typeof row.event === "string")).toBe(true);
    expect(inWorker!.today).toBe(TEST_DAY);
    expect(inWorker!.rows.filter((row) => !row.ok).length).toBeGreaterThan(0);
    expect(failures).toEqual([]);
  });

  it("leaves to the server's parser a small body, malformed JSON, a refused envelope and a guarded key", async () => {
    const big = (body: string) => body + " ".repeat(2048);
    expect(await pool.check(JSON.stringify({ orders: [orderBody(1, "S")] }), TEST_DAY)).toBeNull();
    expect(await pool.check(big('{"orders": [{"external_id": "x"'), TEST_DAY)).toBeNull();
    expect(await pool.check(big('{"orders": []}'), TEST_DAY)).toBeNull();
    expect(await pool.check(big(JSON.stringify({ orders: [orderBody(1, "E")], extra: 1 })), TEST_DAY)).toBeNull();
    expect(await pool.check(big('{"orders": [{"\\u005f_proto__": {"x": 1}}]}'), TEST_DAY)).toBeNull();
    expect(await pool.check(big('{"orders": [{"constructor": {"prototype": {}}}]}'), TEST_DAY)).toBeNull();
    // A word in a value is not a key: that body is the worker's.
    expect(await pool.check(big(JSON.stringify({ orders: [orderBody(1, "C", { pickup_note: '"constructor" at the back door' })] })), TEST_DAY)).not.toBeNull();
    expect(failures).toEqual([]);
  });

  it("answers null (the batch read on the thread) when the worker dies, and once closed", async () => {
    const dying = new BatchCheckPool({ inThreadBelowBytes: 0, entry: new URL("../support/exiting-batch-worker.ts", import.meta.url), onFailure: (reason) => failures.push(reason) });
    const text = JSON.stringify({ orders: [orderBody(1, "D")] });
    expect(await dying.check(text, TEST_DAY)).toBeNull();
    expect(failures.splice(0)).toEqual([expect.stringMatching(/exited \(code 3\)/)]);
    await dying.close();
    expect(await dying.check(text, TEST_DAY)).toBeNull();
  });

  it("closes without waiting for a check in flight: it is answered null", async () => {
    const closing = new BatchCheckPool({ inThreadBelowBytes: 0 });
    expect(await closing.start()).toBe(true);
    const inFlight = closing.check(JSON.stringify({ orders: mixedRows(1, "F", 1000) }), TEST_DAY);
    await closing.close();
    expect(await inFlight).toBeNull();
  });
});

/** order_id values differ between two databases; everything else must be the same bytes. */
const withoutIds = (body: string) => body.replace(/"order_id":\d+/g, '"order_id":0');

for (const target of databaseTargets()) {
  describe(`orders/batch through the worker [${target.name}]`, { timeout: BOOT_BOUND }, () => {
    let inWorker: OpsContext | undefined;
    let onThread: OpsContext | undefined;
    const failures: string[] = [];
    beforeAll(async () => {
      // Every batch through the worker on one server, none on the other; the same demo day in each.
      inWorker = await startOps(await target.openDemoDay(), {}, { batchCheck: { inThreadBelowBytes: 0, onFailure: (reason) => failures.push(reason) } });
      onThread = await startOps(await target.openDemoDay(), {}, { batchCheck: { inThreadBelowBytes: Number.POSITIVE_INFINITY } });
    }, BOOT_BOUND);
    afterAll(async () => {
      for (const ctx of [inWorker, onThread]) {
        await ctx?.app.close();
        await ctx?.database.close();
      }
    });
    const both = async (body: unknown) => [await inWorker!.ops("POST", `${V1}/orders/batch`, body), await onThread!.ops("POST", `${V1}/orders/batch`, body)] as const;

    it("answers a batch of good and bad rows as the server's thread does, byte for byte, twice (created, then unchanged)", async () => {
      const body = { orders: [...mixedRows(1, "W"), orderBody(999999, "W-missing")] };
      for (const expected of ["created", "unchanged"]) {
        const [worker, thread] = await both(body);
        expect(worker.statusCode, worker.body.slice(0, 300)).toBe(200);
        expect(worker.headers["content-type"]).toBe("application/json; charset=utf-8");
        expect(worker.headers["server-timing"]).toMatch(/^transaction;dur=\d+\.\d$/);
        expect(withoutIds(worker.body)).toBe(withoutIds(thread.body));
        // Written without the route's zod serializer: what it would have written.
        expect(JSON.stringify(OrderBatchResponse.parse(JSON.parse(worker.body)))).toBe(worker.body);
        const results = OrderBatchResponse.parse(worker.json()).results;
        expect(results[0]!.status).toBe(expected);
        expect(results.filter((r) => r.status === "rejected").length).toBeGreaterThan(100);
        expect(results.at(-1)!.errors).toEqual([{ path: "pharmacy_id", message: "Pharmacy 999999 was not found." }]);
      }
      expect(failures).toEqual([]);
    });

    it("writes the same rows as the server's thread, the pharmacy's pickup note standing in for a row without its own", async () => {
      const stored = async (ctx: OpsContext) => {
        const made = await ctx.ops("POST", `${V1}/pharmacies`, pharmacyBody({ name: "Notes Pharmacy", pickup_note: "Ring at the side door" }));
        expect(made.statusCode, made.body).toBe(201);
        const pharmacyId = made.json().pharmacy.id as number;
        const rows = [...mixedRows(pharmacyId, "N", 50), orderBody(pharmacyId, "N-own", { pickup_note: "Ask for Sam" }), orderBody(pharmacyId, "N-empty", { pickup_note: "" })];
        expect((await ctx.ops("POST", `${V1}/orders/batch`, { orders: rows })).statusCode).toBe(200);
        const written = await ctx.database.db.select().from(orders).where(eq(orders.pharmacyId, pharmacyId));
        return written
          .map(({ id: _id, pharmacyId: _pharmacy, createdAt: _created, updatedAt: _updated, ...row }) => row)
          .sort((a, b) => (a.externalId! < b.externalId! ? -1 : 1));
      };
      const [worker, thread] = [await stored(inWorker!), await stored(onThread!)];
      expect(worker).toEqual(thread);
      expect(worker.find((row) => row.externalId === "N-own")!.pickupNote).toBe("Ask for Sam");
      expect(worker.find((row) => row.externalId === "N-empty")!.pickupNote).toBe("Ring at the side door");
      expect(worker.filter((row) => row.pickupNote === "Ring at the side door").length).toBeGreaterThan(10);
      expect(failures).toEqual([]);
    });

    it("refuses a malformed body, an empty or oversized batch, another key and a guarded key with the same 400 as before", async () => {
      const tooMany = { orders: Array.from({ length: 1001 }, (_, i) => ({ external_id: `X${i}` })) };
      for (const body of ["{not json", { orders: [] }, tooMany, { orders: [orderBody(1, "K")], extra: true }, '{"orders": [{"__proto__": {"x": 1}}]}', '{"orders": [{"constructor": {"prototype": {"x": 1}}}]}']) {
        const [worker, thread] = await both(body);
        expect(worker.statusCode, worker.body).toBe(400);
        expect(worker.body).toBe(thread.body);
      }
      expect((await inWorker!.ops("POST", `${V1}/orders/batch`, "{not json")).json()).toEqual({ error: "malformed_json", message: "The request body is not valid JSON." });
      expect(failures).toEqual([]);
    });

    it("keeps the other routes' JSON parser: a malformed body elsewhere is still the usual 400", async () => {
      const response = await inWorker!.ops("POST", `${V1}/orders`, "{not json");
      expect(response.statusCode).toBe(400);
      expect(response.json().error).toBe("malformed_json");
    });
  });
}
