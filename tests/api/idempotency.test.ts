import { randomUUID } from "node:crypto";
import multipart from "@fastify/multipart";
import { and, count, eq, sql } from "drizzle-orm";
import Fastify, { type FastifyInstance, type LightMyRequestResponse } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { API_MEDIA_TYPE } from "../../domain/contract/common.ts";
import { buildApp } from "../../server/app.ts";
import { loadConfig } from "../../server/config.ts";
import type { Database } from "../../server/db/client.ts";
import { auditEvents, idempotencyKeys } from "../../server/db/schema.ts";
import { HttpError } from "../../server/http/errors.ts";
import { canonicalBody, purgeIdempotencyKeys, requestFingerprint } from "../../server/http/idempotency.ts";
import { DEMO_PASSWORD, TEST_DAY, sessionCookie } from "../support/api-harness.ts";
import { databaseTargets } from "../support/databases.ts";

/**
 * The real app (auth, CSRF, error handling, the idempotency hooks) plus one
 * probe route that records a row per run, can fail with a 500 once, refuse
 * with a 409, or wait on a gate: the rules need a handler whose runs we can
 * count and hold. Real routes (cancellation, logout) show the same rules
 * in front of the product's own handlers.
 */
const PROBE = "/api/test/idempotency-probe";

interface Probe {
  runs: number;
  failNext: boolean;
  gate: Promise<void> | null;
}

async function startProbeApi(database: Database, probe: Probe): Promise<FastifyInstance> {
  const config = { ...loadConfig({}), webRoot: "/nonexistent", loginAttemptsPerMinute: 1000, loginAttemptsPerAddressPerMinute: 1000 };
  const app = await buildApp({ config, database, today: () => TEST_DAY, logger: false });
  app.post(PROBE, async (request) => {
    probe.runs += 1;
    const body = (request.body ?? {}) as { note?: string; refuse?: boolean };
    if (probe.gate) await probe.gate;
    if (probe.failNext) {
      probe.failNext = false;
      throw new Error("the database went away");
    }
    if (body.refuse) throw new HttpError(409, "conflict", "Order 1 is delivered and cannot be delivered.");
    const courierId = request.session!.courier.id;
    const [row] = await database.db
      .insert(auditEvents)
      .values({ courierId, action: `probe:${body.note ?? ""}` })
      .returning({ id: auditEvents.id });
    return { recorded: row!.id, note: body.note ?? null };
  });
  await app.ready();
  return app;
}

interface Client {
  courierId: number;
  send(method: "POST" | "DELETE" | "GET", url: string, body?: unknown, headers?: Record<string, string>): Promise<LightMyRequestResponse>;
}

async function login(app: FastifyInstance, email: string): Promise<Client> {
  const response = await app.inject({
    method: "POST",
    url: "/api/sessions",
    headers: { "content-type": "application/json", accept: API_MEDIA_TYPE },
    payload: JSON.stringify({ email, password: DEMO_PASSWORD }),
  });
  const { courier, csrf_token } = response.json() as { courier: { id: number }; csrf_token: string };
  const cookie = sessionCookie(response);
  return {
    courierId: courier.id,
    send: (method, url, body, headers = {}) =>
      app.inject({
        method,
        url,
        headers: {
          accept: API_MEDIA_TYPE,
          cookie,
          "x-csrf-token": csrf_token,
          ...(body !== undefined ? { "content-type": "application/json" } : {}),
          ...headers,
        },
        ...(body !== undefined ? { payload: typeof body === "string" ? body : JSON.stringify(body) } : {}),
      }),
  };
}

