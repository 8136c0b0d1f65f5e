import { describe, expect, it } from "vitest";
import { buildApp } from "../../server/app.ts";
import { loadConfig } from "../../server/config.ts";
import { TEST_DAY } from "../support/api-harness.ts";
import { databaseTargets } from "../support/databases.ts";
import { orderBody, TEST_OPS_KEY } from "../support/ops-harness.ts";

/** API keys are never logged: not OPS_API_KEY, not a created key, not an invitation token, not a patient's name (issue 15). */
for (const target of databaseTargets()) {
  describe(`ops logging [${target.name}]`, () => {
    it("writes no key, token or patient detail at trace level, even on refusals", async () => {
      const lines: string[] = [];
      const database = await target.openDemoDay();
      try {
        const config = { ...loadConfig({ OPS_API_KEY: TEST_OPS_KEY }), webRoot: "/nonexistent", logLevel: "trace" };
        const app = await buildApp({ config, database, today: () => TEST_DAY, logStream: { write: (line) => void lines.push(line) } });
        await app.ready();
        const call = (method: "POST" | "GET" | "DELETE", url: string, key: string, body?: unknown) =>
          app.inject({
            method,
            url,
            headers: { authorization: `Bearer ${key}`, ...(body ? { "content-type": "application/json" } : {}) },
            ...(body ? { payload: JSON.stringify(body) } : {}),
          });
        const created = (await call("POST", "/api/ops/v1/keys", TEST_OPS_KEY, { role: "pharmacy", pharmacy_id: 1, name: "PMS" })).json();
        await call("POST", "/api/ops/v1/orders", created.key, orderBody(1, "LOG-1", { patient_last_name: "Quixotically" }));
        const invite = (await call("POST", "/api/ops/v1/couriers", TEST_OPS_KEY, { first_name: "L", last_name: "G", email: "log@example.com" })).json();
        await call("DELETE", `/api/ops/v1/keys/${created.id}`, TEST_OPS_KEY);
        expect((await call("GET", "/api/ops/v1/orders", created.key)).statusCode).toBe(401);
        await app.close();
        const text = lines.join("\n");
        expect(lines.length).toBeGreaterThan(5);
        for (const secret of [TEST_OPS_KEY, created.key, invite.invite_token, "Quixotically"]) expect(text).not.toContain(secret);
      } finally {
        await database.close();
      }
    });
  });
}
