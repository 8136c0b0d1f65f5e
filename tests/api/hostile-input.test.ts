import fc from "fast-check";
import { eq, sql } from "drizzle-orm";
import { expect, it } from "vitest";
import { deliveryFormEntries, SIGNATURE_MAX_BYTES, type DeliveryCompletion } from "../../domain/contract/deliveries.ts";
import type { FormValue } from "../../domain/contract/form-fields.ts";
import { TokenizeResponse } from "../../domain/contract/payments.ts";
import { returnFormEntries } from "../../domain/contract/returns.ts";
import { orders, pharmacyVisits } from "../../server/db/schema.ts";
import { cardBehaviour } from "../../server/payments/sandbox-cards.ts";
import { describeApi, DEMO_PASSWORD, type ApiContext } from "../support/api-harness.ts";
import {
  courierIdOf,
  databaseDigest,
  freshOrder,
  freshPharmacy,
  makeSession,
  pharmacyIdOf,
  send,
  SIGNATURE_SVG,
  WRITABLE_TABLES,
  type RawRequest,
  type TestSession,
} from "../support/security-fixtures.ts";
import { OCCURRED } from "../support/instants.ts";

/**
 * Every mutating endpoint gets malformed, oversized, wrongly typed,
 * negative-money, unicode and injection-shaped input (fast-check), starting
 * from a valid request for data of its own. Each run must be refused with a
 * 4xx and a JSON {error, message} a person can read, never a 500, and must
 * leave every table as it was. After the runs, the unmodified request must
 * succeed: the refusals came from the hostile input, not from the fixture.
 */

const RUNS = Number(process.env.HOSTILE_RUNS ?? 50);
/** Beyond every JSON body limit (256 KB). */
const OVERSIZED = 300 * 1024;

// ---------------------------------------------------------------- hostile values, each invalid wherever it is used

const injection = [
  "'; DROP TABLE orders; --",
  "1 OR 1=1",
  "<script>alert(1)</script>",
  "{{7*7}}",
  "${process.exit(1)}",
  "../../etc/passwd",
  "\u0000",
  "%00",
  "\u202e\u0645\u0631\u062d\u0628\u0627",
  "💊💊💊",
  "１２.５０",
  "Ｅｌｅａｎｏｒ",
];

// Finite numbers only: JSON writes NaN and Infinity as null, which some fields accept.
const finite = fc.double({ noNaN: true, noDefaultInfinity: true });
const wrongType = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  finite,
  fc.array(fc.integer(), { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 5 }), fc.integer(), { maxKeys: 3 }),
);
const wrongTypeNotNull = wrongType.filter((value) => value !== null);

/** Never a Money string ("12.50"): negative, too many places, words, lookalike digits, injection. */
const badMoney = fc.oneof(
  fc.constantFrom("-5.00", "-0.01", "5", "5.0", "5.001", "1e3", "12,50", "$12.50", " ", "", "NaN", "Infinity", "0x10", ...injection),
  fc.integer({ min: -100_000, max: -1 }).map((cents) => `-${Math.abs(cents / 100).toFixed(2)}`),
  finite,
  // Well formed, but past what a number of cents can hold exactly.
  fc.stringMatching(/^[1-9]\d{16,23}\.\d{2}$/),
  wrongTypeNotNull,
);
/** An amount that is well formed but never owed by the fixture: under a dollar, or beyond PostgreSQL's integer of cents. */
const wrongAmount = fc.oneof(fc.constantFrom("0.01", "0.99", "0.50"), fc.stringMatching(/^[1-9]\d{10,19}\.\d{2}$/));

/** Never a usable id: zero, negative, fractional, beyond PostgreSQL's integer, text, or no such row. */
const badId = fc.oneof(
  fc.integer({ max: 0 }),
  fc.integer({ min: 2 ** 31, max: Number.MAX_SAFE_INTEGER }),
  fc.double({ min: 0.001, max: 1e6, noNaN: true }).filter((n) => !Number.isInteger(n)),
  fc.constantFrom(1e308, "1", "1 OR 1=1", "", ...injection),
  fc.integer({ min: 50_000_000, max: 2 ** 31 - 1 }),
  wrongTypeNotNull,
);
const badInstant = fc.oneof(
  fc.constantFrom("this morning", "2026-13-40T99:99:99Z", "2026-11-21", "2026-11-21T15:04:05", "", "２０２６-11-21T15:04:05Z", ...injection),
  fc.integer(),
  wrongTypeNotNull,
);
const badEnum = (values: readonly string[]) =>
  fc.oneof(
    fc.string({ maxLength: 40, unit: "binary" }).filter((s) => !values.includes(s)),
    fc.constantFrom(...values).map((value) => `${value}\u200b`),
    fc.constantFrom(...values).map((value) => value.toUpperCase() + "'; --"),
    wrongType,
  );
