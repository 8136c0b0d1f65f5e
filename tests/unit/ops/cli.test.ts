import { mkdtempSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { runOps } from "../../../scripts/ops/cli.ts";

/**
 * The CLI against a stub of the operations API: what it sends (path, key,
 * body, chunks) and what it prints. tests/e2e/ops-cli.test.ts runs it against
 * the real server.
 */

interface Seen {
  method: string;
  url: string;
  authorization: string | undefined;
  body: unknown;
}

let server: Server;
let url = "";
let seen: Seen[] = [];
const known = new Map<string, number>();

function answer(method: string, url: string, body: Record<string, unknown>): [number, unknown] {
  if (method === "POST" && url === "/api/ops/v1/orders/batch") {
    const orders = body.orders as { external_id: string }[];
    return [200, {
      results: orders.map(({ external_id }) => {
        if (external_id.startsWith("BAD")) return { external_id, status: "rejected", errors: [{ path: "address.zipcode", message: "is not a ZIP code we serve" }] };
        if (known.has(external_id)) return { external_id, status: "unchanged", order_id: known.get(external_id) };
        known.set(external_id, 100 + known.size);
        return { external_id, status: "created", order_id: known.get(external_id) };
      }),
    }];
  }
  if (method === "POST" && url === "/api/ops/v1/couriers") {
    return [201, { courier: { id: 9, first_name: body.first_name, last_name: body.last_name, email: body.email, phone_number: null, active: true, password_set: false, created_at: "x" }, invite_token: "tok_A-b", invite_expires_at: "2026-12-01T00:00:00.000Z" }];
  }
  if (method === "POST" && url === "/api/ops/v1/pharmacies") return [201, { pharmacy: { id: 3, ...body } }];
  if (method === "POST" && url === "/api/ops/v1/keys") return [201, { id: 5, key: "rxc_secret", role: body.role, pharmacy_id: body.pharmacy_id ?? null, name: body.name }];
  if (method === "GET" && url === "/api/ops/v1/keys") {
    return [200, { keys: [
      { id: 1, role: "dispatch", pharmacy_id: null, name: "OPS_API_KEY", created_at: "2026-11-20T08:00:00.000Z", last_used_at: "2026-11-25T14:05:09.120Z", revoked_at: null },
      { id: 5, role: "pharmacy", pharmacy_id: 3, name: "Leaver's laptop", created_at: "2026-11-21T09:30:00.000Z", last_used_at: null, revoked_at: "2026-11-24T17:45:00.000Z" },
    ] }];
  }
  if (method === "DELETE" && url === "/api/ops/v1/keys/5") return [204, null];
  if (method === "POST" && url === "/api/ops/v1/assignments") {
    if ((body.order_ids as number[]).includes(13)) return [409, { error: "conflict", message: "Order 13 is already picked up." }];
    const ids = body.order_ids as number[];
    // Order 14 is already on that day (unchanged); order 15 was on 2026-11-24 (rescheduled).
    const rescheduled = ids.includes(15) ? [{ order_id: 15, from: "2026-11-24", to: body.service_date }] : [];
    const unchanged = ids.filter((id) => id === 14);
    return [200, { orders: ids.map((id) => ({ id })), pharmacy_visits: [{ id: 1, courier_id: body.courier_id, pharmacy_id: 3, service_date: body.service_date, confirmed: null }], rescheduled, unchanged }];
  }
  return [404, { error: "not_found", message: `No route ${method} ${url}.` }];
}

beforeAll(async () => {
  server = createServer((request, response) => {
    let text = "";
    request.on("data", (chunk) => (text += chunk));
    request.on("end", () => {
      const body = text ? JSON.parse(text) : undefined;
      seen.push({ method: request.method!, url: request.url!, authorization: request.headers.authorization, body });
      const [status, json] = request.headers.authorization === "Bearer good-key" ? answer(request.method!, request.url!, body ?? {}) : [401, { error: "unauthenticated", message: "A valid API key is required." }];
      response.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(json));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
beforeEach(() => {
  seen = [];
  known.clear();
});

async function ops(args: string[], env: Record<string, string> = { RXC_URL: url, RXC_KEY: "good-key" }) {
  const out: string[] = [];
  const err: string[] = [];
  const status = await runOps(args, { env, out: (text) => out.push(text), err: (text) => err.push(text) });
  return { status, out: out.join("\n"), err: err.join("\n") };
}

const dir = mkdtempSync(path.join(tmpdir(), "rxc-ops-cli-"));
function csvFile(name: string, content: string | Buffer): string {
  const file = path.join(dir, name);
  writeFileSync(file, content);
  return file;
}
const HEADER = "external_id,patient_first_name,patient_last_name,phone_number,street_address,city,state_abbreviation,zipcode,rx_numbers,copay";
const line = (id: string, copay = "12.50") => `${id},Ana,Lopez,215-555-0100,1 Main St,Philadelphia,PA,19103,RX-${id},${copay}`;

describe("npm run ops -- orders import", () => {
  it("sends the rows in chunks with the key, shows progress, and reports rejected rows by line", async () => {
    const file = csvFile("day.csv", [HEADER, line("A1"), line("A2"), "", line("BAD1"), line("A3", "0.10"), line("A4"), line("A5")].join("\r\n") + "\r\n");
    const result = await ops(["orders", "import", file, "--pharmacy", "3", "--chunk-size", "2"]);
    expect(result.status).toBe(1);
    const batches = seen.filter((s) => s.url === "/api/ops/v1/orders/batch");
    expect(batches.map((b) => (b.body as { orders: { external_id: string }[] }).orders.map((o) => o.external_id))).toEqual([["A1", "A2"], ["BAD1", "A4"], ["A5"]]);
    expect(batches.every((b) => b.authorization === "Bearer good-key")).toBe(true);
    expect((batches[0]!.body as { orders: { pharmacy_id: number }[] }).orders[0]!.pharmacy_id).toBe(3);
    expect(result.err.split("\n")).toEqual([
      `Importing ${file}: 2/5 orders sent (40%)`,
      `Importing ${file}: 4/5 orders sent (80%)`,
      `Importing ${file}: 5/5 orders sent (100%)`,
    ]);
    expect(result.out).toBe(
      [
        `${file}: 6 rows: 4 created, 0 unchanged (already imported), 2 rejected.`,
        "Rejected rows (nothing of them was imported; fix them and import the file again):",
        "  line 5 (BAD1): zipcode is not a ZIP code we serve",
        "  line 6 (A3): copay must be 0.00 (no copay) or at least 1.00",
      ].join("\n"),
    );
  });

  it("a second run of the same file changes nothing, and exits 0 when no row is rejected", async () => {
    const file = csvFile("again.csv", [HEADER, line("B1"), line("B2")].join("\n"));
    expect((await ops(["orders", "import", file, "--pharmacy", "3"])).status).toBe(0);
    const again = await ops(["orders", "import", file, "--pharmacy", "3"]);
    expect(again.status).toBe(0);
    expect(again.out).toBe(`${file}: 2 rows: 0 created, 2 unchanged (already imported), 0 rejected.`);
    expect(again.err).toBe("");
  });

  it("refuses a file whose header does not fit, or that is not UTF-8, before sending anything", async () => {
    const wrong = await ops(["orders", "import", csvFile("wrong.csv", "id,name\n1,Ana\n"), "--pharmacy", "3"]);
    expect(wrong.status).toBe(2);
    expect(wrong.err).toMatch(/^The header row missing columns: external_id, patient_first_name/);
    const latin1 = await ops(["orders", "import", csvFile("latin1.csv", Buffer.from(`${HEADER}\n${line("C1")}\xe9\n`, "latin1")), "--pharmacy", "3"]);
    expect(latin1.status).toBe(2);
    expect(latin1.err).toContain('is not UTF-8 text: save it as "CSV UTF-8"');
    expect(seen).toEqual([]);
  });

  it("says which environment variable is missing, and what a refused key means", async () => {
    const file = csvFile("one.csv", [HEADER, line("D1")].join("\n"));
    const missing = await ops(["orders", "import", file, "--pharmacy", "3"], {});
    expect(missing.status).toBe(2);
    expect(missing.err).toBe("Set RXC_URL (the server, e.g. http://127.0.0.1:3000) and RXC_KEY (an ops API key) in the environment.");
    const refused = await ops(["orders", "import", file, "--pharmacy", "3"], { RXC_URL: url, RXC_KEY: "wrong" });
    expect(refused.status).toBe(1);
    expect(refused.err).toContain("401 unauthenticated: A valid API key is required.");
    expect(refused.err).toContain("The import stopped at line 2: rows from there on were not sent.");
  });

  it("refuses a pharmacy id that is not a number", async () => {
    const result = await ops(["orders", "import", "x.csv", "--pharmacy", "three"]);
    expect(result.status).toBe(2);
    expect(result.err).toContain("--pharmacy must be a positive whole number.");
  });
});

describe("npm run ops -- the other commands", () => {
  it("couriers invite prints the courier and the /set-password link", async () => {
    const result = await ops(["couriers", "invite", "--first-name", "Sam", "--last-name", "Reyes", "--email", "sam@example.com"]);
    expect(result.status).toBe(0);
    expect(seen[0]).toMatchObject({ method: "POST", url: "/api/ops/v1/couriers", body: { first_name: "Sam", last_name: "Reyes", email: "sam@example.com", phone_number: null } });
    expect(result.out).toContain("Courier 9: Sam Reyes <sam@example.com>");
    expect(result.out).toContain(`${url}/set-password?token=tok_A-b`);
  });

  it("pharmacies add sends the whole pharmacy, with every payment type named", async () => {
    const result = await ops([
      "pharmacies", "add", "--name", "Riverside", "--phone", "2155550100", "--street", "1 River Rd", "--city", "Philadelphia",
      "--state", "pa", "--zip", "19103", "--lat", "39.95", "--lng", "-75.16", "--payment-methods", "cash,card", "--collect-copay",
    ]);
    expect(result.status).toBe(0);
    expect(seen[0]!.body).toEqual({
      name: "Riverside",
      phone_number: "2155550100",
      address: { street_address: "1 River Rd", street_address_2: null, city: "Philadelphia", state_abbreviation: "PA", zipcode: "19103", latitude: 39.95, longitude: -75.16 },
      payment_methods: [{ type: "cash", allowed: true }, { type: "check", allowed: false }, { type: "card", allowed: true }],
      allow_pod_copay_collection: true,
      routing_enabled: false,
      dob_verification_enabled: false,
      pod_recipient_config: null,
      can_skip_copay_collection: false,
      can_skip_signature: false,
      pickup_note: null,
    });
    expect(result.out).toBe("Pharmacy 3: Riverside");
  });

  it("assign sends the ids; a refusal is printed with the server's words and exit status 1", async () => {
    const ok = await ops(["assign", "--courier", "9", "--date", "2026-11-25", "--orders", "11, 12"]);
    expect(ok.status).toBe(0);
    expect(seen[0]!.body).toEqual({ courier_id: 9, service_date: "2026-11-25", order_ids: [11, 12] });
    expect(ok.out).toBe("Assigned 2 orders to courier 9 on 2026-11-25. Pharmacy visits: visit 1 at pharmacy 3 (waiting for the courier to confirm).");
    const told = await ops(["assign", "--courier", "9", "--date", "2026-11-25", "--orders", "14,15"]);
    expect(told.out).toBe(
      "Assigned 2 orders to courier 9 on 2026-11-25 (order 15 moved from 2026-11-24; 1 already there, unchanged). Pharmacy visits: visit 1 at pharmacy 3 (waiting for the courier to confirm).",
    );
    const refused = await ops(["assign", "--courier", "9", "--date", "2026-11-25", "--orders", "13"]);
    expect(refused.status).toBe(1);
    expect(refused.err).toBe("409 conflict: Order 13 is already picked up.");
  });

  it("keys create prints the key once; --json prints the API's answer", async () => {
    const result = await ops(["--json", "keys", "create", "--role", "pharmacy", "--pharmacy", "3", "--name", "Riverside PMS"]);
    expect(result.status).toBe(0);
    expect(seen[0]!.body).toEqual({ role: "pharmacy", pharmacy_id: 3, name: "Riverside PMS" });
    expect(JSON.parse(result.out)).toEqual({ id: 5, key: "rxc_secret", role: "pharmacy", pharmacy_id: 3, name: "Riverside PMS" });
    const badRole = await ops(["keys", "create", "--role", "owner", "--name", "x"]);
    expect(badRole.status).toBe(2);
    expect(badRole.err).toContain("Allowed choices are dispatch, pharmacy");
  });

  it("keys list prints one key a line with when it was made, last used and revoked; keys revoke ID revokes it (issue 25)", async () => {
    const listed = await ops(["keys", "list"]);
    expect(listed.status).toBe(0);
    expect(seen[0]).toMatchObject({ method: "GET", url: "/api/ops/v1/keys" });
    expect(listed.out).toBe(
      [
        "ID  ROLE      PHARMACY  NAME             CREATED               LAST USED             REVOKED",
        "1   dispatch  -         OPS_API_KEY      2026-11-20 08:00 UTC  2026-11-25 14:05 UTC  -",
        "5   pharmacy  3         Leaver's laptop  2026-11-21 09:30 UTC  -                     2026-11-24 17:45 UTC",
      ].join("\n"),
    );
    const revoked = await ops(["keys", "revoke", "5"]);
    expect(revoked.status).toBe(0);
    expect(seen[1]).toMatchObject({ method: "DELETE", url: "/api/ops/v1/keys/5" });
    expect(revoked.out).toBe("Key 5 revoked.");
  });
});
