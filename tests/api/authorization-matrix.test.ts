import { eq } from "drizzle-orm";
import { expect, it } from "vitest";
import { TokenizeResponse } from "../../domain/contract/payments.ts";
import { returnFormEntries } from "../../domain/contract/returns.ts";
import { pharmacyVisits } from "../../server/db/schema.ts";
import { describeApi, DEMO_PASSWORD, type ApiContext } from "../support/api-harness.ts";
import {
  courierIdOf,
  databaseDigest,
  freshOrder,
  freshPharmacy,
  makeSession,
  pharmacyIdOf,
  routesOf,
  send,
  SIGNATURE_SVG,
  type RawRequest,
  type TestSession,
} from "../support/security-fixtures.ts";
import { OCCURRED } from "../support/instants.ts";

/**
 * Every endpoint of the built app × who is asking × whether the CSRF token
 * is sent. Each cell is "with token / without token". The owner is the demo
 * courier (Dana) whose order, visit or pharmacy the request names; "other"
 * is the second demo courier (Marcus) asking for the same thing; "expired"
 * is the owner's session past its absolute end; "none" sends no cookie (the
 * token it sends is a made-up one).
 *
 * The test fails on any cell that differs, on a route of the app missing
 * from this table (a new endpoint cannot slip in untested) and on a row of
 * the table the app does not have. Every refusal (4xx) must leave the
 * database exactly as it was.
 */
const MATRIX = `
endpoint                                                                         | none    | expired | other   | owner
POST   /api/sessions                                                             | 200 200 | 200 200 | 200 200 | 200 200
GET    /api/sessions/current                                                     | 401 401 | 401 401 | 200 200 | 200 200
HEAD   /api/sessions/current                                                     | 401 401 | 401 401 | 200 200 | 200 200
DELETE /api/sessions/current                                                     | 401 401 | 401 401 | 204 403 | 204 403
GET    /api/courier/itinerary                                                    | 401 401 | 401 401 | 200 200 | 200 200
HEAD   /api/courier/itinerary                                                    | 401 401 | 401 401 | 200 200 | 200 200
GET    /api/courier/payments/client_token                                        | 401 401 | 401 401 | 200 200 | 200 200
HEAD   /api/courier/payments/client_token                                        | 401 401 | 401 401 | 200 200 | 200 200
POST   /api/payments/sandbox/tokenize                                            | 401 401 | 401 401 | 200 403 | 200 403
PUT    /api/courier/orders/:id/authorize                                         | 401 401 | 401 401 | 404 403 | 200 403
PUT    /api/courier/orders/:id                                                   | 401 401 | 401 401 | 404 403 | 200 403
POST   /api/courier/deliveries                                                   | 401 401 | 401 401 | 404 403 | 200 403
PUT    /api/orders/:id                                                           | 401 401 | 401 401 | 404 403 | 200 403
POST   /api/orders/:id/pickups                                                   | 401 401 | 401 401 | 404 403 | 200 403
POST   /api/courier/cancellation                                                 | 401 401 | 401 401 | 404 403 | 200 403
GET    /api/courier/pharmacies/:id/addons                                        | 401 401 | 401 401 | 404 404 | 200 200
HEAD   /api/courier/pharmacies/:id/addons                                        | 401 401 | 401 401 | 404 404 | 200 200
POST   /api/courier/pharmacies/:id/addons                                        | 401 401 | 401 401 | 404 403 | 200 403
POST   /api/courier/pharmacies/:id/returns                                       | 401 401 | 401 401 | 400 403 | 200 403
PUT    /api/couriers/:courierId/pharmacy_visits/:visitId/arrived_at_pharmacy     | 401 401 | 401 401 | 404 403 | 200 403
POST   /api/couriers/:courierId/pharmacy_visits/confirm                          | 401 401 | 401 401 | 404 403 | 200 403
GET    /api/routed_orders                                                        | 401 401 | 401 401 | 404 404 | 200 200
HEAD   /api/routed_orders                                                        | 401 401 | 401 401 | 404 404 | 200 200
POST   /api/courier/password                                                     | 400 400 | 400 400 | 400 400 | 400 400
POST   /api/client_errors                                                        | 204 204 | 204 204 | 204 204 | 204 204
GET    /api/openapi.json                                                         | 200 200 | 200 200 | 200 200 | 200 200
HEAD   /api/openapi.json                                                         | 200 200 | 200 200 | 200 200 | 200 200
GET    /api/health                                                               | 200 200 | 200 200 | 200 200 | 200 200
HEAD   /api/health                                                               | 200 200 | 200 200 | 200 200 | 200 200
`;
// "other" on returns is 400: the form names the owner as its courier_id, and a form for another courier is refused before anything is looked up.

