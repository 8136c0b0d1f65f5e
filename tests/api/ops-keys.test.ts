import { eq } from "drizzle-orm";
import { expect, it } from "vitest";
import { hashToken } from "../../server/auth/tokens.ts";
import { ConfigError, loadConfig } from "../../server/config.ts";
import { apiKeys, auditEvents } from "../../server/db/schema.ts";
import { describeOps, pharmacyBody, TEST_OPS_KEY } from "../support/ops-harness.ts";

it("refuses to start with an OPS_API_KEY under 32 characters, saying why", () => {
  expect(() => loadConfig({ OPS_API_KEY: "too-short" })).toThrow(ConfigError);
  expect(() => loadConfig({ OPS_API_KEY: "too-short" })).toThrow(/at least 32 characters/);
  expect(loadConfig({}).opsApiKey).toBeNull();
  expect(loadConfig({ OPS_API_KEY: "x".repeat(32) }).opsApiKey).toBe("x".repeat(32));
});

describeOps("ops API keys", (ctx) => {
  it("keeps only the hash of OPS_API_KEY, as a dispatch key", async () => {
    const rows = await ctx().database.db.select().from(apiKeys).where(eq(apiKeys.source, "environment"));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ role: "dispatch", source: "environment", keyHash: hashToken(TEST_OPS_KEY) });
    expect(JSON.stringify(rows)).not.toContain(TEST_OPS_KEY);
  });

  it("answers 401 without a key, with a wrong key and with a malformed header", async () => {
    const attempts: Record<string, string>[] = [{}, { authorization: "Bearer wrong-key" }, { authorization: `Basic ${TEST_OPS_KEY}` }, { authorization: "Bearer" }];
    for (const headers of attempts) {
      const response = await ctx().raw("GET", "/api/ops/v1/pharmacies", undefined, headers);
      expect(response.statusCode).toBe(401);
      expect(response.json()).toMatchObject({ error: "unauthenticated" });
      expect(response.headers["www-authenticate"]).toMatch(/^Bearer/);
    }
  });

  it("creates a pharmacy key shown once and stored hashed, then revokes it at once", async () => {
    const pharmacy = (await ctx().ops("POST", "/api/ops/v1/pharmacies", pharmacyBody())).json().pharmacy;
    const created = await ctx().ops("POST", "/api/ops/v1/keys", { role: "pharmacy", pharmacy_id: pharmacy.id, name: "Harbor PMS" });
    expect(created.statusCode).toBe(201);
    const body = created.json();
    expect(body).toMatchObject({ role: "pharmacy", pharmacy_id: pharmacy.id, name: "Harbor PMS" });
    expect(Buffer.from(body.key, "base64url")).toHaveLength(32);
    const [row] = await ctx().database.db.select().from(apiKeys).where(eq(apiKeys.id, body.id));
    expect(row!.keyHash).toBe(hashToken(body.key));

    expect((await ctx().ops("GET", "/api/ops/v1/orders?limit=1", undefined, body.key)).statusCode).not.toBe(401);
    expect((await ctx().ops("DELETE", `/api/ops/v1/keys/${body.id}`)).statusCode).toBe(204);
    expect((await ctx().ops("GET", "/api/ops/v1/orders?limit=1", undefined, body.key)).statusCode).toBe(401);
    expect((await ctx().ops("DELETE", `/api/ops/v1/keys/${body.id}`)).statusCode).toBe(404);

    const trail = await ctx().database.db.select().from(auditEvents).where(eq(auditEvents.subject, `key:${body.id}`));
    expect(trail.map((event) => [event.action, event.apiKeyId])).toEqual([
      ["key_created", ctx().dispatchKeyId],
      ["key_revoked", ctx().dispatchKeyId],
    ]);
  });

  it("refuses bad key bodies with the field's path", async () => {
    const cases: [unknown, string][] = [
      [{ role: "pharmacy", name: "x" }, "body.pharmacy_id"],
      [{ role: "dispatch", pharmacy_id: 1, name: "x" }, "body.pharmacy_id"],
      [{ role: "admin", name: "x" }, "body.role"],
      [{ role: "dispatch" }, "body.name"],
      [{ role: "dispatch", name: "x".repeat(101) }, "body.name"],
      [{ role: "dispatch", name: "x", extra: true }, "body"],
    ];
    for (const [body, path] of cases) {
      const response = await ctx().ops("POST", "/api/ops/v1/keys", body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(response.json().details.map((d: { path: string }) => d.path)).toContain(path);
    }
    expect((await ctx().ops("POST", "/api/ops/v1/keys", { role: "pharmacy", pharmacy_id: 999999, name: "x" })).statusCode).toBe(404);
  });

  it("never accepts a pharmacy key for key management", async () => {
    const key = (await ctx().ops("POST", "/api/ops/v1/keys", { role: "pharmacy", pharmacy_id: 1, name: "Riverside" })).json().key;
    expect((await ctx().ops("POST", "/api/ops/v1/keys", { role: "dispatch", name: "escalate" }, key)).statusCode).toBe(403);
    expect((await ctx().ops("GET", "/api/ops/v1/keys", undefined, key)).statusCode).toBe(403);
  });

  it("lists every key with when it was made, last used and revoked, never the key nor its hash (issue 25)", async () => {
    const made = (await ctx().ops("POST", "/api/ops/v1/keys", { role: "pharmacy", pharmacy_id: 1, name: "Leaver's laptop" })).json();
    const unused = (await ctx().ops("POST", "/api/ops/v1/keys", { role: "dispatch", name: "Spare" })).json();
    expect((await ctx().ops("GET", "/api/ops/v1/orders?limit=1", undefined, made.key)).statusCode).toBe(200);
    expect((await ctx().ops("DELETE", `/api/ops/v1/keys/${made.id}`)).statusCode).toBe(204);

    const response = await ctx().ops("GET", "/api/ops/v1/keys");
    expect(response.statusCode).toBe(200);
    const { keys } = response.json() as { keys: Record<string, unknown>[] };
    const listed = keys.find((key) => key.id === made.id)!;
    expect(Object.keys(listed).sort()).toEqual(["created_at", "id", "last_used_at", "name", "pharmacy_id", "revoked_at", "role"]);
    expect(listed).toMatchObject({ role: "pharmacy", pharmacy_id: 1, name: "Leaver's laptop" });
    expect(Date.parse(listed.revoked_at as string)).toBeGreaterThanOrEqual(Date.parse(listed.created_at as string));
    expect(Date.parse(listed.last_used_at as string)).toBeGreaterThanOrEqual(Date.parse(listed.created_at as string));
    expect(keys.find((key) => key.id === unused.id)).toMatchObject({ role: "dispatch", pharmacy_id: null, last_used_at: null, revoked_at: null });
    expect(keys.find((key) => key.id === ctx().dispatchKeyId)).toMatchObject({ name: "OPS_API_KEY", revoked_at: null });
    expect(keys.map((key) => key.id)).toEqual([...keys.map((key) => key.id as number)].sort((a, b) => a - b));
    const hashes = await ctx().database.db.select({ keyHash: apiKeys.keyHash }).from(apiKeys);
    for (const secret of [made.key, unused.key, TEST_OPS_KEY, ...hashes.map((row) => row.keyHash)]) expect(response.body).not.toContain(secret);
  });

  it("writes a key's last use at most once a minute", async () => {
    const { id, key } = (await ctx().ops("POST", "/api/ops/v1/keys", { role: "dispatch", name: "Busy" })).json();
    expect((await ctx().ops("GET", "/api/ops/v1/pharmacies", undefined, key)).statusCode).toBe(200);
    const [first] = await ctx().database.db.select({ at: apiKeys.lastUsedAt }).from(apiKeys).where(eq(apiKeys.id, id));
    expect(first!.at).not.toBeNull();
    // Were each call written, the next one would overwrite this.
    const old = new Date("2026-01-01T00:00:00Z");
    await ctx().database.db.update(apiKeys).set({ lastUsedAt: old }).where(eq(apiKeys.id, id));
    expect((await ctx().ops("GET", "/api/ops/v1/pharmacies", undefined, key)).statusCode).toBe(200);
    const [second] = await ctx().database.db.select({ at: apiKeys.lastUsedAt }).from(apiKeys).where(eq(apiKeys.id, id));
    expect(second!.at).toEqual(old);
  });
});

describeOps(
  "ops API rate limit",
  (ctx) => {
    it("answers 429 past the per-key limit, in words, and other keys are not held up", async () => {
      const other = (await ctx().ops("POST", "/api/ops/v1/keys", { role: "pharmacy", pharmacy_id: 1, name: "Riverside" })).json().key;
      const statuses = [];
      for (let i = 0; i < 4; i++) statuses.push((await ctx().ops("GET", "/api/ops/v1/pharmacies")).statusCode);
      expect(statuses).toEqual([200, 200, 429, 429]);
      const refused = await ctx().ops("GET", "/api/ops/v1/pharmacies");
      expect(refused.json()).toMatchObject({ error: "rate_limited" });
      expect(Number(refused.headers["retry-after"])).toBeGreaterThan(0);
      // Counted per key: the other key is answered (403: a pharmacy key on a dispatch call), not held up.
      expect((await ctx().ops("GET", "/api/ops/v1/pharmacies", undefined, other)).statusCode).toBe(403);
    });
  },
  { OPS_REQUESTS_PER_MINUTE: "3" },
);