/** Longer than `max` characters as the contract counts them (code points: "💊" is one). */
const tooLong = (max: number) =>
  fc.oneof(
    fc.string({ minLength: max + 1, maxLength: max + 40, unit: "binary" }).filter((s) => [...s].length > max),
    fc.constantFrom("💊".repeat(max + 1), "x".repeat(max * 4 + 1)),
  );
const badText = (max: number, options: { emptyIsBad?: boolean } = {}) =>
  fc.oneof(tooLong(max), wrongTypeNotNull, ...(options.emptyIsBad ? [fc.constant("")] : []));

/** Path ids that name nothing of the courier's. */
const badPathId = fc.constantFrom("0", "-1", "1.5", "abc", "2147483648", "99999999999999999999", "%27%20OR%201%3D1--", "%00", "%F0%9F%92%8A", "98765432", "1%20OR%201");

// ---------------------------------------------------------------- requests built from a valid one

type Path = (string | number)[];
interface Leaf {
  path: Path;
  invalid: fc.Arbitrary<unknown>;
}

/** The body with one leaf replaced; when an earlier replacement removed the leaf's parent, the body stays as it is. */
function withLeaf(body: unknown, path: Path, value: unknown): unknown {
  const copy = structuredClone(body) as Record<string | number, unknown>;
  let node: unknown = copy;
  for (const key of path.slice(0, -1)) {
    node = node !== null && typeof node === "object" ? (node as Record<string | number, unknown>)[key] : undefined;
  }
  if (node !== null && typeof node === "object") (node as Record<string | number, unknown>)[path[path.length - 1]!] = value;
  return copy;
}

/** The URL with one of its numeric path segments replaced. */
function urlVariants(url: string): fc.Arbitrary<string> | null {
  const [path, query] = url.split("?");
  const segments = path!.split("/");
  const numeric = segments.map((segment, index) => (/^\d+$/.test(segment) ? index : -1)).filter((index) => index >= 0);
  if (numeric.length === 0) return null;
  return fc.tuple(fc.constantFrom(...numeric), badPathId).map(([index, id]) => {
    const copy = [...segments];
    copy[index] = id;
    return copy.join("/") + (query ? `?${query}` : "");
  });
}

const malformedJson = fc.oneof(
  fc.constantFrom('{"a":', "{", "[1,2", "nul", '{"order": }', '{"a":1}}', "\u0000", "{'a': 1}", '{"a": NaN}', '{"a": 01}'),
  fc.string({ maxLength: 40, unit: "binary" }).filter((text) => {
    try {
      JSON.parse(text);
      return false;
    } catch {
      return true;
    }
  }),
);

const poisoned = fc.constantFrom(
  '{"__proto__": {"polluted": true}}',
  '{"constructor": {"prototype": {"polluted": true}}}',
  '{"delivery": {"__proto__": {"polluted": true}}}',
);

/** The whole-request attacks every JSON endpoint gets. */
function wholeBodyAttacks(method: RawRequest["method"], url: string, options: { nullBodyOk: boolean }): fc.Arbitrary<RawRequest>[] {
  const nonObject = fc.oneof(fc.integer(), fc.string({ maxLength: 20 }), fc.array(fc.anything(), { maxLength: 3 }), fc.boolean(), ...(options.nullBodyOk ? [] : [fc.constant(null)]));
  return [
    malformedJson.map((text) => ({ method, url, raw: { contentType: "application/json", body: text } })),
    poisoned.map((text) => ({ method, url, raw: { contentType: "application/json", body: text } })),
    nonObject.map((value) => ({ method, url, json: JSON.stringify(value) })),
    fc
      .tuple(fc.constantFrom("text/xml", "application/x-www-form-urlencoded", "application/octet-stream", "image/svg+xml"), fc.string({ maxLength: 40 }))
      .map(([contentType, body]) => ({ method, url, raw: { contentType, body: body || "x" } })),
    fc.integer({ min: OVERSIZED, max: OVERSIZED * 2 }).map((size) => ({ method, url, raw: { contentType: "application/json", body: `{"x":"${"a".repeat(size)}"}` } })),
    fc.integer({ min: 2_000, max: 20_000 }).map((depth) => ({ method, url, raw: { contentType: "application/json", body: "[".repeat(depth) + "]".repeat(depth) } })),
  ];
}

