import fc from "fast-check";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { clientErrorLogRecord, errorName, routePattern, stackFrames } from "../../domain/contract/client-errors.ts";
import { buildApp } from "../../server/app.ts";
import { loadConfig } from "../../server/config.ts";
import type { Database } from "../../server/db/client.ts";
import { TEST_DAY } from "../support/api-harness.ts";
import { databaseTargets } from "../support/databases.ts";
import { courierIdOf, databaseDigest, makeSession, send, WRITABLE_TABLES } from "../support/security-fixtures.ts";

/**
 * POST /api/client_errors (docs/security.md "Client error reports"): render
 * failures and unexpected errors from the app, accepted with strict limits,
 * reduced to the error's class name, code locations and route, logged and never
 * stored, and rate-limited per address.
 */

const URL = "/api/client_errors";
const REPORT = { kind: "render", message: "Cannot read properties of undefined (reading 'map')", url: "https://courier.example/pharmacies/3/deliver_orders/41/payment" };

describe("what a client error report may say (the rules the app and the server share)", () => {
  const name = fc.constantFrom("Eleanor", "Abernathy", "Walter", "Brennan", "Nguyễn", "Ólafsdóttir", "Zhang", "O'Neil", "Price");
  const dob = fc.date({ min: new Date("1920-01-01"), max: new Date("2020-12-31"), noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10));
  const usDob = dob.map((iso) => `${iso.slice(5, 7)}/${iso.slice(8, 10)}/${iso.slice(0, 4)}`);
  const phone = fc.stringMatching(/^\(2\d\d\) 555-\d{4}$/);
  const idNumber = fc.stringMatching(/^[A-Z]\d{7}$/);
  const rx = fc.stringMatching(/^RX-\d{6}$/);
  const street = fc.tuple(fc.integer({ min: 100, max: 9999 }), fc.constantFrom("Pine St", "Spruce St", "Catharine St")).map(([n, s]) => `${n} ${s}`);
  const email = fc.emailAddress();

  it("keeps no name, date of birth, phone, ID or Rx number, street or email, wherever it sits in the message or the stack", () => {
    fc.assert(
      fc.property(
        fc.record({ first: name, last: name, dob: fc.oneof(dob, usDob), phone, idNumber, rx, street, email }),
        fc.constantFrom(
          (d: Record<string, string>) => `Cannot read 'dob' of ${d.first} ${d.last} born ${d.dob}`,
          (d: Record<string, string>) => `Unexpected token 'E', "${d.first} ${d.last}"... is not valid JSON`,
          (d: Record<string, string>) => `${d.first} is not defined at ${d.street}; call ${d.phone}`,
          (d: Record<string, string>) => `ID ${d.idNumber} for ${d.rx} rejected (${d.email})`,
          (d: Record<string, string>) => `TypeError: ${d.last}.${d.first} failed on ${d.dob}`,
        ),
        (data, template) => {
          const message = template(data as unknown as Record<string, string>);
          const stack = `${message}\n    at ${data.first} (https://courier.example/assets/index.js?p=${data.last}:1:2)`;
          const kept = JSON.stringify(clientErrorLogRecord({ kind: "render", message, stack, url: `/pharmacies/3/${data.last}?dob=${data.dob}` }));
          for (const value of Object.values(data)) expect(kept).not.toContain(value);
          expect(kept).not.toMatch(/\d{3}/);
        },
      ),
      { numRuns: 200 },
    );
  });

  it("keeps of the message only the error's class name", () => {
    expect(errorName("TypeError: Cannot read properties of undefined (reading 'map')")).toBe("TypeError");
    expect(errorName("ChunkLoadError: Loading chunk 12 failed.")).toBe("ChunkLoadError");
    expect(errorName("Eleanor Abernathy not found")).toBe("Error");
    expect(errorName("ELEANOR_ABERNATHYError: x")).toBe("Error");
    expect(errorName("x".repeat(5000))).toBe("Error");
  });

  it("keeps the route with its ids replaced, and no query string or fragment", () => {
    expect(routePattern("https://courier.example/pharmacies/12/deliver_orders/345/verify-dob?patient=Eleanor#dob")).toBe("/pharmacies/:id/deliver_orders/:id/verify-dob");
    expect(routePattern("/pharmacies/12/reconcile_details/cash")).toBe("/pharmacies/:id/reconcile_details/cash");
    expect(routePattern("/patients/Eleanor%20Abernathy/1948-03-14")).toBe("/patients/:id/:id");
    expect(routePattern("http://[::1")).toBe("/:unknown");
  });

  it("keeps code locations of the stack, not its message or query strings", () => {
    const stack = [
      "TypeError: Cannot read 'Eleanor Abernathy'",
      "    at OrderRow (https://courier.example/assets/index-abc.js?patient=Eleanor:1:2345)",
      "    at async load (https://courier.example/assets/x.js:5:6)",
      "render@https://courier.example/assets/y.js:7:8",
      "    at Eleanor Abernathy (data:text/html,Eleanor:1:1)",
    ].join("\n");
    expect(stackFrames(stack)).toEqual(["OrderRow /assets/index-abc.js:1:2345", "load /assets/x.js:5:6", "render /assets/y.js:7:8"]);
    expect(clientErrorLogRecord({ kind: "unhandled", message: "x", url: "/", stack: "Eleanor\n".repeat(100) }).frames).toEqual([]);
  });
});

