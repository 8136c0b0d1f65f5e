import { eq, sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { deliveryFormEntries } from "../../domain/contract/deliveries.ts";
import { buildApp } from "../../server/app.ts";
import { loadConfig } from "../../server/config.ts";
import type { Database } from "../../server/db/client.ts";
import { orders } from "../../server/db/schema.ts";
import { DEMO_PASSWORD, TEST_DAY } from "../support/api-harness.ts";
import { databaseTargets } from "../support/databases.ts";
import { courierIdOf, freshOrder, makeSession, pharmacyIdOf, send, SIGNATURE_SVG, type TestSession } from "../support/security-fixtures.ts";
import { OCCURRED } from "../support/instants.ts";

/**
 * docs/security.md "Logs": the server's structured logs never hold patient
 * data, ID numbers, card numbers, passwords, session ids or CSRF tokens. The
 * real app logs at trace level into memory while a courier logs in, reads
 * the day, completes a delivery with an ID check, sends a client error full
 * of patient data, asks for paths and query strings with patient data in
 * them, and a probe route logs headers and body by hand and then fails in
 * the database with patient data in the query's parameters.
 */

const PATIENT = { first: "Zebulon", last: "Quartermaine", dob: "1948-03-14", street: "7741 Wisteria Lane", phone: "2155550177" };
const ID_NUMBER = "D7418529";
const CARD = "4111111111111111";
const PROBE = "/api/test/log-probe";

for (const target of databaseTargets()) {
  describe(`log redaction [${target.name}]`, () => {
    const lines: string[] = [];
    let app: FastifyInstance;
    let database: Database;
    let session: TestSession;
    const secrets: string[] = [];

    beforeAll(async () => {
      database = await target.openDemoDay();
      const config = { ...loadConfig({}), webRoot: "/nonexistent", loginAttemptsPerMinute: 1000, loginAttemptsPerAddressPerMinute: 1000, logLevel: "trace" };
      app = await buildApp({ config, database, today: () => TEST_DAY, logStream: { write: (line) => void lines.push(line) } });
      app.post(PROBE, async (request) => {
        // What a careless handler might log: every header and the body.
        request.log.info({ headers: request.headers, body: request.body, req: request }, "probe: logging the request by hand");
        await database.db.execute(sql`select ${`${PATIENT.first} ${PATIENT.last} ${PATIENT.dob}`}::date`);
        return { ok: true };
      });
      await app.ready();
      session = await makeSession(database.db, await courierIdOf(database.db, "courier@example.com"));
      secrets.push(session.token, session.csrfToken);
    });
    afterAll(async () => {
      await app?.close();
      await database?.close();
    });

    it("logs each request as method, route pattern and numeric ids, and nothing a courier typed", async () => {
      const db = database.db;
      const login = await send(app, { method: "POST", url: "/api/sessions", json: { email: "courier@example.com", password: DEMO_PASSWORD } });
      expect(login.statusCode).toBe(200);
      secrets.push(login.cookies.find((c) => c.name === "rxc_session")!.value, (login.json() as { csrf_token: string }).csrf_token);

      const orderId = await freshOrder(db, { courierId: session.courierId, pharmacyId: await pharmacyIdOf(db, "Market Street Apothecary"), status: "picked_up" });
      await db
        .update(orders)
        .set({ patientFirstName: PATIENT.first, patientLastName: PATIENT.last, patientDateOfBirth: PATIENT.dob, streetAddress: PATIENT.street, phoneNumber: PATIENT.phone, collectIdentification: true })
        .where(eq(orders.id, orderId));

      expect((await send(app, { method: "GET", url: "/api/courier/itinerary" }, session)).statusCode).toBe(200);
      const delivered = await send(
        app,
        {
          method: "POST",
          url: "/api/courier/deliveries",
          form: deliveryFormEntries({
            order_ids: [orderId],
            signature_svg: SIGNATURE_SVG,
            body: null,
            signed_by: `${PATIENT.first} ${PATIENT.last}`,
            dob_verified: true,
            recipient_called_at: null,
            client_occurred_at: OCCURRED,
            relationship_id: 1,
            recipient_first_name: null,
            recipient_last_name: null,
            other_relationship_description: null,
            survey: { have_you_left_prescription_at_pharmacy: null, use_delivery_service_again: null, refill_reminder_opt_in: null },
            order_payment: null,
            identification_state: "PA",
            identification_type: "driver",
            identification_number: ID_NUMBER,
            identification_expiration: "2030-01-31",
            signature_refusal_reason: null,
          }),
        },
        session,
      );
      expect(delivered.statusCode, delivered.body).toBe(200);

      const tokenized = await send(app, { method: "POST", url: "/api/payments/sandbox/tokenize", json: { number: CARD, cvv: "123", expiration_date: "12/39" } }, session);
      expect(tokenized.statusCode).toBe(200);
      const report = await send(app, {
        method: "POST",
        url: "/api/client_errors",
        json: {
          kind: "render",
          message: `Cannot read 'dob' of ${PATIENT.first} ${PATIENT.last} born ${PATIENT.dob} at ${PATIENT.street}, ID ${ID_NUMBER}`,
          url: `https://courier.example/pharmacies/2/deliver_orders/${orderId}/verify-dob?patient=${PATIENT.last}`,
          stack: `TypeError: x\n    at DobStep (https://courier.example/assets/index-1a2b.js:1:2345)`,
        },
      });
      expect(report.statusCode).toBe(204);

      const lookups = [
        `/api/courier/itinerary?patient=${PATIENT.first}+${PATIENT.last}&dob=${PATIENT.dob}`,
        `/api/patients/${PATIENT.first}-${PATIENT.last}/${PATIENT.dob}`,
        `/api/routed_orders?pharmacy_id=1&order_ids[]=${orderId}&note=${ID_NUMBER}`,
      ];
      for (const url of lookups) await send(app, { method: "GET", url }, session);

      const probe = await send(app, { method: "POST", url: PROBE, json: { patient: `${PATIENT.first} ${PATIENT.last}`, password: DEMO_PASSWORD, id: ID_NUMBER } }, session);
      expect(probe.statusCode).toBe(500);
      expect(probe.body).not.toContain(PATIENT.last);

      // Everything that went to the log: plenty of it, and none of the secrets.
      expect(lines.length).toBeGreaterThan(20);
      const records = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
      const forbidden = [PATIENT.first, PATIENT.last, PATIENT.dob, PATIENT.street, PATIENT.phone, ID_NUMBER, CARD, DEMO_PASSWORD, "Wisteria", "stroke-width", ...secrets];
      const leaks = forbidden.filter((secret) => lines.some((line) => line.includes(secret)));
      expect(leaks).toEqual([]);

      // Requests are there, by pattern.
      const routes = records.filter((r) => r.msg === "incoming request").map((r) => (r.req as { route: string }).route);
      expect(routes).toEqual(
        expect.arrayContaining(["/api/sessions", "/api/courier/itinerary", "/api/courier/deliveries", "/api/client_errors", "/api/routed_orders", "/api/patients/:id/:id", PROBE]),
      );
      const completed = records.filter((r) => r.msg === "request completed");
      expect(completed.length).toBe(routes.length);

      // The hand-made log line is there, with its dangerous parts censored.
      const byHand = records.find((r) => r.msg === "probe: logging the request by hand")!;
      expect(byHand.body).toBe("[redacted]");
      expect((byHand.headers as Record<string, unknown>).cookie).toBe("[redacted]");
      expect((byHand.headers as Record<string, unknown>)["x-csrf-token"]).toBe("[redacted]");

      // The database error is logged, as what went wrong, without the data.
      const failure = records.find((r) => r.msg === "unhandled error")!;
      const err = failure.err as { type: string; message: string; stack: string; cause?: { message: string } };
      expect(err.message).toContain("Failed query");
      expect(err.message).toContain("params: [redacted]");
      expect(err.stack).toMatch(/\bat /);

      // The client error report is logged without any free text from the phone (issue 14 finding 7).
      const clientError = records.find((r) => r.msg === "client error reported")!.client_error as Record<string, unknown>;
      expect(clientError).toMatchObject({ kind: "render", error_name: "Error", route: "/pharmacies/:id/deliver_orders/:id/verify-dob", frames: ["/assets/index-1a2b.js:1:2345"] });
      expect(clientError).not.toHaveProperty("message");
      expect(typeof clientError.app_version).toBe("string");
    });
  });
}