function jsonAttacks(base: { method: RawRequest["method"]; url: string; json: unknown }, leaves: Leaf[], options: { nullBodyOk?: boolean } = {}) {
  const { method, url, json } = base;
  const attacks: fc.Arbitrary<RawRequest>[] = wholeBodyAttacks(method, url, { nullBodyOk: options.nullBodyOk ?? false });
  if (leaves.length > 0) {
    attacks.push(
      fc.constantFrom(...leaves).chain((leaf) => leaf.invalid.map((value) => ({ method, url, json: withLeaf(json, leaf.path, value) }))),
      // Two leaves at once: one bad value does not hide another.
      fc
        .tuple(fc.constantFrom(...leaves), fc.constantFrom(...leaves))
        .chain(([a, b]) => fc.tuple(a.invalid, b.invalid).map(([x, y]) => ({ method, url, json: withLeaf(withLeaf(json, a.path, x), b.path, y) }))),
    );
  }
  const urls = urlVariants(url);
  if (urls) attacks.push(urls.map((hostileUrl) => ({ method, url: hostileUrl, json })));
  return fc.oneof(...attacks);
}

// ---------------------------------------------------------------- multipart

type Entries = [string, FormValue][];
const svgFile = (content: string, type = "image/svg+xml", filename = "signature.svg"): FormValue => ({ filename, type, content });

/** Signatures that are not a drawing: script, handlers, foreignObject, links, entities, styles, text. */
const hostileSvg = fc.constantFrom(
  '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(document.cookie)</script><path d="M0 0L1 1"/></svg>',
  '<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><path d="M0 0L1 1"/></svg>',
  '<svg xmlns="http://www.w3.org/2000/svg"><path d="M0 0L1 1" onclick="alert(1)"/></svg>',
  '<svg xmlns="http://www.w3.org/2000/svg"><foreignObject><iframe src="javascript:alert(1)"></iframe></foreignObject><path d="M0 0L1 1"/></svg>',
  '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"><image xlink:href="https://evil.example/x.png"/><path d="M0 0L1 1"/></svg>',
  '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"><use xlink:href="https://evil.example/s.svg#a"/><path d="M0 0L1 1"/></svg>',
  '<svg xmlns="http://www.w3.org/2000/svg"><a href="javascript:alert(1)"><path d="M0 0L1 1"/></a></svg>',
  '<svg xmlns="http://www.w3.org/2000/svg"><path d="M0 0L1 1" fill="url(https://evil.example/#x)"/></svg>',
  '<svg xmlns="http://www.w3.org/2000/svg"><path d="M0 0L1 1" style="background:url(https://evil.example)"/></svg>',
  '<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY x SYSTEM "file:///etc/passwd">]><svg xmlns="http://www.w3.org/2000/svg"><path d="&x;"/></svg>',
  '<svg xmlns="http://www.w3.org/2000/svg"><text>Eleanor Abernathy</text></svg>',
  '<svg xmlns="http://www.w3.org/2000/svg"><animate attributeName="href" to="javascript:alert(1)"/><path d="M0 0L1 1"/></svg>',
  '<svg xmlns="http://www.w3.org/2000/svg"><set attributeName="onmouseover" to="alert(1)"/><path d="M0 0L1 1"/></svg>',
  '<svg xmlns="http://www.w3.org/2000/svg"></svg>',
  "<svg",
  "not an svg at all",
  "<html><body onload=alert(1)></body></html>",
  '<svg xmlns="http://www.w3.org/2000/svg"><![CDATA[<script>alert(1)</script>]]><path d="M0 0L1 1"/></svg>',
  '<svg xmlns="http://www.w3.org/2000/svg"><path d="M0 0L1 1"/></svg><script>alert(1)</script>',
);

function replaceEntry(entries: Entries, name: string, value: FormValue | null): Entries {
  const index = entries.findIndex(([entryName]) => entryName === name);
  if (index < 0) throw new Error(`no form field ${name}`);
  const copy = [...entries];
  if (value === null) copy.splice(index, 1);
  else copy[index] = [name, value];
  return copy;
}