for (const target of databaseTargets()) {
  describe(`Idempotency-Key [${target.name}]`, () => {
    const probe: Probe = { runs: 0, failNext: false, gate: null };
    let database: Database;
    let app: FastifyInstance;
    let dana: Client;
    let marcus: Client;

    beforeAll(async () => {
      database = await target.openDemoDay();
      app = await startProbeApi(database, probe);
      dana = await login(app, "courier@example.com");
      marcus = await login(app, "courier2@example.com");
    });
    afterAll(async () => {
      await app?.close();
      await database?.close();
    });

    const recorded = async (courierId: number, note: string) => {
      const [row] = await database.db
        .select({ n: count() })
        .from(auditEvents)
        .where(and(eq(auditEvents.courierId, courierId), eq(auditEvents.action, `probe:${note}`)));
      return row?.n ?? 0;
    };
    const keyRow = async (courierId: number, key: string) => {
      const [row] = await database.db
        .select()
        .from(idempotencyKeys)
        .where(and(eq(idempotencyKeys.courierId, courierId), eq(idempotencyKeys.key, key)));
      return row;
    };
    const post = (client: Client, body: unknown, key?: string) =>
      client.send("POST", PROBE, body, key === undefined ? {} : { "idempotency-key": key });

    it("runs a request once and replays its status and body, marked Idempotent-Replayed, for every retry", async () => {
      const key = randomUUID();
      const runsBefore = probe.runs;
      const first = await post(dana, { note: "three-times" }, key);
      expect(first.statusCode).toBe(200);
      expect(first.headers["idempotent-replayed"]).toBeUndefined();
      for (let retry = 0; retry < 2; retry++) {
        const again = await post(dana, { note: "three-times" }, key);
        expect(again.statusCode).toBe(200);
        expect(again.headers["idempotent-replayed"]).toBe("true");
        expect(again.headers["content-type"]).toMatch(/^application\/json/);
        expect(again.body).toBe(first.body);
      }
      expect(probe.runs - runsBefore).toBe(1);
      expect(await recorded(dana.courierId, "three-times")).toBe(1);
      expect(await keyRow(dana.courierId, key)).toMatchObject({ state: "done", responseStatus: 200, responseBody: first.body });
    });

    it("treats the same JSON in another key order, and another CSRF token in the body, as the same request", async () => {
      const key = randomUUID();
      await post(dana, { note: "reordered", refuse: false }, key);
      const again = await post(dana, { refuse: false, note: "reordered" }, key);
      expect(again.headers["idempotent-replayed"]).toBe("true");
      expect(await recorded(dana.courierId, "reordered")).toBe(1);
    });

    it("accepts the key in any letter case as the same key", async () => {
      const key = randomUUID();
      await post(dana, { note: "case" }, key);
      const again = await post(dana, { note: "case" }, key.toUpperCase());
      expect(again.headers["idempotent-replayed"]).toBe("true");
      expect(await recorded(dana.courierId, "case")).toBe(1);
    });

    it("refuses the same key with a different body or another route with 422, and runs nothing", async () => {
      const key = randomUUID();
      await post(dana, { note: "original" }, key);
      const runsBefore = probe.runs;
      const otherBody = await post(dana, { note: "changed" }, key);
      expect(otherBody.statusCode).toBe(422);
      expect(otherBody.json()).toEqual({
        error: "idempotency_key_reused",
        message: "This Idempotency-Key was already used for a different request. Make a new key for a new request.",
      });
      const otherRoute = await dana.send("DELETE", "/api/sessions/current", undefined, { "idempotency-key": key });
      expect(otherRoute.statusCode).toBe(422);
      expect(probe.runs).toBe(runsBefore);
      expect(await recorded(dana.courierId, "changed")).toBe(0);
      expect((await dana.send("GET", "/api/sessions/current")).statusCode).toBe(200);
    });

    it("a cancellation sent three times is recorded once: the retries get the first 200, not the lifecycle's 409", async () => {
      const day = (await dana.send("GET", "/api/courier/itinerary")).json() as { orders: { id: number; status: { name: string } }[] };
      const order = day.orders.find((candidate) => candidate.status.name === "submitted_to_courier");
      if (!order) throw new Error("the demo day has an order waiting for check-in");
      const key = randomUUID();
      const cancel = () => dana.send("POST", "/api/courier/cancellation", { order_id: order.id }, { "idempotency-key": key });

      const first = await cancel();
      expect(first.statusCode).toBe(200);
      expect(first.json()).toMatchObject({ id: order.id, status: { name: "cancelled" } });
      for (let retry = 0; retry < 2; retry++) {
        const again = await cancel();
        expect(again.statusCode).toBe(200);
        expect(again.headers["idempotent-replayed"]).toBe("true");
        expect(again.body).toBe(first.body);
      }
      const [changes] = await database.db
        .select({ n: count() })
        .from(auditEvents)
        .where(and(eq(auditEvents.orderId, order.id), eq(auditEvents.action, "status_change"), eq(auditEvents.toStatus, "cancelled")));
      expect(changes?.n).toBe(1);
      // What the key spared the courier: the same call without it is refused by the lifecycle.
      expect((await dana.send("POST", "/api/courier/cancellation", { order_id: order.id })).statusCode).toBe(409);
    });

    it("answers 409 while the first request with the key is still in progress", async () => {
      const key = randomUUID();
      const body = { note: "in-flight" };
      await database.db.insert(idempotencyKeys).values({
        courierId: dana.courierId,
        key,
        requestHash: requestFingerprint("POST", PROBE, body),
        state: "in_progress",
      });
      const runsBefore = probe.runs;
      const retry = await post(dana, body, key);
      expect(retry.statusCode).toBe(409);
      expect(retry.json()).toEqual({
        error: "idempotency_in_progress",
        message: "This request is still being processed. Please try again in a moment.",
      });
      expect(probe.runs).toBe(runsBefore);
      // A different body is still the wrong use of the key, running or not.
      expect((await post(dana, { note: "other" }, key)).statusCode).toBe(422);
    });

    it("lets two requests racing with one key run the handler once: the second gets 409, later ones the replay", async () => {
      const key = randomUUID();
      let open!: () => void;
      probe.gate = new Promise((resolve) => (open = resolve));
      const runsBefore = probe.runs;
      const first = post(dana, { note: "race" }, key);
      // The first request is parked in the handler once the key row exists.
      await expect.poll(() => keyRow(dana.courierId, key)).toMatchObject({ state: "in_progress" });
      const second = await post(dana, { note: "race" }, key);
      expect(second.statusCode).toBe(409);
      probe.gate = null;
      open();
      expect((await first).statusCode).toBe(200);
      const third = await post(dana, { note: "race" }, key);
      expect(third.headers["idempotent-replayed"]).toBe("true");
      expect(third.body).toBe((await first).body);
      expect(probe.runs - runsBefore).toBe(1);
      expect(await recorded(dana.courierId, "race")).toBe(1);
    });

    it("runs the request again when the first attempt's process died (an in_progress row past its lease)", async () => {
      const key = randomUUID();
      const body = { note: "after-crash" };
      await database.db.insert(idempotencyKeys).values({
        courierId: dana.courierId,
        key,
        requestHash: requestFingerprint("POST", PROBE, body),
        state: "in_progress",
        createdAt: sql`now() - interval '2 minutes'`,
      });
      const retry = await post(dana, body, key);
      expect(retry.statusCode).toBe(200);
      expect(retry.headers["idempotent-replayed"]).toBeUndefined();
      expect(await recorded(dana.courierId, "after-crash")).toBe(1);
      expect(await keyRow(dana.courierId, key)).toMatchObject({ state: "done", responseStatus: 200 });
      expect((await post(dana, body, key)).headers["idempotent-replayed"]).toBe("true");
    });

    it("does not keep a 5xx: the same key runs again, and its success is then the stored answer", async () => {
      const key = randomUUID();
      probe.failNext = true;
      const failed = await post(dana, { note: "after-500" }, key);
      expect(failed.statusCode).toBe(500);
      expect(await keyRow(dana.courierId, key)).toBeUndefined();
      const retry = await post(dana, { note: "after-500" }, key);
      expect(retry.statusCode).toBe(200);
      expect(retry.headers["idempotent-replayed"]).toBeUndefined();
      const replay = await post(dana, { note: "after-500" }, key);
      expect(replay.headers["idempotent-replayed"]).toBe("true");
      expect(replay.body).toBe(retry.body);
      expect(await recorded(dana.courierId, "after-500")).toBe(1);
    });

    it("keeps a 4xx refusal: the refusal is the answer and is replayed without running again", async () => {
      const key = randomUUID();
      const runsBefore = probe.runs;
      const refused = await post(dana, { note: "refused", refuse: true }, key);
      expect(refused.statusCode).toBe(409);
      const again = await post(dana, { note: "refused", refuse: true }, key);
      expect(again.statusCode).toBe(409);
      expect(again.headers["idempotent-replayed"]).toBe("true");
      expect(again.json()).toEqual(refused.json());
      expect(probe.runs - runsBefore).toBe(1);
    });

    it("never stores a CSRF refusal: the retry with the right token runs", async () => {
      const key = randomUUID();
      const stale = await dana.send("POST", PROBE, { note: "csrf-retry" }, { "idempotency-key": key, "x-csrf-token": "stale" });
      expect(stale.statusCode).toBe(403);
      expect(await keyRow(dana.courierId, key)).toBeUndefined();
      const retry = await post(dana, { note: "csrf-retry" }, key);
      expect(retry.statusCode).toBe(200);
      expect(retry.headers["idempotent-replayed"]).toBeUndefined();
      expect(await recorded(dana.courierId, "csrf-retry")).toBe(1);
    });

    it("refuses a malformed key with 400 before the route runs, on the probe and on logout", async () => {
      const runsBefore = probe.runs;
      for (const bad of ["not-a-uuid", "", "1234", `${randomUUID()}x`]) {
        const response = await post(dana, { note: "malformed" }, bad);
        expect(response.statusCode).toBe(400);
        expect(response.json()).toEqual({ error: "invalid_idempotency_key", message: "The Idempotency-Key header must be a UUID." });
      }
      expect(probe.runs).toBe(runsBefore);
      const logout = await dana.send("DELETE", "/api/sessions/current", undefined, { "idempotency-key": "nope" });
      expect(logout.statusCode).toBe(400);
      // Still logged in: the refusal came before the route.
      expect((await dana.send("GET", "/api/sessions/current")).statusCode).toBe(200);
    });

    it("keeps keys per courier: another courier's same key and body is a request of their own", async () => {
      const key = randomUUID();
      const danas = await post(dana, { note: "shared-key" }, key);
      const marcuss = await post(marcus, { note: "shared-key" }, key);
      expect(marcuss.statusCode).toBe(200);
      expect(marcuss.headers["idempotent-replayed"]).toBeUndefined();
      expect(marcuss.body).not.toBe(danas.body);
      expect(await recorded(dana.courierId, "shared-key")).toBe(1);
      expect(await recorded(marcus.courierId, "shared-key")).toBe(1);
      // Marcus's retry gets Marcus's own answer back.
      expect((await post(marcus, { note: "shared-key" }, key)).headers["idempotent-replayed"]).toBe("true");
    });

    it("runs a request without a key every time", async () => {
      await post(dana, { note: "no-key" });
      await post(dana, { note: "no-key" });
      expect(await recorded(dana.courierId, "no-key")).toBe(2);
    });

    it("leaves login alone: it has no session, so any header is ignored", async () => {
      const response = await app.inject({
        method: "POST",
        url: "/api/sessions",
        headers: { "content-type": "application/json", "idempotency-key": "not-a-uuid" },
        payload: JSON.stringify({ email: "courier@example.com", password: DEMO_PASSWORD }),
      });
      expect(response.statusCode).toBe(200);
    });

    it("logs out with a key, and the key is stored with the 204", async () => {
      const client = await login(app, "courier@example.com");
      const key = randomUUID();
      const out = await client.send("DELETE", "/api/sessions/current", undefined, { "idempotency-key": key });
      expect(out.statusCode).toBe(204);
      expect(await keyRow(client.courierId, key)).toMatchObject({ state: "done", responseStatus: 204, responseBody: "" });
    });

    it("purges rows older than the retention and keeps the rest", async () => {
      const old = randomUUID();
      const fresh = randomUUID();
      await database.db.insert(idempotencyKeys).values([
        { courierId: dana.courierId, key: old, requestHash: "x", state: "done", responseStatus: 200, responseBody: "{}", createdAt: sql`now() - interval '49 hours'` },
        { courierId: dana.courierId, key: fresh, requestHash: "x", state: "done", responseStatus: 200, responseBody: "{}", createdAt: sql`now() - interval '25 hours'` },
      ]);
      expect(await purgeIdempotencyKeys(database.db, 48)).toBeGreaterThanOrEqual(1);
      expect(await keyRow(dana.courierId, old)).toBeUndefined();
      expect(await keyRow(dana.courierId, fresh)).toBeDefined();
    });
  });
}