const WHO = ["none", "expired", "other", "owner"] as const;
type Who = (typeof WHO)[number];
type Row = Record<Who, [withCsrf: number, withoutCsrf: number]>;

function parseMatrix(text: string): Map<string, Row> {
  const rows = new Map<string, Row>();
  for (const line of text.trim().split("\n").slice(1)) {
    const [endpoint, ...cells] = line.split("|").map((part) => part.trim());
    const [method, path] = endpoint!.split(/\s+/);
    const row = Object.fromEntries(
      WHO.map((who, index) => {
        const [withCsrf, withoutCsrf] = cells[index]!.split(/\s+/).map(Number);
        return [who, [withCsrf!, withoutCsrf!]];
      }),
    ) as Row;
    rows.set(`${method} ${path}`, row);
  }
  return rows;
}

const EXPECTED = parseMatrix(MATRIX);

interface Fixture {
  ownerId: number;
  otherId: number;
  /** A live session of the owner's, for setting up what a row needs. */
  setup: TestSession;
}

type Builder = (api: ApiContext, fixture: Fixture) => Promise<Omit<RawRequest, "method">>;

/** A realistic, valid request per endpoint, on data of its own: the owner's cell with the token must succeed. */
const REQUESTS: Record<string, Builder> = {
  "POST /api/sessions": async () => ({ url: "/api/sessions", json: { email: "courier@example.com", password: DEMO_PASSWORD } }),
  // Needs no session or token, like login; a cookie gives it nothing: an unknown invitation is 400 for everyone
  // (the single-use success is in tests/api/ops-couriers.test.ts).
  "POST /api/courier/password": async () => ({ url: "/api/courier/password", json: { token: "no-such-invitation", password: "a long enough passphrase" } }),
  "GET /api/sessions/current": async () => ({ url: "/api/sessions/current" }),
  "DELETE /api/sessions/current": async () => ({ url: "/api/sessions/current" }),
  "GET /api/courier/itinerary": async () => ({ url: "/api/courier/itinerary" }),
  "GET /api/courier/payments/client_token": async () => ({ url: "/api/courier/payments/client_token" }),
  "POST /api/payments/sandbox/tokenize": async () => ({
    url: "/api/payments/sandbox/tokenize",
    json: { number: "4111111111111111", cvv: "123", expiration_date: "12/39" },
  }),
  "PUT /api/courier/orders/:id/authorize": async (api, { ownerId, setup }) => {
    const db = api.database.db;
    const id = await freshOrder(db, { courierId: ownerId, pharmacyId: await pharmacyIdOf(db, "Market Street Apothecary"), status: "picked_up", copayCents: 2000 });
    return { url: `/api/courier/orders/${id}/authorize`, json: authorizeBody("20.00", await nonce(api, setup)) };
  },
  "PUT /api/courier/orders/:id": async (api, { ownerId, setup }) => {
    const db = api.database.db;
    const id = await freshOrder(db, { courierId: ownerId, pharmacyId: await pharmacyIdOf(db, "Market Street Apothecary"), status: "picked_up", copayCents: 1500 });
    const authorized = await send(api.app, { method: "PUT", url: `/api/courier/orders/${id}/authorize`, json: authorizeBody("15.00", await nonce(api, setup)) }, setup);
    if (authorized.statusCode !== 200) throw new Error(`authorize for charge data: ${authorized.body}`);
    const { transaction_id } = authorized.json() as { transaction_id: string };
    return { url: `/api/courier/orders/${id}`, json: { delivery: { charge_data: { transaction_id, amount: "15.00" } } } };
  },
  "POST /api/courier/deliveries": async (api, { ownerId }) => {
    const db = api.database.db;
    const id = await freshOrder(db, { courierId: ownerId, pharmacyId: await pharmacyIdOf(db, "Greenway Health Pharmacy"), status: "picked_up" });
    return { url: "/api/courier/deliveries", json: { delivery: { failure_reason: "Patient Not Home", client_occurred_at: OCCURRED, order_ids: [id] } } };
  },
  "PUT /api/orders/:id": async (api, { ownerId }) => {
    const db = api.database.db;
    const id = await freshOrder(db, { courierId: ownerId, pharmacyId: await pharmacyIdOf(db, "Riverside Community Pharmacy"), status: "submitted_to_courier", copayCents: 1250 });
    return { url: `/api/orders/${id}`, json: { order: { copay: "12.50" } } };
  },
  "POST /api/orders/:id/pickups": async (api, { ownerId }) => {
    const db = api.database.db;
    const id = await freshOrder(db, { courierId: ownerId, pharmacyId: await pharmacyIdOf(db, "Riverside Community Pharmacy"), status: "submitted_to_courier" });
    return { url: `/api/orders/${id}/pickups`, json: { client_occurred_at: OCCURRED } };
  },
  "POST /api/courier/cancellation": async (api, { ownerId }) => {
    const db = api.database.db;
    const id = await freshOrder(db, { courierId: ownerId, pharmacyId: await pharmacyIdOf(db, "Riverside Community Pharmacy"), status: "submitted_to_courier" });
    return { url: "/api/courier/cancellation", json: { order_id: id } };
  },
  "GET /api/courier/pharmacies/:id/addons": async (api) => ({
    url: `/api/courier/pharmacies/${await pharmacyIdOf(api.database.db, "Northside Family Drugs")}/addons`,
  }),
  "POST /api/courier/pharmacies/:id/addons": async (api) => {
    const db = api.database.db;
    const pharmacyId = await pharmacyIdOf(db, "Northside Family Drugs");
    const id = await freshOrder(db, { courierId: null, pharmacyId, status: "submitted_to_courier", copayCents: 500, addon: true });
    return { url: `/api/courier/pharmacies/${pharmacyId}/addons`, json: { orders: [{ id, copay: "5.00" }], service_window_instance_id: null } };
  },
  "POST /api/courier/pharmacies/:id/returns": async (api, { ownerId }) => {
    const db = api.database.db;
    const pharmacyId = await freshPharmacy(db, ownerId, "Matrix Returns Pharmacy");
    const id = await freshOrder(db, { courierId: ownerId, pharmacyId, status: "delivery_attempted", copayCents: 700, feeCents: 300 });
    return {
      url: `/api/courier/pharmacies/${pharmacyId}/returns`,
      form: returnFormEntries({
        recipient_first_name: "Priya",
        recipient_last_name: "Staff",
        signature_svg: SIGNATURE_SVG,
        courier_id: ownerId,
        pharmacy_id: pharmacyId,
        cash_collected: "0.00",
        check_collected: "0.00",
        latitude: null,
        longitude: null,
        returns: [{ type: "item", amount: "10.00", order_id: id }],
      }),
    };
  },
  "PUT /api/couriers/:courierId/pharmacy_visits/:visitId/arrived_at_pharmacy": async (api, { ownerId }) => {
    const visitId = await visitOf(api, ownerId, "Riverside Community Pharmacy");
    return { url: `/api/couriers/${ownerId}/pharmacy_visits/${visitId}/arrived_at_pharmacy`, json: {} };
  },
  "POST /api/couriers/:courierId/pharmacy_visits/confirm": async (api, { ownerId }) => {
    const visitId = await visitOf(api, ownerId, "Lakeside Specialty Pharmacy");
    return { url: `/api/couriers/${ownerId}/pharmacy_visits/confirm`, json: { pharmacy_visits: [{ id: visitId, confirmed: true }] } };
  },
  "GET /api/routed_orders": async (api, { ownerId }) => {
    const db = api.database.db;
    const pharmacyId = await pharmacyIdOf(db, "Greenway Health Pharmacy");
    const a = await freshOrder(db, { courierId: ownerId, pharmacyId, status: "picked_up" });
    const b = await freshOrder(db, { courierId: ownerId, pharmacyId, status: "picked_up" });
    return { url: `/api/routed_orders?pharmacy_id=${pharmacyId}&order_ids[]=${a}&order_ids[]=${b}` };
  },
  "POST /api/client_errors": async () => ({
    url: "/api/client_errors",
    json: { kind: "render", message: "Cannot read properties of undefined (reading 'map')", url: "https://courier.example/pharmacies/4/deliver_orders" },
  }),
  "GET /api/openapi.json": async () => ({ url: "/api/openapi.json" }),
  "GET /api/health": async () => ({ url: "/api/health" }),
};
for (const endpoint of Object.keys(REQUESTS).filter((key) => key.startsWith("GET "))) {
  REQUESTS[endpoint.replace(/^GET /, "HEAD ")] = REQUESTS[endpoint]!;
}