/** What any multipart endpoint gets, given the name of its file field and a few text fields that must hold ids or money. */
function formAttacks(url: string, entries: Entries, fileField: string, fields: { name: string; invalid: fc.Arbitrary<string> }[]): fc.Arbitrary<RawRequest> {
  const method = "POST" as const;
  const form = (next: Entries): RawRequest => ({ method, url, form: next });
  const urls = urlVariants(url);
  return fc.oneof(
    hostileSvg.map((svg) => form(replaceEntry(entries, fileField, svgFile(svg)))),
    fc.constantFrom("text/plain", "image/png", "text/html", "application/octet-stream", "image/svg+xml; charset=x").map((type) =>
      form(replaceEntry(entries, fileField, svgFile(type === "image/svg+xml; charset=x" ? "<svg" : SIGNATURE_SVG, type))),
    ),
    fc.integer({ min: SIGNATURE_MAX_BYTES + 1, max: SIGNATURE_MAX_BYTES * 2 }).map((size) =>
      form(replaceEntry(entries, fileField, svgFile(SIGNATURE_SVG.replace("</svg>", `${" ".repeat(size)}</svg>`)))),
    ),
    fc.constant(form(replaceEntry(entries, fileField, null))),
    fc.constantFrom(...fields).chain((field) => field.invalid.map((value) => form(replaceEntry(entries, field.name, value)))),
    // Field names that would reach a prototype, clash, or put a file where text belongs.
    fc
      .constantFrom<[string, FormValue]>(
        ["__proto__[polluted]", "true"],
        ["delivery[__proto__][polluted]", "true"],
        ["constructor[prototype][polluted]", "true"],
        ["returns[][x]", "1"],
        ["delivery[order_ids][][x]", "1"],
        ["a]b[", "1"],
        [fields[0]!.name, svgFile(SIGNATURE_SVG)],
      )
      .map((extra) => form([...entries, extra])),
    fc.integer({ min: 61, max: 120 }).map((parts) => form([...entries, ...Array.from({ length: parts }, (_, i): [string, FormValue] => [`extra${i}`, "x"])])),
    fc.constant(form([...entries, ["notes", "x".repeat(65 * 1024)]])),
    fc.constantFrom("multipart/form-data", "multipart/form-data; boundary=nothing-matches", "multipart/mixed; boundary=x").map((contentType) => ({
      method,
      url,
      raw: { contentType, body: `--x\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n--x--\r\n` },
    })),
    ...(urls ? [urls.map((hostileUrl): RawRequest => ({ method, url: hostileUrl, form: entries }))] : []),
  );
}

// ---------------------------------------------------------------- the endpoints

interface Endpoint {
  name: string;
  /** A valid request on data of its own, and the hostile variants of it. */
  prepare(api: ApiContext, session: TestSession): Promise<{ valid: RawRequest; hostile: fc.Arbitrary<RawRequest> }>;
  /** The status of the valid request. */
  ok: number;
}

const VISA = { number: "4111111111111111", cvv: "123", expiration_date: "12/39" };

async function nonce(api: ApiContext, session: TestSession): Promise<string> {
  const response = await send(api.app, { method: "POST", url: "/api/payments/sandbox/tokenize", json: VISA }, session);
  return TokenizeResponse.parse(response.json()).nonce;
}

const payment = (total: string, token: string) => ({
  delivery: { order_payment: { payment_type: "credit_card", token, email: "", new_copay: null, total, braintree_transaction_id: null } },
});
const P = ["delivery", "order_payment"];