describe("request fingerprint canonicalisation", () => {
  it("ignores key order at every depth but keeps array order", () => {
    expect(canonicalBody({ b: 1, a: { d: [1, 2], c: "x" } })).toBe(canonicalBody({ a: { c: "x", d: [1, 2] }, b: 1 }));
    expect(canonicalBody({ ids: [1, 2] })).not.toBe(canonicalBody({ ids: [2, 1] }));
    expect(canonicalBody({ a: 1, b: { c: 2 } })).toBe('{"a":1,"b":{"c":2}}');
  });

  it("leaves out the CSRF token at the top only, and absent fields", () => {
    expect(canonicalBody({ order_id: 4, _csrf_token: "one" })).toBe(canonicalBody({ _csrf_token: "two", order_id: 4 }));
    expect(canonicalBody({ order_id: 4, gone: undefined })).toBe(canonicalBody({ order_id: 4 }));
    expect(canonicalBody({ nested: { _csrf_token: "one" } })).not.toBe(canonicalBody({ nested: { _csrf_token: "two" } }));
  });

  it("tells values of different types apart", () => {
    expect(canonicalBody({ a: "1" })).not.toBe(canonicalBody({ a: 1 }));
    expect(canonicalBody({ a: null })).not.toBe(canonicalBody({ a: "null" }));
    expect(canonicalBody({ a: Buffer.from("abc") })).not.toBe(canonicalBody({ a: "abc" }));
    expect(canonicalBody({ a: Buffer.from("abc") })).toBe(canonicalBody({ a: Buffer.from("abc") }));
    expect(canonicalBody({ a: Buffer.from("abc") })).not.toBe(canonicalBody({ a: Buffer.from("abd") }));
    expect(canonicalBody(undefined)).toBe(canonicalBody(null));
  });

  it("reads a JSON object shaped like a form part as JSON", () => {
    const partShaped = { type: "field", fieldname: "x", value: "1" };
    expect(canonicalBody({ x: partShaped })).not.toBe(canonicalBody({ x: "1" }));
    expect(canonicalBody({ x: partShaped }, true)).toBe(canonicalBody({ x: "1" }));
  });

  it("covers method and URL as well as the body", () => {
    const body = { order_id: 1 };
    expect(requestFingerprint("post", "/api/x", body)).toBe(requestFingerprint("POST", "/api/x", body));
    expect(requestFingerprint("POST", "/api/x", body)).not.toBe(requestFingerprint("PUT", "/api/x", body));
    expect(requestFingerprint("POST", "/api/x", body)).not.toBe(requestFingerprint("POST", "/api/y", body));
    expect(requestFingerprint("POST", "/api/x", body)).toMatch(/^[0-9a-f]{64}$/);
  });

  describe("on multipart forms as @fastify/multipart parses them", () => {
    let app: FastifyInstance;
    beforeAll(async () => {
      app = Fastify();
      await app.register(multipart, { attachFieldsToBody: true });
      app.post("/form", async (request) => ({ hash: requestFingerprint("POST", "/form", request.body, true) }));
      await app.ready();
    });
    afterAll(() => app.close());

    const hashOf = async (fields: [string, string | Blob, string?][]) => {
      const form = new FormData();
      for (const [name, value, filename] of fields) {
        if (typeof value === "string") form.append(name, value);
        else form.append(name, value, filename);
      }
      const response = await app.inject({ method: "POST", url: "/form", payload: form });
      return (response.json() as { hash: string }).hash;
    };
    const svg = (text: string) => new Blob([`<svg>${text}</svg>`], { type: "image/svg+xml" });

    it("hashes field values and the signature file's bytes, not the multipart boundary", async () => {
      const form: [string, string | Blob, string?][] = [
        ["delivery[order_ids][]", "7"],
        ["delivery[order_ids][]", "8"],
        ["delivery[signed_by]", "Ann"],
        ["delivery[signature][attachment][file]", svg("ann"), "signature.svg"],
      ];
      const first = await hashOf(form);
      expect(await hashOf(form)).toBe(first);
      expect(await hashOf([...form.slice(0, 3), ["delivery[signature][attachment][file]", svg("bob"), "signature.svg"]])).not.toBe(first);
      expect(await hashOf([form[1]!, form[0]!, ...form.slice(2)])).not.toBe(first);
      expect(await hashOf([...form, ["_csrf_token", "whatever"]])).toBe(first);
      expect(await hashOf([["delivery[signed_by]", "Ann"], form[0]!, form[1]!, form[3]!])).toBe(first);
    });
  });
});
