import { afterEach, describe, expect, it } from "vitest";
import type { RenderPoolOptions } from "../../server/ops/services/proof/render-pool.ts";
import { completion, courierActions } from "../support/courier-actions.ts";
import { databaseTargets } from "../support/databases.ts";
import { startOps, TEST_OPS_KEY, type OpsContext } from "../support/ops-harness.ts";
import { freshOrder, freshPharmacy } from "../support/security-fixtures.ts";

/**
 * Issue 24: PDFs are drawn in a worker pool, so the API answers while one is
 * being drawn — shown as an ordering, not a timing: the render is held on a
 * latch in its worker thread, GET /api/health is answered, and only then is
 * the latch opened and the PDF answered. A render past its time bound is a
 * 503 in words (its worker replaced), a full queue is a 503 at once, and
 * neither leaves a request hanging.
 */

// Worker boot and argon2 logins on two shared cores: generous bounds for the setup, the orderings are what is checked.
const LATCHED = new URL("../support/latched-render-worker.ts", import.meta.url);

for (const target of databaseTargets()) {
  describe(`the PDF render pool [${target.name}]`, { timeout: 90_000 }, () => {
    let ctx: OpsContext | undefined;
    afterEach(async () => {
      await ctx?.app.close();
      await ctx?.database.close();
      ctx = undefined;
    });

    /** The API with a render pool whose worker waits on `latch` before each render; a delivered order to draw. */
    async function start(latch: SharedArrayBuffer, pool: RenderPoolOptions = {}) {
      ctx = await startOps(await target.openDemoDay(), {}, { renderPool: { entry: LATCHED, workerData: { latch }, ...pool } });
      const courier = await ctx.loginCourier("courier@example.com");
      const pharmacyId = await freshPharmacy(ctx.database.db, courier.courierId, "Render Pool Pharmacy");
      const orderId = await freshOrder(ctx.database.db, { courierId: courier.courierId, pharmacyId, status: "picked_up" });
      await courierActions(ctx.app, courier).deliver(completion([orderId]));
      return orderId;
    }
    const proofPdf = (orderId: number) =>
      ctx!.app.inject({ method: "GET", url: `/api/ops/v1/orders/${orderId}/proof.pdf`, headers: { authorization: `Bearer ${TEST_OPS_KEY}` } });
    /** Resolves once `count` renders have reached the latch in their worker. */
    async function rendersWaiting(latch: Int32Array, count: number) {
      for (let seen = Atomics.load(latch, 1); seen < count; seen = Atomics.load(latch, 1)) {
        await Atomics.waitAsync(latch, 1, seen, 10_000).value;
      }
    }
    const open = (latch: Int32Array) => {
      Atomics.store(latch, 0, 1);
      Atomics.notify(latch, 0);
    };

    it("answers GET /api/health while a proof PDF is being drawn, and the PDF after the render is let go", async () => {
      const shared = new SharedArrayBuffer(8);
      const latch = new Int32Array(shared);
      const orderId = await start(shared);
      const order: string[] = [];
      const pdf = proofPdf(orderId).then((response) => {
        order.push("pdf");
        return response;
      });
      await rendersWaiting(latch, 1);
      const health = await ctx!.app.inject({ method: "GET", url: "/api/health" });
      order.push("health");
      expect(health.statusCode).toBe(200);
      open(latch);
      const answer = await pdf;
      expect(order).toEqual(["health", "pdf"]);
      expect(answer.statusCode).toBe(200);
      expect(answer.rawPayload.subarray(0, 5).toString("latin1")).toBe("%PDF-");
    });

    it("stops a render past its time bound with a 503 in words, and the next render gets a fresh worker", async () => {
      const shared = new SharedArrayBuffer(8);
      const latch = new Int32Array(shared);
      // Long enough for a fresh worker to boot and draw on a loaded machine (300 ms was not), short enough for the stuck one to be stopped.
      const orderId = await start(shared, { timeoutMs: 3_000 });
      const stuck = await proofPdf(orderId);
      expect(stuck.statusCode).toBe(503);
      expect(stuck.json()).toMatchObject({ error: "render_timeout" });
      expect(stuck.json().message).toMatch(/took longer than .* to draw and was stopped/);
      expect(stuck.headers["retry-after"]).toBeDefined();
      open(latch);
      const next = await proofPdf(orderId);
      expect(next.statusCode, next.body.slice(0, 200)).toBe(200);
    });

    it("refuses a render at once when every worker is busy and the queue is full, with a 503 in words", async () => {
      const shared = new SharedArrayBuffer(8);
      const latch = new Int32Array(shared);
      // One worker, no queue: while it draws, the next render has nowhere to wait.
      const orderId = await start(shared, { size: 1, queueLimit: 0 });
      const running = Promise.resolve(proofPdf(orderId));
      await rendersWaiting(latch, 1);
      const refused = await proofPdf(orderId);
      expect(refused.statusCode).toBe(503);
      expect(refused.json()).toMatchObject({ error: "render_busy", message: "Too many PDFs are being drawn right now. Try again in a few seconds." });
      expect(refused.headers["retry-after"]).toBe("5");
      open(latch);
      expect((await running).statusCode).toBe(200);
    });
  });
}