const ENDPOINTS: Endpoint[] = [
  {
    name: "POST /api/sessions",
    ok: 200,
    async prepare() {
      const valid = { method: "POST" as const, url: "/api/sessions", json: { email: "courier@example.com", password: DEMO_PASSWORD } };
      const hostile = jsonAttacks(valid, [
        { path: ["email"], invalid: fc.oneof(badText(254, { emptyIsBad: true }), fc.constantFrom("courier", "@example.com", "courier@", ...injection)) },
        { path: ["password"], invalid: fc.oneof(badText(200, { emptyIsBad: true }), fc.string({ minLength: 1, maxLength: 50 }).filter((p) => p !== DEMO_PASSWORD)) },
      ]);
      return { valid, hostile };
    },
  },
  {
    name: "POST /api/payments/sandbox/tokenize",
    ok: 200,
    async prepare() {
      const valid = { method: "POST" as const, url: "/api/payments/sandbox/tokenize", json: VISA };
      const hostile = jsonAttacks(valid, [
        { path: ["number"], invalid: fc.oneof(badText(23, { emptyIsBad: true }), fc.stringMatching(/^4[0-9]{12,18}$/).filter((n) => cardBehaviour(n) === null), fc.constantFrom(...injection)) },
        { path: ["cvv"], invalid: fc.oneof(badText(4, { emptyIsBad: true }), fc.constantFrom("12", "abc", "１２３")) },
        { path: ["expiration_date"], invalid: fc.oneof(badText(7, { emptyIsBad: true }), fc.constantFrom("13/30", "00/30", "12/19", "1/2", "ab/cd", "１２/３９")) },
      ]);
      return { valid, hostile };
    },
  },
  {
    name: "PUT /api/courier/orders/:id/authorize",
    ok: 200,
    async prepare(api, session) {
      const db = api.database.db;
      const id = await freshOrder(db, { courierId: session.courierId, pharmacyId: await pharmacyIdOf(db, "Market Street Apothecary"), status: "picked_up", copayCents: 2000 });
      const valid = { method: "PUT" as const, url: `/api/courier/orders/${id}/authorize`, json: payment("20.00", await nonce(api, session)) };
      const hostile = jsonAttacks(valid, [
        { path: [...P, "payment_type"], invalid: badEnum(["credit_card"]) },
        { path: [...P, "total"], invalid: fc.oneof(badMoney, wrongAmount) },
        { path: [...P, "token"], invalid: fc.oneof(tooLong(4096), wrongTypeNotNull, fc.constant("")) },
        { path: [...P, "email"], invalid: fc.oneof(fc.constantFrom("not-an-email", "a@", "<script>@x", ...injection.filter((s) => s.trim() !== "")), tooLong(254)) },
        { path: [...P, "new_copay"], invalid: fc.oneof(badMoney, fc.constantFrom("0.50", "0.00", "1.0")) },
        { path: [...P, "braintree_transaction_id"], invalid: fc.oneof(tooLong(64), fc.constant("")) },
        { path: ["delivery"], invalid: wrongType },
      ]);
      return { valid, hostile };
    },
  },
  {
    name: "PUT /api/courier/orders/:id",
    ok: 200,
    async prepare(api, session) {
      const db = api.database.db;
      const id = await freshOrder(db, { courierId: session.courierId, pharmacyId: await pharmacyIdOf(db, "Market Street Apothecary"), status: "picked_up", copayCents: 1500 });
      const authorized = await send(api.app, { method: "PUT", url: `/api/courier/orders/${id}/authorize`, json: payment("15.00", await nonce(api, session)) }, session);
      const { transaction_id } = authorized.json() as { transaction_id: string };
      const valid = { method: "PUT" as const, url: `/api/courier/orders/${id}`, json: { delivery: { charge_data: { transaction_id, amount: "15.00" } } } };
      const C = ["delivery", "charge_data"];
      const hostile = jsonAttacks(valid, [
        { path: [...C, "transaction_id"], invalid: fc.oneof(badText(64, { emptyIsBad: true }), fc.constantFrom("sandbox_other", ...injection)) },
        { path: [...C, "amount"], invalid: fc.oneof(badMoney, wrongAmount) },
        { path: [...C, "new_copay"], invalid: fc.oneof(badMoney, fc.constantFrom("3.00")) },
        { path: [...C, "payment_type"], invalid: badEnum(["credit_card"]) },
      ]);
      return { valid, hostile };
    },
  },
  {
    name: "POST /api/courier/deliveries (JSON failed attempt)",
    ok: 200,
    async prepare(api, session) {
      const db = api.database.db;
      const pharmacyId = await pharmacyIdOf(db, "Greenway Health Pharmacy");
      const id = await freshOrder(db, { courierId: session.courierId, pharmacyId, status: "picked_up" });
      const delivered = await freshOrder(db, { courierId: session.courierId, pharmacyId, status: "delivered" });
      const valid = {
        method: "POST" as const,
        url: "/api/courier/deliveries",
        json: { delivery: { failure_reason: "Patient Not Home", client_occurred_at: OCCURRED, order_ids: [id], body: "Rang twice" } },
      };
      const D = ["delivery"];
      const hostile = jsonAttacks(valid, [
        { path: [...D, "failure_reason"], invalid: badEnum(["Patient Not Home", "Patient Could Not Provide Copayment"]) },
        { path: [...D, "client_occurred_at"], invalid: badInstant },
        {
          path: [...D, "order_ids"],
          invalid: fc.oneof(
            fc.constant([]),
            fc.constant([id, id]),
            fc.constant([delivered]),
            fc.constant([id, delivered]),
            fc.array(fc.integer({ min: 1, max: 9 }), { minLength: 21, maxLength: 40 }),
            fc.array(badId, { minLength: 1, maxLength: 3 }),
            wrongType,
          ),
        },
        { path: [...D, "order_ids", 0], invalid: badId },
        { path: [...D, "body"], invalid: fc.oneof(tooLong(1000), wrongTypeNotNull) },
        { path: [...D, "relationship_id"], invalid: fc.constantFrom(1, 2, 3) },
        { path: [...D, "order_payment"], invalid: fc.constant({ payment_type: "cash", amount: "-5.00" }) },
      ]);
      return { valid, hostile };
    },
  },
  {
    name: "POST /api/courier/deliveries (multipart completion)",
    ok: 200,
    async prepare(api, session) {
      const db = api.database.db;
      const id = await freshOrder(db, { courierId: session.courierId, pharmacyId: await pharmacyIdOf(db, "Market Street Apothecary"), status: "picked_up" });
      const completion: DeliveryCompletion = {
        order_ids: [id],
        signature_svg: SIGNATURE_SVG,
        body: null,
        signed_by: "Fixture Patient",
        dob_verified: null,
        recipient_called_at: null,
        client_occurred_at: OCCURRED,
        relationship_id: 1,
        recipient_first_name: null,
        recipient_last_name: null,
        other_relationship_description: null,
        survey: { have_you_left_prescription_at_pharmacy: null, use_delivery_service_again: true, refill_reminder_opt_in: null },
        order_payment: null,
        identification_state: null,
        identification_type: null,
        identification_number: null,
        identification_expiration: null,
        signature_refusal_reason: null,
      };
      const entries = deliveryFormEntries(completion);
      const valid: RawRequest = { method: "POST", url: "/api/courier/deliveries", form: entries };
      const hostile = formAttacks("/api/courier/deliveries", entries, "delivery[signature][attachment][file]", [
        { name: "delivery[order_ids][]", invalid: fc.constantFrom("0", "-1", "1.5", "abc", "99999999999", "1 OR 1=1", "98765432", ...injection) },
        { name: "delivery[relationship_id]", invalid: fc.constantFrom("0", "99", "-1", "abc", "3", "4", ...injection) },
        { name: "delivery[client_occurred_at]", invalid: fc.constantFrom("this morning", "2026-11-21", "2026-13-40T99:99:99Z", ...injection) },
        { name: "delivery[survey][use_delivery_service_again]", invalid: fc.constantFrom("yes", "2", "True ", ...injection) },
      ]);
      return { valid, hostile };
    },
  },
  {
    name: "PUT /api/orders/:id",
    ok: 200,
    async prepare(api, session) {
      const db = api.database.db;
      const id = await freshOrder(db, { courierId: session.courierId, pharmacyId: await pharmacyIdOf(db, "Riverside Community Pharmacy"), status: "submitted_to_courier", copayCents: 1250 });
      const valid = { method: "PUT" as const, url: `/api/orders/${id}`, json: { order: { copay: "12.50" } } };
      const hostile = jsonAttacks(valid, [
        { path: ["order", "copay"], invalid: fc.oneof(badMoney, fc.constantFrom("0.50", "0.99"), fc.stringMatching(/^[1-9]\d{10,19}\.\d{2}$/)) },
        // Not 3 alone: with the body's copay gone (the `order: {}` leaf below), {order: {status_id: 3}} is the spec's own pickup call.
        { path: ["order", "status_id"], invalid: fc.oneof(badId, fc.constantFrom(1, 9999)) },
        { path: ["order", "note"], invalid: fc.string() },
        { path: ["order"], invalid: fc.oneof(wrongType, fc.constant({}), fc.constant({ status_id: 3, copay: "12.50" })) },
      ]);
      return { valid, hostile };
    },
  },
  {
    name: "POST /api/orders/:id/pickups",
    ok: 200,
    async prepare(api, session) {
      const db = api.database.db;
      const id = await freshOrder(db, { courierId: session.courierId, pharmacyId: await pharmacyIdOf(db, "Riverside Community Pharmacy"), status: "submitted_to_courier" });
      const valid = { method: "POST" as const, url: `/api/orders/${id}/pickups`, json: { client_occurred_at: OCCURRED } };
      const hostile = jsonAttacks(valid, [{ path: ["client_occurred_at"], invalid: fc.oneof(badInstant, fc.constant(null)) }], { nullBodyOk: true });
      return { valid, hostile };
    },
  },
  {
    name: "POST /api/courier/cancellation",
    ok: 200,
    async prepare(api, session) {
      const db = api.database.db;
      const id = await freshOrder(db, { courierId: session.courierId, pharmacyId: await pharmacyIdOf(db, "Riverside Community Pharmacy"), status: "submitted_to_courier" });
      const delivered = await freshOrder(db, { courierId: session.courierId, pharmacyId: await pharmacyIdOf(db, "Riverside Community Pharmacy"), status: "delivered" });
      const valid = { method: "POST" as const, url: "/api/courier/cancellation", json: { order_id: id } };
      const hostile = jsonAttacks(valid, [{ path: ["order_id"], invalid: fc.oneof(badId, fc.constant(delivered)) }]);
      return { valid, hostile };
    },
  },
  {
    name: "POST /api/courier/pharmacies/:id/addons",
    ok: 200,
    async prepare(api) {
      const db = api.database.db;
      const pharmacyId = await pharmacyIdOf(db, "Northside Family Drugs");
      const id = await freshOrder(db, { courierId: null, pharmacyId, status: "submitted_to_courier", copayCents: 500, addon: true });
      const notAddon = await freshOrder(db, { courierId: null, pharmacyId, status: "submitted_to_courier" });
      const valid = { method: "POST" as const, url: `/api/courier/pharmacies/${pharmacyId}/addons`, json: { orders: [{ id, copay: "5.00" }], service_window_instance_id: null } };
      const hostile = jsonAttacks(valid, [
        { path: ["orders"], invalid: fc.oneof(fc.constant([]), fc.constant([{ id, copay: "5.00" }, { id, copay: "5.00" }]), fc.array(fc.record({ id: fc.integer({ min: 1 }), copay: fc.constant("5.00") }), { minLength: 21, maxLength: 25 }), wrongType) },
        { path: ["orders", 0, "id"], invalid: fc.oneof(badId, fc.constant(notAddon)) },
        { path: ["orders", 0, "copay"], invalid: fc.oneof(badMoney, fc.constantFrom("0.50"), fc.stringMatching(/^[1-9]\d{10,19}\.\d{2}$/)) },
        { path: ["service_window_instance_id"], invalid: fc.oneof(badId.filter((v) => typeof v !== "number" || v <= 0 || !Number.isInteger(v) || v > 2 ** 31 - 1)) },
      ]);
      return { valid, hostile };
    },
  },
  {
    name: "POST /api/courier/pharmacies/:id/returns (multipart)",
    ok: 200,
    async prepare(api, session) {
      const db = api.database.db;
      const pharmacyId = await freshPharmacy(db, session.courierId, `Hostile Returns Pharmacy ${Math.random().toString(36).slice(2, 8)}`);
      const id = await freshOrder(db, { courierId: session.courierId, pharmacyId, status: "delivery_attempted", copayCents: 700, feeCents: 300 });
      const entries = returnFormEntries({
        recipient_first_name: "Priya",
        recipient_last_name: "Staff",
        signature_svg: SIGNATURE_SVG,
        courier_id: session.courierId,
        pharmacy_id: pharmacyId,
        cash_collected: "0.00",
        check_collected: "0.00",
        latitude: 39.95,
        longitude: -75.17,
        returns: [{ type: "item", amount: "10.00", order_id: id }],
      });
      const url = `/api/courier/pharmacies/${pharmacyId}/returns`;
      const hostile = formAttacks(url, entries, "signature[attachment][file]", [
        { name: "cash_collected", invalid: fc.constantFrom("-5.00", "5", "1e3", "99999999999999999999.00", "10.00", ...injection) },
        { name: "courier_id", invalid: fc.constantFrom("0", "-1", "abc", "99999999999", "98765432", ...injection) },
        { name: "pharmacy_id", invalid: fc.constantFrom("0", "abc", "98765432", "1 OR 1=1") },
        { name: "recipient_first_name", invalid: fc.constantFrom("x".repeat(33), "💊".repeat(33), " ") },
        { name: "latitude", invalid: fc.constantFrom("91", "-90.5x", "abc", "1e3", "NaN") },
        {
          name: "returns",
          invalid: fc.constantFrom(
            "not json",
            "{}",
            "[]",
            JSON.stringify([{ type: "item", amount: "-10.00", order_id: id }]),
            JSON.stringify([{ type: "item", amount: "9.99", order_id: id }]),
            JSON.stringify([{ type: "cash", amount: "10.00", order_id: id }]),
            JSON.stringify([{ type: "item", amount: "10.00", order_id: id, extra: "<script>" }]),
            JSON.stringify([{ type: "item", amount: "99999999999999999999.00", order_id: id }]),
            JSON.stringify([{ type: "item", amount: "10.00", order_id: 98765432 }]),
            JSON.stringify([{ type: "item", amount: "10.00", order_id: id }, { type: "item", amount: "10.00", order_id: id }]),
            JSON.stringify(Array.from({ length: 501 }, () => ({ type: "item", amount: "10.00", order_id: id }))),
          ),
        },
      ]);
      return { valid: { method: "POST", url, form: entries }, hostile };
    },
  },
  {
    name: "PUT /api/couriers/:courierId/pharmacy_visits/:visitId/arrived_at_pharmacy",
    ok: 200,
    async prepare(api, session) {
      const visitId = await visitAt(api, session.courierId, "Riverside Community Pharmacy");
      const valid = { method: "PUT" as const, url: `/api/couriers/${session.courierId}/pharmacy_visits/${visitId}/arrived_at_pharmacy`, json: {} };
      // The body carries nothing: the attacks are on the path and on bodies that are not an object.
      const hostile = jsonAttacks(valid, [], { nullBodyOk: true });
      return { valid, hostile };
    },
  },
  {
    name: "POST /api/couriers/:courierId/pharmacy_visits/confirm",
    ok: 200,
    async prepare(api, session) {
      const visitId = await visitAt(api, session.courierId, "Lakeside Specialty Pharmacy");
      const other = await courierIdOf(api.database.db, "courier2@example.com");
      const theirs = await visitAt(api, other, "Riverside Community Pharmacy");
      const valid = { method: "POST" as const, url: `/api/couriers/${session.courierId}/pharmacy_visits/confirm`, json: { pharmacy_visits: [{ id: visitId, confirmed: true }] } };
      const hostile = jsonAttacks(valid, [
        { path: ["pharmacy_visits"], invalid: fc.oneof(fc.constant([]), fc.constant([{ id: visitId, confirmed: true }, { id: visitId, confirmed: false }]), fc.constant([{ id: visitId, confirmed: true }, { id: theirs, confirmed: true }]), wrongType) },
        { path: ["pharmacy_visits", 0, "id"], invalid: fc.oneof(badId, fc.constant(theirs)) },
        { path: ["pharmacy_visits", 0, "confirmed"], invalid: fc.oneof(fc.constantFrom("true", "false", 1, 0, "yes", ...injection), fc.constant(null)) },
      ]);
      return { valid, hostile };
    },
  },
  {
    name: "POST /api/client_errors",
    ok: 204,
    async prepare() {
      const valid = {
        method: "POST" as const,
        url: "/api/client_errors",
        json: { kind: "unhandled", message: "Failed to fetch", url: "https://courier.example/pharmacies/3/verify_orders/12", stack: "at x (https://courier.example/assets/index.js:1:2)" },
      };
      const hostile = jsonAttacks(valid, [
        { path: ["kind"], invalid: badEnum(["render", "unhandled"]) },
        { path: ["message"], invalid: fc.oneof(badText(2000, { emptyIsBad: true })) },
        { path: ["url"], invalid: fc.oneof(badText(2048, { emptyIsBad: true })) },
        { path: ["stack"], invalid: fc.oneof(tooLong(8000), wrongTypeNotNull) },
        { path: ["patient"], invalid: fc.constantFrom({ first_name: "Eleanor", dob: "1948-03-14" }, "Eleanor Abernathy") },
      ]);
      // A body over the route's 16 KB limit but under the app's 256 KB.
      const bigButUnderAppLimit = fc.constant({ ...valid, json: { ...valid.json, message: "x".repeat(20_000) } });
      return { valid, hostile: fc.oneof(hostile, bigButUnderAppLimit) };
    },
  },
];