function authorizeBody(total: string, token: string) {
  return { delivery: { order_payment: { payment_type: "credit_card", token, email: "", new_copay: null, total, braintree_transaction_id: null } } };
}

async function nonce(api: ApiContext, session: TestSession): Promise<string> {
  const response = await send(
    api.app,
    { method: "POST", url: "/api/payments/sandbox/tokenize", json: { number: "4111111111111111", cvv: "123", expiration_date: "12/39" } },
    session,
  );
  return TokenizeResponse.parse(response.json()).nonce;
}

async function visitOf(api: ApiContext, courierId: number, pharmacyName: string): Promise<number> {
  const db = api.database.db;
  const pharmacyId = await pharmacyIdOf(db, pharmacyName);
  const visits = await db.select().from(pharmacyVisits).where(eq(pharmacyVisits.courierId, courierId));
  const visit = visits.find((candidate) => candidate.pharmacyId === pharmacyId);
  if (!visit) throw new Error(`no visit at ${pharmacyName}`);
  return visit.id;
}

describeApi("authorization matrix", (api) => {
  it("has one row for every route of the app, and no row for a route it does not have", () => {
    // The operations API (Bearer keys, no cookie) has its own matrix: tests/api/ops-authorization-matrix.test.ts.
    const routes = routesOf(api().app).filter((route) => !route.includes(" /api/ops/"));
    expect(routes.length).toBeGreaterThan(20);
    expect(routes).toEqual([...EXPECTED.keys()].sort());
    expect(Object.keys(REQUESTS).sort()).toEqual([...EXPECTED.keys()].sort());
  });

  for (const [endpoint, expected] of EXPECTED) {
    it(`${endpoint}: ${WHO.map((who) => `${who} ${expected[who].join("/")}`).join(", ")}`, async () => {
      const { app, database } = api();
      const db = database.db;
      const ownerId = await courierIdOf(db, "courier@example.com");
      const otherId = await courierIdOf(db, "courier2@example.com");
      const fixture: Fixture = { ownerId, otherId, setup: await makeSession(db, ownerId) };
      const method = endpoint.split(" ")[0] as RawRequest["method"];
      const request = { method, ...(await REQUESTS[endpoint]!(api(), fixture)) };

      // Refusals first, so the one success that changes the data runs on data no refusal touched.
      const cells = WHO.flatMap((who) => [true, false].map((csrf) => ({ who, csrf, status: expected[who][csrf ? 0 : 1] })));
      cells.sort((a, b) => Number(a.status < 400) - Number(b.status < 400));

      const actual: Record<string, number> = {};
      const wanted: Record<string, number> = {};
      const changed: string[] = [];
      for (const cell of cells) {
        const session = await sessionFor(cell.who);
        const before = cell.status >= 400 ? await databaseDigest(db) : null;
        const response = await send(app, request, {
          cookie: session?.cookie,
          csrfToken: cell.csrf ? (session?.csrfToken ?? "made-up-token") : undefined,
        });
        const key = `${cell.who} ${cell.csrf ? "with" : "without"} token`;
        actual[key] = response.statusCode;
        wanted[key] = cell.status;
        if (response.statusCode >= 400 && method !== "HEAD") {
          expect(response.json(), `${key}: ${response.body}`).toMatchObject({ error: expect.any(String), message: expect.any(String) });
        }
        if (before) {
          const after = await databaseDigest(db);
          const tables = Object.keys(before).filter((table) => before[table] !== after[table]);
          if (tables.length) changed.push(`${key} changed ${tables.join(", ")}`);
        }
      }
      expect(actual).toEqual(wanted);
      expect(changed).toEqual([]);

      async function sessionFor(who: Who): Promise<TestSession | null> {
        switch (who) {
          case "none":
            return null;
          case "expired":
            return makeSession(db, ownerId, "expired");
          case "other":
            return makeSession(db, otherId);
          case "owner":
            return makeSession(db, ownerId);
        }
      }
    });
  }
});