for (const target of databaseTargets()) {
  describe(`POST /api/client_errors [${target.name}]`, () => {
    const lines: string[] = [];
    let app: FastifyInstance;
    let database: Database;

    beforeAll(async () => {
      database = await target.openDemoDay();
      const config = { ...loadConfig({ CLIENT_ERRORS_PER_MINUTE: "5" }), webRoot: "/nonexistent" };
      app = await buildApp({ config, database, today: () => TEST_DAY, logStream: { write: (line) => void lines.push(line) } });
      await app.ready();
    });
    afterAll(async () => {
      await app?.close();
      await database?.close();
    });

    const report = (json: unknown, remoteAddress = "10.1.0.1", extra: Partial<Parameters<typeof send>[1]> = {}) =>
      send(app, { method: "POST", url: URL, json, remoteAddress, ...extra });

    it("accepts a report without a session or CSRF token (a render failure can happen before login), logs no text of it, stores nothing", async () => {
      const before = await databaseDigest(database.db, WRITABLE_TABLES);
      const response = await report({ ...REPORT, message: "Cannot read 'dob' of Eleanor Abernathy born 1948-03-14", stack: "    at DobStep (https://courier.example/assets/index.js:1:99)" }, "10.1.0.2");
      expect(response.statusCode).toBe(204);
      expect(response.body).toBe("");
      expect(await databaseDigest(database.db, WRITABLE_TABLES)).toEqual(before);
      const logged = lines.map((line) => JSON.parse(line) as Record<string, unknown>).find((record) => record.msg === "client error reported");
      expect(logged?.client_error).toEqual({
        kind: "render",
        error_name: "Error",
        route: "/pharmacies/:id/deliver_orders/:id/payment",
        frames: ["/assets/index.js:1:99"],
        app_version: expect.stringMatching(/^\d+\.\d+\.\d+/),
        courier_id: null,
      });
      expect(lines.join("\n")).not.toMatch(/Eleanor|Abernathy|1948-03-14/);
    });

    it("finding 7: logs no free text from the phone, in any case or spelling of a name", async () => {
      const messages = [
        "TypeError: cannot read eleanor abernathy dob 03/14/1948",
        "Error: ELEANOR ABERNATHY not found",
        "Error: Rosa_Delgado x",
        "RangeError: rosa.delgado@example.com 215 555 0100",
      ];
      const start = lines.length;
      let address = 40;
      for (const message of messages) {
        const stack = `${message}\n    at eleanorAbernathy (https://courier.example/assets/index.js:1:99)\n    at https://evil.example/rosa_delgado.js:2:3`;
        expect((await report({ ...REPORT, message, stack }, `10.1.0.${address++}`)).statusCode).toBe(204);
      }
      // Times, pids and durations are numbers that can contain "555" or "1948" by chance: only the texts are checked.
      const logged = lines
        .slice(start)
        .map((line) => JSON.stringify(JSON.parse(line), (key, value: unknown) => (["time", "pid", "responseTime"].includes(key) ? undefined : value)))
        .join("\n");
      expect(logged).not.toMatch(/eleanor|abernathy|rosa|delgado|1948|555/i);
      const records = lines.slice(start).map((line) => JSON.parse(line) as { msg: string; client_error?: { error_name: string; frames: string[] } });
      const reported = records.filter((record) => record.msg === "client error reported").map((record) => record.client_error!);
      expect(reported.map((record) => record.error_name)).toEqual(["TypeError", "Error", "Error", "RangeError"]);
      expect(reported[0]!.frames).toEqual(["/assets/index.js:1:99"]);
    });

    it("notes the courier when a session came with it (an id, not patient data)", async () => {
      const session = await makeSession(database.db, await courierIdOf(database.db, "courier@example.com"));
      expect((await send(app, { method: "POST", url: URL, json: REPORT, remoteAddress: "10.1.0.3" }, { cookie: session.cookie })).statusCode).toBe(204);
      const records = lines.map((line) => JSON.parse(line) as { msg: string; client_error?: { courier_id: number | null } });
      expect(records.filter((r) => r.msg === "client error reported").at(-1)!.client_error!.courier_id).toBe(session.courierId);
    });

    it("refuses what is not a report: limits, unknown fields, wrong kind, not JSON", async () => {
      const cases: [unknown, number, Partial<Parameters<typeof send>[1]>?][] = [
        [{ ...REPORT, message: "x".repeat(2001) }, 400],
        [{ ...REPORT, url: "u".repeat(2049) }, 400],
        [{ ...REPORT, stack: "s".repeat(8001) }, 400],
        [{ ...REPORT, kind: "crash" }, 400],
        [{ ...REPORT, message: "" }, 400],
        [{ ...REPORT, patient: { name: "Eleanor Abernathy" } }, 400],
        [{ kind: "render", url: "/" }, 400],
        [{ ...REPORT, message: "m".repeat(1999), stack: "s".repeat(7999), url: "u".repeat(2047), padding: "p".repeat(10_000) }, 413],
        [undefined, 415, { raw: { contentType: "text/plain", body: "Eleanor Abernathy" } }],
        [undefined, 415, { raw: { contentType: "application/x-www-form-urlencoded", body: "kind=render&message=x&url=%2F" } }],
      ];
      let address = 10;
      for (const [json, status, extra] of cases) {
        const response = await report(json, `10.2.0.${address++}`, extra);
        expect(response.statusCode, response.body).toBe(status);
        expect(response.json()).toMatchObject({ error: expect.any(String), message: expect.any(String) });
      }
    });

    it("takes CLIENT_ERRORS_PER_MINUTE reports a minute from one address, then 429 with a clear message; other addresses go on", async () => {
      for (let i = 0; i < 5; i++) expect((await report(REPORT, "10.3.0.1")).statusCode).toBe(204);
      const limited = await report(REPORT, "10.3.0.1");
      expect(limited.statusCode).toBe(429);
      expect(limited.json()).toEqual({ error: "rate_limited", message: "Too many attempts. Please wait a minute and try again." });
      expect((await report(REPORT, "10.3.0.2")).statusCode).toBe(204);
    });
  });
}