async function visitAt(api: ApiContext, courierId: number, pharmacyName: string): Promise<number> {
  const db = api.database.db;
  const pharmacyId = await pharmacyIdOf(db, pharmacyName);
  const [visit] = (await db.select().from(pharmacyVisits).where(eq(pharmacyVisits.courierId, courierId))).filter((v) => v.pharmacyId === pharmacyId);
  if (!visit) throw new Error(`no visit at ${pharmacyName}`);
  return visit.id;
}

const TABLES = [...WRITABLE_TABLES, "sessions"];
let address = 0;

describeApi("hostile input", (api) => {
  it("the database digest notices a one-field change (so 'unchanged' below means something)", async () => {
    const db = api().database.db;
    const before = await databaseDigest(db, TABLES);
    const [row] = await db.select({ id: orders.id, note: orders.pickupNote }).from(orders).limit(1);
    await db.update(orders).set({ pickupNote: "digest probe" }).where(eq(orders.id, row!.id));
    const after = await databaseDigest(db, TABLES);
    await db.update(orders).set({ pickupNote: row!.note }).where(eq(orders.id, row!.id));
    expect(after.orders).not.toBe(before.orders);
    expect(Object.keys(after).filter((table) => after[table] !== before[table])).toEqual(["orders"]);
    expect(await databaseDigest(db, TABLES)).toEqual(before);
  });

  for (const endpoint of ENDPOINTS) {
    it(`${endpoint.name}: every hostile variant is a clear 4xx and changes nothing; the valid request then succeeds`, async () => {
      const { app, database } = api();
      const db = database.db;
      const session = await makeSession(db, await courierIdOf(db, "courier@example.com"));
      const { valid, hostile } = await endpoint.prepare(api(), session);
      await fc.assert(
        fc.asyncProperty(hostile, async (request) => {
          // Each run from its own address: the rate limits on login and error reports are not what is tested here.
          const remoteAddress = `10.9.${Math.floor(++address / 250) % 250}.${(address % 250) + 1}`;
          const before = await databaseDigest(db, TABLES);
          const response = await send(app, { ...request, remoteAddress }, session);
          expect(response.statusCode, `${request.method} ${request.url.slice(0, 120)} → ${response.statusCode} ${response.body.slice(0, 300)}`).toBeGreaterThanOrEqual(400);
          expect(response.statusCode, response.body.slice(0, 300)).toBeLessThan(500);
          const body = response.json() as { error?: unknown; message?: unknown };
          expect(typeof body.error, response.body.slice(0, 300)).toBe("string");
          expect(typeof body.message).toBe("string");
          expect((body.message as string).length).toBeGreaterThan(5);
          const after = await databaseDigest(db, TABLES);
          expect(Object.keys(after).filter((table) => after[table] !== before[table]), response.body.slice(0, 300)).toEqual([]);
        }),
        { numRuns: RUNS },
      );
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
      const response = await send(app, { ...valid, remoteAddress: "10.8.0.1" }, session);
      expect(response.statusCode, response.body).toBe(endpoint.ok);
    });
  }

  it("after all of it, no stored signature holds active content", async () => {
    const db = api().database.db;
    const result = await db.execute(sql`select count(*)::int as n from deliveries where signature_svg ~* '(script|onload|foreignObject|href|javascript:)'`);
    const rows = (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as { n: number }[];
    expect(rows[0]!.n).toBe(0);
  });
});
